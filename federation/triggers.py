"""Database triggers that make rows immutable, for SQLite and PostgreSQL.

Each guard is skipped while the table ``immutability_unlock`` holds a row: the deliberate
maintenance switch for a DBA (and for the test runner's flush on SQLite, which deletes rows one
table at a time). Application code never writes that table.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

UNLOCK_TABLE = "immutability_unlock"

# The tables a rating run or a live refresh writes hundreds of thousands of rows to at once:
# their costly INSERT guards run once per statement (Guard.per_statement).
BULK_WRITTEN = (
    "ratings_eventrating",
    "ratings_ratingentry",
    "ratings_liveeventrating",
    "ratings_liverating",
)


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


def _columns_of(term: str) -> tuple[str, ...]:
    """The NEW columns a per-statement term reads, sorted."""
    columns = tuple(sorted(set(_NEW_COLUMN.findall(term))))
    if not columns:
        raise ValueError(f"a per-statement term must read a column of the new row: {term}")
    return columns


def _widest(column_sets: set[tuple[str, ...]]) -> list[tuple[str, ...]]:
    """The column sets that are no other's subset, sorted: each term's columns lie in one."""
    return sorted(s for s in column_sets if not any(set(s) < set(o) for o in column_sets))


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def statement_checks_sql(name: str, table: str, guards: list[Guard]) -> list[str]:
    """PostgreSQL: one AFTER INSERT statement trigger testing every guard given over the rows a
    statement inserted. The inserted rows are read once: grouped by the widest column sets the
    terms read (GROUPING SETS, one pass), and each term is tested over the groups of a set
    holding its columns; a term reads only those columns, so testing each distinct combination
    is the same test. A run's 400,000 event ratings become 22,000 groups in one pass (0.2 s of
    its insert; one scan and DISTINCT per term took 0.48 s: tests/hardening/
    test_statement_checks.py names what the sharing keeps). The first guard
    that fails, by name (the order PostgreSQL fires separate triggers in), gives the message."""
    guards = sorted(guards, key=lambda g: g.name)
    terms = [(g, term) for g in guards for term in (g.terms or (g.condition,))]
    column_sets = _widest({_columns_of(term) for _, term in terms})
    every = sorted({c for s in column_sets for c in s})

    def grouping_value(columns: tuple[str, ...]) -> int:
        # GROUPING(every...) sets a bit, leftmost column highest, for each column not grouped
        return sum(1 << (len(every) - 1 - i) for i, c in enumerate(every) if c not in columns)

    def test(term: str) -> str:
        needed = set(_columns_of(term))
        home = next(s for s in column_sets if needed <= set(s))
        condition = _NEW_COLUMN.sub(r"inserted.\1", term)
        return (
            "EXISTS (SELECT 1 FROM keys AS inserted "
            f"WHERE inserted.key_set = {grouping_value(home)} AND ({condition}))"
        )

    listed = ", ".join(every)
    sets = ", ".join("(" + ", ".join(s) + ")" for s in column_sets)
    cases = " ".join(
        f"WHEN {' OR '.join(test(t) for g, t in terms if g is guard)} THEN {_literal(guard.message)}"
        for guard in guards
    )
    return [
        f"CREATE OR REPLACE FUNCTION {name}_fn() RETURNS trigger AS $$ "
        "DECLARE failed text; BEGIN "
        f"IF {_unlocked()} THEN "
        f"WITH keys AS MATERIALIZED (SELECT {listed}, GROUPING({listed}) AS key_set "
        f"FROM inserted_rows GROUP BY GROUPING SETS ({sets})) "
        f"SELECT CASE {cases} END INTO failed; "
        "END IF; "
        "IF failed IS NOT NULL THEN "
        "RAISE EXCEPTION USING MESSAGE = failed, ERRCODE = 'integrity_constraint_violation'; "
        "END IF; RETURN NULL; END; $$ LANGUAGE plpgsql;",
        f"CREATE TRIGGER {name} AFTER INSERT ON {table} "
        "REFERENCING NEW TABLE AS inserted_rows "
        f"FOR EACH STATEMENT EXECUTE FUNCTION {name}_fn();",
    ]


def is_statement_checked(vendor: str, guard: Guard) -> bool:
    """Checked once per INSERT statement (PostgreSQL) rather than by a row trigger."""
    return vendor == "postgresql" and guard.operation == "INSERT" and guard.per_statement


def checks_trigger_name(table: str) -> str:
    """The trigger holding every statement-checked guard of a table (reinstall)."""
    return f"{table}_insert_checks"


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
    if is_statement_checked(vendor, guard):
        # Once per statement over all the rows it inserted (a run COPYs 400,000 event ratings:
        # a row trigger costs a function call and its lookups per row). reinstall() joins a
        # table's guards in one trigger; alone (install, in a migration) it has its own.
        return statement_checks_sql(guard.name, guard.table, [guard])
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
        return _drop_postgresql(guard.name, guard.table)
    return []


def _drop_postgresql(name: str, table: str) -> list[str]:
    """A PostgreSQL trigger and its function."""
    return [f"DROP TRIGGER IF EXISTS {name} ON {table};", f"DROP FUNCTION IF EXISTS {name}_fn();"]


_WORD = re.compile(r"\b[a-z][a-z0-9_]*\b")


def tables_of(guard: Guard, known_tables: set[str]) -> set[str]:
    """The guard's table and the tables its condition reads (of those the models define)."""
    return {guard.table} | (set(_WORD.findall(guard.condition)) & known_tables)


def reinstall(connection, guards: list[Guard]) -> int:
    """Drop and create each guard whose tables exist (after every migrate: on SQLite, a migration
    that rebuilds a table drops the triggers on it). Returns how many were installed. On
    PostgreSQL a table's statement-checked guards share one trigger (statement_checks_sql)."""
    from django.apps import apps

    vendor = connection.vendor
    existing = set(connection.introspection.table_names())
    known = {model._meta.db_table for model in apps.get_models()}
    installed = 0
    checked: dict[str, list[Guard]] = {}
    with connection.cursor() as cursor:
        cursor.execute(f"CREATE TABLE IF NOT EXISTS {UNLOCK_TABLE} (reason varchar(200))")
        for guard in guards:
            if not tables_of(guard, known) <= existing:
                continue
            for sql in drop_sql(vendor, guard):
                cursor.execute(sql)
            if is_statement_checked(vendor, guard):
                checked.setdefault(guard.table, []).append(guard)
            else:
                for sql in create_sql(vendor, guard):
                    cursor.execute(sql)
            installed += 1
        for table in sorted(checked):
            name = checks_trigger_name(table)
            for sql in _drop_postgresql(name, table) + statement_checks_sql(
                name, table, checked[table]
            ):
                cursor.execute(sql)
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
        if is_statement_checked(vendor, guard):  # and the trigger reinstall joined it into
            for sql in _drop_postgresql(checks_trigger_name(guard.table), guard.table):
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

# The first guards of published lists (ratings 0002); ratings.persistence.guards replaces them (0004).
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
