"""Values that become part of a URL (federation codes, player ids, event codes, period codes):
one pattern, checked by a model validator, a database check constraint and every importer.

Letters, digits, dot, underscore and hyphen, starting with a letter or digit: nothing a URL
would have to escape, no "/" that splits a path, no "." or ".." that a browser folds away.
"""

from __future__ import annotations

from django.core.validators import RegexValidator
from django.db.models import CheckConstraint, Q

URL_VALUE_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._-]*$"
URL_VALUE_MESSAGE = (
    "Use letters, digits, dots, hyphens and underscores only, starting with a letter or digit "
    "(this value is part of web addresses)."
)
validate_url_value = RegexValidator(URL_VALUE_PATTERN, URL_VALUE_MESSAGE, code="url_value")


def url_value_problem(value: str) -> str | None:
    """The message if ``value`` cannot be part of a URL, else None (for importers)."""
    import re

    return None if re.fullmatch(URL_VALUE_PATTERN, value or "") else URL_VALUE_MESSAGE


def url_value_constraint(field: str, name: str) -> CheckConstraint:
    return CheckConstraint(
        condition=Q(**{f"{field}__regex": URL_VALUE_PATTERN}),
        name=name,
        violation_error_code=field,  # shown on the field (federation.constraint_errors)
        violation_error_message=URL_VALUE_MESSAGE,
    )
