"""Database triggers that make rows immutable, for SQLite and PostgreSQL.

Each guard is skipped while the table ``immutability_unlock`` holds a row: the deliberate
maintenance switch for a DBA (and for the test runner's flush on SQLite, which deletes rows one
table at a time). Application code never writes that table.
"""

from __future__ import annotations

from dataclasses import dataclass

UNLOCK_TABLE = "immutability_unlock"


@dataclass(frozen=True)
class Guard:
    name: str
    table: str
    operation: str  # "UPDATE", "DELETE" or "INSERT"
    condition: str  # SQL on OLD/NEW; the change is refused when it is true
    message: str


def _unlocked() -> str:
    return f"NOT EXISTS (SELECT 1 FROM {UNLOCK_TABLE})"


def create_sql(vendor: str, guard: Guard) -> list[str]:
    if vendor == "sqlite":
        return [
            f"CREATE TRIGGER {guard.name} BEFORE {guard.operation} ON {guard.table} "
            f"WHEN ({guard.condition}) AND {_unlocked()} "
            f"BEGIN SELECT RAISE(ABORT, '{guard.message}'); END;"
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
    if vendor == "sqlite":
        return [f"DROP TRIGGER IF EXISTS {guard.name};"]
    if vendor == "postgresql":
        return [
            f"DROP TRIGGER IF EXISTS {guard.name} ON {guard.table};",
            f"DROP FUNCTION IF EXISTS {guard.name}_fn();",
        ]
    return []


def install(schema_editor, guards: list[Guard]) -> None:
    vendor = schema_editor.connection.vendor
    schema_editor.execute(f"CREATE TABLE IF NOT EXISTS {UNLOCK_TABLE} (reason varchar(200))")
    for guard in guards:
        for sql in create_sql(vendor, guard):
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
