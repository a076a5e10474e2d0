"""Database triggers that make rows immutable, for SQLite and PostgreSQL.

Each guard is skipped while the table ``immutability_unlock`` holds a row: the deliberate
maintenance switch for a DBA (and for the test runner's flush on SQLite, which deletes rows one
table at a time). Application code never writes that table.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

UNLOCK_TABLE = "immutability_unlock"

# The tables a rating run writes hundreds of thousands of rows to at once: their costly INSERT
# guards run once per statement (Guard.per_statement).
BULK_WRITTEN = ("ratings_eventrating", "ratings_ratingentry")


@dataclass(frozen=True)
class Guard:
    name: str
    table: str
    operation: str  # "UPDATE", "DELETE", "INSERT" or "TRUNCATE" (PostgreSQL only)
    condition: str  # SQL on OLD/NEW (none for TRUNCATE); the change is refused when it is true
    message: str
    # INSERT on PostgreSQL: checked once per statement over the inserted rows, after them (a
    # duplicate is then refused by its unique index first). For guards costly per row.
    per_statement: bool = False
    # The condition as alternatives (condition is their OR). A per-statement guard tests each
    # over the distinct values of the columns it names: a run's 400,000 event ratings are one
    # run, 2,000 events and 20,000 players.
    terms: tuple[str, ...] = ()

    def __post_init__(self):
        if self.terms and self.condition != any_of(self.terms):
            raise ValueError(f"{self.name}: the condition must be the OR of its terms")


def any_of(terms: tuple[str, ...]) -> str:
    """The condition of a guard given as alternatives (Guard.terms)."""
    return " OR ".join(f"({term})" for term in terms)


_NEW_COLUMN = re.compile(r"\bNEW\.([a-z_][a-z0-9_]*)")


def _over_inserted_rows(term: str) -> str:
    """EXISTS over the statement's inserted rows for one alternative. The term reads only the
    NEW columns it names, so testing each distinct combination of them is the same test."""
    columns = sorted(set(_NEW_COLUMN.findall(term)))
    source = (
        f"(SELECT DISTINCT {', '.join(columns)} FROM inserted_rows)" if columns else "inserted_rows"
    )
    condition = _NEW_COLUMN.sub(r"inserted.\1", term)
    return f"EXISTS (SELECT 1 FROM {source} AS inserted WHERE {condition})"


def _unlocked() -> str:
    return f"NOT EXISTS (SELECT 1 FROM {UNLOCK_TABLE})"


def create_sql(vendor: str, guard: Guard) -> list[str]:
    if guard.operation == "TRUNCATE":  # SQLite has no TRUNCATE (DELETE is guarded per row)
        if vendor != "postgresql":
            return []
        return [
            f"CREATE OR REPLACE FUNCTION {guard.name}_fn() RETURNS trigger AS $$ BEGIN "
            f"IF ({guard.condition}) AND {_unlocked()} THEN "
            f"RAISE EXCEPTION '{guard.message}' USING ERRCODE = 'integrity_constraint_violation'; "
            f"END IF; RETURN NULL; END; $$ LANGUAGE plpgsql;",
            f"CREATE TRIGGER {guard.name} BEFORE TRUNCATE ON {guard.table} "
            f"FOR EACH STATEMENT EXECUTE FUNCTION {guard.name}_fn();",
        ]
    if vendor == "sqlite":
        return [
            f"CREATE TRIGGER {guard.name} BEFORE {guard.operation} ON {guard.table} "
            f"WHEN ({guard.condition}) AND {_unlocked()} "
            f"BEGIN SELECT RAISE(ABORT, '{guard.message}'); END;"
        ]
    if vendor == "postgresql" and guard.operation == "INSERT" and guard.per_statement:
        # Once per statement over all the rows it inserted (a run COPYs 400,000 event ratings:
        # a row trigger costs a function call and its lookups per row).
        found = " OR ".join(_over_inserted_rows(term) for term in guard.terms or (guard.condition,))
        return [
            f"CREATE OR REPLACE FUNCTION {guard.name}_fn() RETURNS trigger AS $$ BEGIN "
            f"IF ({found}) AND {_unlocked()} THEN "
            f"RAISE EXCEPTION '{guard.message}' USING ERRCODE = 'integrity_constraint_violation'; "
            f"END IF; RETURN NULL; END; $$ LANGUAGE plpgsql;",
            f"CREATE TRIGGER {guard.name} AFTER INSERT ON {guard.table} "
            f"REFERENCING NEW TABLE AS inserted_rows "
            f"FOR EACH STATEMENT EXECUTE FUNCTION {guard.name}_fn();",
        ]
    if vendor == "postgresql":
        returned = "OLD" if guard.operation == "DELETE" else "NEW"
        return [
            f"CREATE OR REPLACE FUNCTION {guard.name}_fn() RETURNS trigger AS $$ BEGIN "
            f"IF ({guard.condition}) AND {_unlocked()} THEN "
            f"RAISE EXCEPTION '{guard.message}' USING ERRCODE = 'integrity_constraint_violation'; "
            f"END IF; RETURN {returned}; END; $$ LANGUAGE plpgsql;",
            f"CREATE TRIGGER {guard.name} BEFORE {guard.operation} ON {guard.table} "
            f"FOR EACH ROW EXECUTE FUNCTION {guard.name}_fn();",
        ]
    return []


def drop_sql(vendor: str, guard: Guard) -> list[str]:
    if vendor == "sqlite" and guard.operation != "TRUNCATE":
        return [f"DROP TRIGGER IF EXISTS {guard.name};"]
    if vendor == "postgresql":
        return [
            f"DROP TRIGGER IF EXISTS {guard.name} ON {guard.table};",
            f"DROP FUNCTION IF EXISTS {guard.name}_fn();",
        ]
    return []


_WORD = re.compile(r"\b[a-z][a-z0-9_]*\b")


def tables_of(guard: Guard, known_tables: set[str]) -> set[str]:
    """The guard's table and the tables its condition reads (of those the models define)."""
    return {guard.table} | (set(_WORD.findall(guard.condition)) & known_tables)


def reinstall(connection, guards: list[Guard]) -> int:
    """Drop and create each guard whose tables exist (after every migrate: on SQLite, a migration
    that rebuilds a table drops the triggers on it). Returns how many were installed."""
    from django.apps import apps

    existing = set(connection.introspection.table_names())
    known = {model._meta.db_table for model in apps.get_models()}
    installed = 0
    with connection.cursor() as cursor:
        cursor.execute(f"CREATE TABLE IF NOT EXISTS {UNLOCK_TABLE} (reason varchar(200))")
        for guard in guards:
            if not tables_of(guard, known) <= existing:
                continue
            for sql in drop_sql(connection.vendor, guard) + create_sql(connection.vendor, guard):
                cursor.execute(sql)
            installed += 1
    return installed


def sqlite_keep_trigger_references(sender, connection, **kwargs) -> None:
    """SQLite rebuilds a table to alter it (create new, copy, drop, rename); since 3.26 the
    rename re-checks every trigger and fails on those naming the dropped table. The legacy rename
    leaves trigger bodies alone, and they are right again once the new table has the name."""
    if connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA legacy_alter_table = ON")


def install(schema_editor, guards: list[Guard]) -> None:
    """Create each guard whose tables exist at this point of the migrations: the registries the
    guards come from are today's, and may name tables a later migration creates (those guards
    are installed by ``reinstall`` after the migrate that creates them)."""
    from django.apps import apps

    connection = schema_editor.connection
    existing = set(connection.introspection.table_names())
    known = {model._meta.db_table for model in apps.get_models()}
    schema_editor.execute(f"CREATE TABLE IF NOT EXISTS {UNLOCK_TABLE} (reason varchar(200))")
    for guard in guards:
        if not tables_of(guard, known) <= existing:
            continue
        for sql in create_sql(connection.vendor, guard):
            schema_editor.execute(sql)


def uninstall(schema_editor, guards: list[Guard]) -> None:
    vendor = schema_editor.connection.vendor
    for guard in guards:
        for sql in drop_sql(vendor, guard):
            schema_editor.execute(sql)


AUDIT_GUARDS = [
    Guard(
        "audit_no_update", "federation_auditevent", "UPDATE", "1=1", "audit events are append-only"
    ),
    Guard(
        "audit_no_delete", "federation_auditevent", "DELETE", "1=1", "audit events are append-only"
    ),
]

AUDIT_TRUNCATE_GUARDS = [
    Guard(
        "audit_no_truncate",
        "federation_auditevent",
        "TRUNCATE",
        "1=1",
        "audit events are append-only",
    ),
]

# The first guards of published lists (ratings 0002); ratings.guards replaces them (0004).
_FROZEN = "('published', 'superseded')"
LIST_GUARDS = [
    Guard(
        "ratinglist_frozen_no_update",
        "ratings_ratinglist",
        "UPDATE",
        f"OLD.status IN {_FROZEN} AND NOT (OLD.status = 'published' AND NEW.status = 'superseded'"
        " AND NEW.period_id = OLD.period_id AND NEW.run_id = OLD.run_id"
        " AND NEW.entry_count = OLD.entry_count AND NEW.output_digest = OLD.output_digest)",
        "published rating lists are immutable",
    ),
    Guard(
        "ratinglist_frozen_no_delete",
        "ratings_ratinglist",
        "DELETE",
        f"OLD.status IN {_FROZEN}",
        "published rating lists are immutable",
    ),
    Guard(
        "ratingentry_frozen_no_update",
        "ratings_ratingentry",
        "UPDATE",
        f"(SELECT status FROM ratings_ratinglist WHERE id = OLD.rating_list_id) IN {_FROZEN}",
        "entries of published rating lists are immutable",
    ),
    Guard(
        "ratingentry_frozen_no_delete",
        "ratings_ratingentry",
        "DELETE",
        f"(SELECT status FROM ratings_ratinglist WHERE id = OLD.rating_list_id) IN {_FROZEN}",
        "entries of published rating lists are immutable",
    ),
    Guard(
        "ratingentry_frozen_no_insert",
        "ratings_ratingentry",
        "INSERT",
        f"(SELECT status FROM ratings_ratinglist WHERE id = NEW.rating_list_id) IN {_FROZEN}",
        "entries of published rating lists are immutable",
        per_statement=True,  # BULK_WRITTEN: a run writes 20,000 to 100,000 entries at once
    ),
]

RUN_RECORD_GUARDS = [
    Guard(
        "runrecord_no_update",
        "ratings_runrecord",
        "UPDATE",
        "1=1",
        "the stored input and output of a run are final",
    ),
    Guard(
        "runrecord_published_no_delete",
        "ratings_runrecord",
        "DELETE",
        f"(SELECT status FROM ratings_ratinglist WHERE run_id = OLD.run_id) IN {_FROZEN}",
        "the stored input and output of a published run are final",
    ),
]
