"""POST data for an admin change form as the browser would send it unchanged."""

from __future__ import annotations


def _field_value(bound):
    value = bound.value()
    if value is None:
        return ""
    if isinstance(value, bool):
        return "on" if value else ""
    if isinstance(value, (list, tuple)):
        return [str(v) for v in value]
    return str(value)


def _form_data(form) -> dict:
    data = {}
    for name, field in form.fields.items():
        bound = form[name]
        if field.disabled:
            continue
        value = _field_value(bound)
        if value == "" and bound.widget_type == "checkbox":
            continue
        data[bound.html_name] = value
    return data


def change_form_data(response) -> dict:
    """The change form's current values, inline formsets included (management forms too)."""
    data = _form_data(response.context["adminform"].form)
    for inline in response.context["inline_admin_formsets"]:
        formset = inline.formset
        management = formset.management_form
        for name in management.fields:
            data[management[name].html_name] = _field_value(management[name])
        # No extra (blank) forms: the browser would send them with their defaults filled in.
        data[management["TOTAL_FORMS"].html_name] = str(len(formset.initial_forms))
        for form in formset.initial_forms:
            data.update(_form_data(form))
    data["_save"] = "Save"
    return data
