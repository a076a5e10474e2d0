"""RatedEvent kept by the database: the distinct (event, run) of the event ratings, always.

Event ratings are keyed by (player, run, event) and have no index by event (ratings.models):
a second index took half of a run's insert. What looks them up by event (the event's page,
the guards refusing to delete an event or run that rows refer to) goes through RatedEvent, a
few thousand rows a run, indexed by event and by run. Triggers on the event ratings add a pair
when the first row of it is inserted (or moved to it) and remove it when the last one goes;
nothing else writes the table (a trigger refuses it, unless the maintenance switch of
federation.triggers is on). On PostgreSQL each trigger runs once per statement over the rows
it changed (a run's 400,000 rows: one DISTINCT, about 0.1 s); on SQLite, once per row.
"""

from __future__ import annotations

from federation.triggers import UNLOCK_TABLE

SOURCE = "ratings_eventrating"
TABLE = "ratings_ratedevent"
KEPT_MESSAGE = "the events a run rated are kept by the database from its event ratings"

_LOCKED = f"NOT EXISTS (SELECT 1 FROM {UNLOCK_TABLE})"


def _rated(pair: str) -> str:
    """Whether an event rating of the pair (`pair`: a row alias or OLD/NEW) is left."""
    return (
        f"EXISTS (SELECT 1 FROM {SOURCE} e "
        f"WHERE e.event_id = {pair}.event_id AND e.run_id = {pair}.run_id)"
    )


def _remove_unrated(pairs: str) -> str:
    """Delete the pairs of the subquery `pairs` that no event rating has any more."""
    return (
        f"DELETE FROM {TABLE} r USING ({pairs}) gone "
        "WHERE r.event_id = gone.event_id AND r.run_id = gone.run_id "
        f"AND NOT {_rated('gone')};"
    )


def _add(pairs: str) -> str:
    return f"INSERT INTO {TABLE} (event_id, run_id) {pairs} ON CONFLICT DO NOTHING;"


def _postgresql_function(name: str, body: str) -> str:
    return (
        f"CREATE OR REPLACE FUNCTION {name}_fn() RETURNS trigger AS $$ BEGIN {body} "
        "RETURN NULL; END; $$ LANGUAGE plpgsql;"
    )


# PostgreSQL: (trigger name, operation, transition tables, the function's body)
_POSTGRESQL_KEEPERS = (
    (
        f"{SOURCE}_rated_events_added",
        "INSERT",
        "NEW TABLE AS new_rows",
        _add("SELECT DISTINCT event_id, run_id FROM new_rows"),
    ),
    (
        # only the pairs the statement moved rows off or onto (a change of the other columns
        # leaves both sets equal, and costs no look-up)
        f"{SOURCE}_rated_events_moved",
        "UPDATE",
        "OLD TABLE AS old_rows NEW TABLE AS new_rows",
        _add("SELECT event_id, run_id FROM new_rows EXCEPT SELECT event_id, run_id FROM old_rows")
        + " "
        + _remove_unrated(
            "SELECT event_id, run_id FROM old_rows EXCEPT SELECT event_id, run_id FROM new_rows"
        ),
    ),
    (
        f"{SOURCE}_rated_events_removed",
        "DELETE",
        "OLD TABLE AS old_rows",
        _remove_unrated("SELECT DISTINCT event_id, run_id FROM old_rows"),
    ),
)

_POSTGRESQL_GUARD = f"{TABLE}_kept"


def _postgresql_sql() -> list[str]:
    sql = []
    for name, operation, transitions, body in _POSTGRESQL_KEEPERS:
        sql += [
            _postgresql_function(name, body),
            f"CREATE TRIGGER {name} AFTER {operation} ON {SOURCE} REFERENCING {transitions} "
            f"FOR EACH STATEMENT EXECUTE FUNCTION {name}_fn();",
        ]
    # Writes to the table itself are refused unless a trigger above makes them (one level
    # down: pg_trigger_depth() is 1 in a guard on a statement a person or the ORM ran); a
    # TRUNCATE while event ratings are left would lose pairs they have.
    refused = (
        f"{_LOCKED} AND pg_trigger_depth() < 2 "
        f"AND (TG_OP <> 'TRUNCATE' OR EXISTS (SELECT 1 FROM {SOURCE}))"
    )
    sql += [
        f"CREATE OR REPLACE FUNCTION {_POSTGRESQL_GUARD}_fn() RETURNS trigger AS $$ BEGIN "
        f"IF {refused} THEN RAISE EXCEPTION '{KEPT_MESSAGE}' "
        "USING ERRCODE = 'integrity_constraint_violation'; END IF; "
        "RETURN NULL; END; $$ LANGUAGE plpgsql;",
        f"CREATE TRIGGER {_POSTGRESQL_GUARD} BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE "
        f"ON {TABLE} FOR EACH STATEMENT EXECUTE FUNCTION {_POSTGRESQL_GUARD}_fn();",
    ]
    return sql


# SQLite, per row: the old row's pair goes if no event rating has it any more
_SQLITE_REMOVE_OLD = (
    f"DELETE FROM {TABLE} WHERE event_id = OLD.event_id AND run_id = OLD.run_id "
    f"AND NOT {_rated('OLD')};"
)

# SQLite: (trigger name, the statement's head, its body)
_SQLITE_TRIGGERS = (
    (
        f"{SOURCE}_rated_events_added",
        f"AFTER INSERT ON {SOURCE}",
        f"INSERT OR IGNORE INTO {TABLE} (event_id, run_id) VALUES (NEW.event_id, NEW.run_id);",
    ),
    (
        f"{SOURCE}_rated_events_moved",
        f"AFTER UPDATE OF event_id, run_id ON {SOURCE}",
        f"INSERT OR IGNORE INTO {TABLE} (event_id, run_id) VALUES (NEW.event_id, NEW.run_id); "
        + _SQLITE_REMOVE_OLD,
    ),
    (
        f"{SOURCE}_rated_events_removed",
        f"AFTER DELETE ON {SOURCE}",
        _SQLITE_REMOVE_OLD,
    ),
    # the table holds exactly the pairs rated: a pair no event rating has cannot go in, one
    # that some still have cannot go, and none changes
    (
        f"{TABLE}_kept_insert",
        f"BEFORE INSERT ON {TABLE} WHEN NOT {_rated('NEW')} AND {_LOCKED}",
        f"SELECT RAISE(ABORT, '{KEPT_MESSAGE}');",
    ),
    (
        f"{TABLE}_kept_delete",
        f"BEFORE DELETE ON {TABLE} WHEN {_rated('OLD')} AND {_LOCKED}",
        f"SELECT RAISE(ABORT, '{KEPT_MESSAGE}');",
    ),
    (
        f"{TABLE}_kept_update",
        f"BEFORE UPDATE ON {TABLE} WHEN {_LOCKED}",
        f"SELECT RAISE(ABORT, '{KEPT_MESSAGE}');",
    ),
)


def create_sql(vendor: str) -> list[str]:
    if vendor == "postgresql":
        return _postgresql_sql()
    if vendor == "sqlite":
        return [
            f"CREATE TRIGGER {name} {head} BEGIN {body} END;"
            for name, head, body in _SQLITE_TRIGGERS
        ]
    return []


def drop_sql(vendor: str) -> list[str]:
    if vendor == "postgresql":
        names = [(name, SOURCE) for name, *_ in _POSTGRESQL_KEEPERS]
        names.append((_POSTGRESQL_GUARD, TABLE))
        return [
            statement
            for name, table in names
            for statement in (
                f"DROP TRIGGER IF EXISTS {name} ON {table};",
                f"DROP FUNCTION IF EXISTS {name}_fn();",
            )
        ]
    if vendor == "sqlite":
        return [f"DROP TRIGGER IF EXISTS {name};" for name, *_ in _SQLITE_TRIGGERS]
    return []


def fill_sql() -> str:
    """The pairs of the event ratings there are (the migration that adds the table)."""
    return f"INSERT INTO {TABLE} (event_id, run_id) SELECT DISTINCT event_id, run_id FROM {SOURCE}"


def reinstall(connection) -> None:
    """Drop and create the triggers, once both tables exist (after every migrate, as the guards
    are: on SQLite a migration that rebuilds either table drops its triggers)."""
    existing = set(connection.introspection.table_names())
    if not {SOURCE, TABLE} <= existing:
        return
    with connection.cursor() as cursor:
        for sql in drop_sql(connection.vendor) + create_sql(connection.vendor):
            cursor.execute(sql)
