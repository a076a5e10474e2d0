"""Migration ratings 0018 (event ratings keyed by (event, run, player), no id) both ways, with
a published list's rows in the table: Django does not move a table to a composite key, so the
migration does it by hand on each database. Every row and value must survive each way, the
key (or, backwards, the unique constraint) must refuse a second row for the same event, run and
player, and the guards must be back after migrate."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor

from ratings.guards import reinstall_guards
from ratings.models import EventRating, RatingList
from tests.factories import make_world
from tests.hardening.model_keys import key_columns

BEFORE = ("ratings", "0017_event_ratings_indexed_by_event_first")
KEYED = ("ratings", "0018_event_ratings_keyed_by_event_run_player")
VALUES = "event_id, run_id, player_id, before, after, before_rd, after_rd, games, score"


def _migrate(target: tuple[str, str]) -> None:
    executor = MigrationExecutor(connection)
    executor.migrate([target])


def _rows() -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {VALUES} FROM ratings_eventrating ORDER BY event_id, player_id")
        return cursor.fetchall()


def _key() -> list[str]:
    """The primary key's columns in key order (Django's SQLite introspection gives table order)."""
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute(
                "SELECT name FROM pragma_table_info('ratings_eventrating') WHERE pk > 0 ORDER BY pk"
            )
            return [row[0] for row in cursor.fetchall()]
        found = connection.introspection.get_constraints(cursor, "ratings_eventrating")
    return next(info["columns"] for info in found.values() if info["primary_key"])


def _second_row_refused(first: tuple) -> None:
    columns = VALUES.split(", ")
    with pytest.raises(IntegrityError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO ratings_eventrating ({VALUES}, details) "
            f"VALUES ({', '.join(['%s'] * len(columns))}, '{{}}')",
            first,
        )


@pytest.mark.django_db(transaction=True)
def test_the_key_migration_keeps_every_row_both_ways():
    world = make_world("mk")  # with one row of each rating model
    run, event = world["ratings.RatingRun"], world["tournaments.Event"]
    for i, player in enumerate(world["players"]):
        if player != world["federation.Player"]:
            EventRating.objects.create(
                run=run, event=event, player=player, before=None, after=1500.25 + i, games=i
            )
    RatingList.objects.filter(pk=world["ratings.RatingList"].pk).update(
        status="published", published_by=world["user"]
    )
    stored = _rows()
    assert len(stored) >= 2 and key_columns(EventRating) == ("event_id", "run_id", "player_id")
    try:
        _migrate(BEFORE)
        assert _key() == ["id"]
        assert _rows() == stored
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(DISTINCT id) FROM ratings_eventrating")
            assert cursor.fetchone()[0] == len(stored)
        _second_row_refused(stored[0])
    finally:
        _migrate(KEYED)
        reinstall_guards(sender=None)  # what post_migrate runs after a migrate
    assert _key() == ["event_id", "run_id", "player_id"]
    assert _rows() == stored
    _second_row_refused(stored[0])
    with pytest.raises(IntegrityError), transaction.atomic():  # the published rows' guard
        EventRating.objects.filter(run=run).update(after=1)
