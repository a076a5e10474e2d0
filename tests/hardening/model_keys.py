"""A model's primary key as the database sees it: one column, or a composite key's columns,
for the tests that write raw SQL against a row."""

from __future__ import annotations

from django.db.models import CompositePrimaryKey


def key_columns(model) -> tuple[str, ...]:
    pk = model._meta.pk
    return tuple(pk.columns) if isinstance(pk, CompositePrimaryKey) else (pk.column,)


def where_key(model) -> str:
    """SQL picking one row by its primary key (parameters: key_values of the row)."""
    return " AND ".join(f"{column} = %s" for column in key_columns(model))


def key_values(row) -> list:
    return list(row.pk) if isinstance(row.pk, tuple) else [row.pk]
