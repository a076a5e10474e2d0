"""A model's primary key as the database sees it: one column, or a composite key's columns,
for the tests that write raw SQL against a row."""

from __future__ import annotations

from django.db import connection
from django.db.models import CompositePrimaryKey


def key_columns(model) -> tuple[str, ...]:
    pk = model._meta.pk
    return tuple(pk.columns) if isinstance(pk, CompositePrimaryKey) else (pk.column,)


def where_key(model) -> str:
    """SQL picking one row by its primary key (parameters: key_values of the row)."""
    return " AND ".join(f"{column} = %s" for column in key_columns(model))


def key_values(row) -> list:
    return list(row.pk) if isinstance(row.pk, tuple) else [row.pk]


def table_key_columns(table: str) -> list[str]:
    """The table's primary key columns in key order, as the database holds them (Django's
    SQLite introspection lists a composite key's columns in table order)."""
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute(
                f"SELECT name FROM pragma_table_info('{table}') WHERE pk > 0 ORDER BY pk"
            )
            return [row[0] for row in cursor.fetchall()]
        found = connection.introspection.get_constraints(cursor, table)
    return next(info["columns"] for info in found.values() if info["primary_key"])
