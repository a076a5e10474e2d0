"""Foreign keys the database checks once per statement instead of once per row.

A rating run writes 400,000 event ratings at once; PostgreSQL checks a foreign-key constraint
row by row (three lookups and row locks per event rating at commit: seconds). The bulk-written
tables therefore declare those keys with ``db_constraint=False`` and the database enforces them
with the triggers below, generated from the models (one home: the field's declaration):

- INSERT into the referring table: every referenced row exists (per statement on PostgreSQL for
  the bulk-written tables, over the distinct keys inserted);
- UPDATE of the referring column: the new referenced row exists;
- DELETE of a referenced row, or a change of its id: no row refers to it (the ORM deletes the
  referring rows of a CASCADE first, and refuses a PROTECT with its own message before that);
- TRUNCATE of a referenced table (PostgreSQL): refused while rows refer to it.

tests/hardening/test_statement_references.py checks every such key of every model, both ways.
"""

from __future__ import annotations

from dataclasses import dataclass

from federation.triggers import BULK_WRITTEN, Guard

MISSING_MESSAGE = "a row must refer to rows that exist"
REFERRED_MESSAGE = "other rows refer to this row"


@dataclass(frozen=True)
class Reference:
    table: str  # the referring table
    column: str
    target: str  # the referenced table (by its id)
    null: bool


def unconstrained_references() -> list[Reference]:
    """Every foreign key whose database constraint the triggers replace."""
    from django.apps import apps

    found = []
    for model in apps.get_models():
        for field in model._meta.local_concrete_fields:
            if field.many_to_one and not field.db_constraint:
                target = field.related_model._meta
                if field.target_field.column != "id":
                    raise ValueError(f"{model._meta.label}.{field.name}: refers to a non-id key")
                found.append(
                    Reference(model._meta.db_table, field.column, target.db_table, field.null)
                )
    return found


# A referring table without an index by every key it refers by: the rows referring to a
# parent by one of the keys another table keeps are looked for there (ratings.persistence.rated_events:
# the distinct (event, run) of the event ratings, indexed by both), not by reading the table.
LOOKED_UP_IN = {"ratings_eventrating": "ratings_ratedevent"}


def foreign_key_columns(table: str) -> set[str]:
    """The columns of the model of `table` that are foreign keys."""
    from django.apps import apps

    model = next(m for m in apps.get_models() if m._meta.db_table == table)
    return {f.column for f in model._meta.local_concrete_fields if f.many_to_one}


def looked_up_in(table: str, column: str) -> str:
    """The table the rows of `table` referring by `column` are looked for in."""
    keeper = LOOKED_UP_IN.get(table)
    return keeper if keeper and column in foreign_key_columns(keeper) else table


def _exists(reference: Reference, key: str) -> str:
    return f"EXISTS (SELECT 1 FROM {reference.target} WHERE id = {key})"


def reference_guards() -> list[Guard]:
    guards = []
    for ref in unconstrained_references():
        name = f"{ref.table}_{ref.column}_ref"
        missing = f"NOT {_exists(ref, f'NEW.{ref.column}')}"
        if ref.null:
            missing = f"NEW.{ref.column} IS NOT NULL AND {missing}"
        where = looked_up_in(ref.table, ref.column)
        referred = f"EXISTS (SELECT 1 FROM {where} WHERE {ref.column} = OLD.id)"
        guards += [
            Guard(
                f"{name}_insert",
                ref.table,
                "INSERT",
                missing,
                MISSING_MESSAGE,
                per_statement=ref.table in BULK_WRITTEN,
            ),
            Guard(
                f"{name}_update",
                ref.table,
                "UPDATE",
                f"NEW.{ref.column} IS DISTINCT FROM OLD.{ref.column} AND {missing}",
                MISSING_MESSAGE,
            ),
            Guard(f"{name}_delete", ref.target, "DELETE", referred, REFERRED_MESSAGE),
            Guard(
                f"{name}_rekey",
                ref.target,
                "UPDATE",
                f"NEW.id <> OLD.id AND {referred}",
                REFERRED_MESSAGE,
            ),
            Guard(
                f"{name}_truncate",
                ref.target,
                "TRUNCATE",
                f"EXISTS (SELECT 1 FROM {ref.table})",
                REFERRED_MESSAGE,
            ),
        ]
    return guards
