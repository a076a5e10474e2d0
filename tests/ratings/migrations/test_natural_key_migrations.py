"""The migrations that move a table from an auto id to its natural composite key, both ways,
with rows in the table: Django does not move a table to a composite key, so each migration does
it by hand on each database. Ratings 0018 keys a run's event ratings by (event, run, player);
0019 the live event ratings by (live run, event, player) and the live ratings by (live run,
player), their references checked by triggers instead of constraints; 0021 moves the event
ratings' key to (player, run, event) and their index to (event, run); 0022 drops that index for
RatedEvent, filled from the rows. Every row and value must
survive each way, the key (or, backwards, the unique constraint) must refuse a second row with
the same key, and the guards must be back after migrate."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from django.db import IntegrityError, connection, transaction

from ratings.models import EventRating, LiveEventRating, LiveRating, RatedEvent, RatingList
from ratings.persistence.guards import reinstall_guards
from tests.factories import make_event, make_world
from tests.hardening.model_keys import key_columns, table_key_columns
from tests.ratings.migrations.migration_steps import migrate_ratings, migrate_ratings_to_latest


@dataclass(frozen=True)
class KeyMigration:
    model: type
    before: str  # the ratings app's migration before the move
    owner: str  # the key's field naming the run or live run the test's rows belong to

    @property
    def table(self) -> str:
        return self.model._meta.db_table

    @property
    def values(self) -> tuple[str, ...]:
        """The key's columns, then every other but the JSON details."""
        key = key_columns(self.model)
        fields = self.model._meta.local_concrete_fields
        return key + tuple(f.column for f in fields if f.column not in (*key, "details"))

    @property
    def details(self) -> bool:
        """The table has a JSON details column (NOT NULL)."""
        return any(f.column == "details" for f in self.model._meta.local_concrete_fields)


BEFORE_LIVE = "0018_event_ratings_keyed_by_event_run_player"  # 0019 moves the live tables
MIGRATIONS = [
    KeyMigration(EventRating, "0017_event_ratings_indexed_by_event_first", "run"),  # by 0018
    KeyMigration(LiveEventRating, BEFORE_LIVE, "live_run"),
    KeyMigration(LiveRating, BEFORE_LIVE, "live_run"),
]


def _rows(case: KeyMigration) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {', '.join(case.values)} FROM {case.table} "
            f"ORDER BY {', '.join(key_columns(case.model))}"
        )
        return cursor.fetchall()


def _insert(case: KeyMigration, row: tuple) -> None:
    columns = case.values + (("details",) if case.details else ())
    values = list(row) + (["{}"] if case.details else [])
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {case.table} ({', '.join(columns)}) "
            f"VALUES ({', '.join(['%s'] * len(columns))})",
            values,
        )


def _add_rows(case: KeyMigration, world: dict) -> None:
    """A row for each player of the world's event besides the one it has."""
    owner = world["ratings.RatingRun" if case.owner == "run" else "ratings.LiveRun"]
    for i, player in enumerate(world["players"]):
        if player == world["federation.Player"]:
            continue
        if case.model is LiveRating:
            LiveRating.objects.create(
                live_run=owner, player=player, rating=1500.25 + i, published_rating=1500 + i
            )
        else:
            case.model.objects.create(
                **{case.owner: owner},
                event=world["tournaments.Event"],
                player=player,
                before=None,
                after=1500.25 + i,
                games=i,
            )


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("case", MIGRATIONS, ids=lambda case: case.table)
def test_the_key_migration_keeps_every_row_both_ways(case):
    world = make_world("mk")  # with one row of each rating model
    _add_rows(case, world)
    RatingList.objects.filter(pk=world["ratings.RatingList"].pk).update(
        status="published", published_by=world["user"]
    )
    stored = _rows(case)
    key = key_columns(case.model)
    assert len(stored) >= 3 and case.values[: len(key)] == key
    try:
        migrate_ratings(case.before)
        assert table_key_columns(case.table) == ["id"]
        assert _rows(case) == stored
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT count(DISTINCT id) FROM {case.table}")
            assert cursor.fetchone()[0] == len(stored)
        with pytest.raises(IntegrityError):  # the unique constraint is back
            _insert(case, stored[0])
    finally:
        migrate_ratings_to_latest()
        reinstall_guards(sender=None)  # what post_migrate runs after a migrate
    assert table_key_columns(case.table) == list(key)
    assert _rows(case) == stored
    with pytest.raises(IntegrityError):
        _insert(case, stored[0])
    row = list(stored[0])
    row[case.values.index("player_id")] = max(p.pk for p in world["players"]) + 1000
    with pytest.raises(IntegrityError):  # the references' guard (or the published rows')
        _insert(case, tuple(row))


def _index_columns(table: str) -> list[list[str]]:
    """The columns of each index of `table` that is not its primary key."""
    with connection.cursor() as cursor:
        found = connection.introspection.get_constraints(cursor, table)
    return sorted(
        info["columns"] for info in found.values() if info["index"] and not info["primary_key"]
    )


@pytest.mark.django_db(transaction=True)
def test_event_ratings_rekeyed_by_player_first_keep_every_row_both_ways():
    """Ratings 0021 moves the event ratings' key from (event, run, player) to (player, run,
    event) and their index from (player, run) to (event, run): rows, uniqueness and a look-up
    index for each of event and player hold on both sides."""
    case = MIGRATIONS[0]
    world = make_world("rk")
    _add_rows(case, world)
    stored = _rows(case)
    assert len(stored) >= 3
    try:
        migrate_ratings("0020_live_input_stored_as_a_run_stores_it")
        assert table_key_columns(case.table) == ["event_id", "run_id", "player_id"]
        assert _index_columns(case.table) == [["player_id", "run_id"]]
        assert _rows(case) == stored
        with pytest.raises(IntegrityError):
            _insert(case, stored[0])
    finally:
        migrate_ratings_to_latest()
        reinstall_guards(sender=None)
    assert table_key_columns(case.table) == ["player_id", "run_id", "event_id"]
    assert _index_columns(case.table) == []  # 0022: looked up by event through RatedEvent
    assert _rows(case) == stored
    with pytest.raises(IntegrityError):
        _insert(case, stored[0])


def _pairs() -> tuple[set, set]:
    """(the distinct (event, run) of the event ratings, RatedEvent's rows)."""
    rated = set(EventRating.objects.values_list("event_id", "run_id").distinct())
    return rated, set(RatedEvent.objects.values_list("event_id", "run_id"))


@pytest.mark.django_db(transaction=True)
def test_rated_events_filled_from_the_event_ratings_and_gone_again_both_ways():
    """Ratings 0022 fills RatedEvent from the event ratings before their event index goes;
    back, the index returns and the triggers that kept the table go with it (on SQLite a
    trigger writing to a dropped table would fail every insert)."""
    case = MIGRATIONS[0]
    world = make_world("rv")
    _add_rows(case, world)
    stored = _rows(case)
    try:
        migrate_ratings("0021_event_ratings_keyed_by_player_run_event")
        assert _index_columns(case.table) == [["event_id", "run_id"]]
        assert "ratings_ratedevent" not in connection.introspection.table_names()
        row = list(stored[0])
        row[case.values.index("run_id")] = world["ratings.RatingRun"].pk
        row[case.values.index("event_id")] = make_event(world["federation.Federation"], "rv2").pk
        _insert(case, tuple(row))  # no trigger is left writing to the dropped table
        with connection.cursor() as cursor:
            event_id = row[case.values.index("event_id")]
            cursor.execute(f"DELETE FROM {case.table} WHERE event_id = %s", [event_id])
            # the guards of an event's deletion read the event ratings again, not a lost table
            cursor.execute("DELETE FROM tournaments_event WHERE id = %s", [event_id])
    finally:
        migrate_ratings_to_latest()
        reinstall_guards(sender=None)
    rated, kept = _pairs()
    assert len(rated) >= 1 and kept == rated
    assert _rows(case) == stored
