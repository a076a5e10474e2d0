"""The list page's filter inputs as HTML: each field's label, input with the value read from the
query string, and errors, from the form that validates them (ratings.web.filters.ListFilterForm).

Written here rather than in the template: these five fields cost the page more than thirty
variable look-ups and loops through the template engine, on every list page. The template's
loop they replace is the reference of tests/site/test_list_filter_inputs.py, in every language,
on generated query strings.
"""

from __future__ import annotations

from django.forms import Form
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext

from ratings.web.settings_generation import settings_generation

# The inputs the form validates, each with its own attributes (the form's limits).
_INPUTS = {
    "q": 'type="search" name="q" id="id_q" maxlength="100" placeholder="{placeholder}"',
    "country": 'type="text" name="country" id="id_country" size="3" maxlength="2" '
    'autocapitalize="characters"',
    "club": 'type="text" name="club" id="id_club" maxlength="100"',
    "grade": 'type="text" name="grade" id="id_grade" size="4" maxlength="3"',
}


# The inputs of a query string without filters (most list pages: the first, deep pages and
# sorts), kept per language and layout: they are the same text on each of them.
_unfiltered: dict[tuple, SafeString] = {}


def filter_inputs(form: Form, *, shows_grade: bool) -> SafeString:
    """The <p class="field"> of each filter, grade only where the federation shows grades (or
    the query string asks for one)."""
    if any(name in form.data for name in form.fields):
        return _inputs(form, shows_grade=shows_grade)
    key = (get_language(), shows_grade, settings_generation())
    found = _unfiltered.get(key)
    if found is None:
        found = _unfiltered[key] = _inputs(form, shows_grade=shows_grade)
    return found


def _inputs(form: Form, *, shows_grade: bool) -> SafeString:
    # A template's {% translate "…" %} is not escaped: the site's own translations are trusted.
    placeholder = gettext("e.g. Kamińska, Adam")
    fields = []
    for name, attributes in _INPUTS.items():
        field = form[name]
        value = field.value()
        if name == "grade" and not (shows_grade or value):
            continue
        attributes = attributes.format(placeholder=placeholder)
        shown = "" if value is None else conditional_escape(value)
        fields.append(
            f'<p class="field"><label for="id_{name}">{conditional_escape(field.label)}</label> '
            f'<input {attributes} value="{shown}">{_errors(field)}</p>'
        )
    fields.append(_active(form["active"]))
    return mark_safe("\n    ".join(fields))


def _active(field) -> str:
    chosen = field.value()
    options = (
        ("", gettext("all"), False),
        ("true", gettext("active"), chosen is True),
        ("false", gettext("inactive"), chosen is False),
    )
    html = "".join(
        f'<option value="{value}"{" selected" if selected else ""}>{label}</option>'
        for value, label, selected in options
    )
    return (
        f'<p class="field"><label for="id_active">{conditional_escape(field.label)}</label> '
        f'<select name="active" id="id_active">{html}</select>{_errors(field)}</p>'
    )


def _errors(field) -> str:
    return "".join(
        f'<strong class="error" role="alert">{conditional_escape(e)}</strong>' for e in field.errors
    )
