"""Bulk-load benchmark data with COPY through a model's own columns.

The columns a benchmark does not name take what the ORM would have written (the field's default,
"now" for timestamps, NULL where allowed), so a column added to a model later does not break the
loaders (a NOT NULL column without a database default did, twice)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime


def _default(field, now: datetime):
    if getattr(field, "auto_now", False) or getattr(field, "auto_now_add", False):
        return now
    if field.has_default():
        value = field.get_default()
    elif field.null:
        return None
    else:
        value = field.get_default()
    if field.get_internal_type() == "JSONField":
        return json.dumps(value)
    return value


def copy_rows(model, names: Sequence[str], rows: Iterable[Sequence]) -> None:
    """COPY ``rows`` (values in the order of ``names``: field names or attnames) into ``model``."""
    from django.db import connection

    meta = model._meta
    given = [meta.get_field(name) for name in names]
    rest = [f for f in meta.concrete_fields if not f.primary_key and f not in given]
    now = datetime.now(UTC)
    defaults = tuple(_default(f, now) for f in rest)
    columns = ", ".join(f'"{f.column}"' for f in (*given, *rest))
    with (
        connection.cursor() as cursor,
        cursor.cursor.copy(f'COPY "{meta.db_table}" ({columns}) FROM STDIN') as copy,
    ):
        for row in rows:
            copy.write_row((*row, *defaults))
