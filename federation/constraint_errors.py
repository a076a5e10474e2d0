"""Database constraints speak to officials: each carries a ``violation_error_message`` written
for a person and, as its ``violation_error_code``, the name of the field it concerns. Models mix
in ``ConstraintErrorsOnFields`` so a form shows that message on that field (Django would put it
above the form, away from what must change)."""

from __future__ import annotations

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError


class ConstraintErrorsOnFields:
    def validate_constraints(self, exclude=None):
        try:
            super().validate_constraints(exclude=exclude)
        except ValidationError as error:
            raise ValidationError(_on_fields(self, error.error_dict, exclude or ())) from None


def _on_fields(instance, errors: dict, exclude) -> dict:
    fields = {f.name for f in instance._meta.concrete_fields} - set(exclude)
    moved: dict[str, list] = {}
    for name, messages in errors.items():
        for message in messages:
            target = message.code if name == NON_FIELD_ERRORS and message.code in fields else name
            moved.setdefault(target, []).append(message)
    return moved
