"""RatedEvent is the distinct (event, run) of the event ratings, always (ratings.persistence.rated_events):
whatever sequence of inserts, moves, changes and deletions the event ratings go through, in
statements of one row or many (PostgreSQL's triggers run once per statement, SQLite's once per
row), and by binary COPY as a run writes them; and nothing else can write the table."""

from __future__ import annotations

from datetime import date

import pytest
from django.db import connection, transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from federation.triggers import UNLOCK_TABLE
from ratings.models import EventRating, RatedEvent, RatingPeriod, RatingRun
from ratings.persistence.rated_events import KEPT_MESSAGE
from tests.factories import make_event, make_player, make_world
from tests.hardening.raw_sql import assert_refused

pytestmark = pytest.mark.django_db


@pytest.fixture
def small(settings):
    """Three events, two draft runs and four players of one federation, no event ratings."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    world = make_world("re")
    federation = world["federation.Federation"]
    EventRating.objects.filter(run__federation=federation).delete()
    period = RatingPeriod.objects.create(
        federation=federation,
        code="2027Q1",
        starts_on=date(2027, 1, 1),
        ends_on=date(2027, 3, 31),
        list_published_on=date(2027, 4, 15),
        valid_from=date(2027, 5, 1),
    )
    runs = [
        RatingRun.objects.create(federation=federation, period=period, status="succeeded")
        for _ in range(2)
    ]
    events = [make_event(federation, f"re-{n}", "individual") for n in range(3)]
    players = [make_player(federation, f"9{n}", f"Solver{n}") for n in range(4)]
    return {"runs": runs, "events": events, "players": players}


def _pairs_rated(runs) -> set[tuple[int, int]]:
    return set(
        EventRating.objects.filter(run__in=runs).values_list("event_id", "run_id").distinct()
    )


def _pairs_kept(runs) -> set[tuple[int, int]]:
    return set(RatedEvent.objects.filter(run__in=runs).values_list("event_id", "run_id"))


# A step: (operation, event index, run index, player indexes); each is one SQL statement.
steps = st.lists(
    st.tuples(
        st.sampled_from(["insert", "delete", "move_event", "move_run", "change"]),
        st.integers(0, 2),
        st.integers(0, 1),
        st.sets(st.integers(0, 3), min_size=1, max_size=4),
    ),
    min_size=1,
    max_size=12,
)


def _apply(small, step) -> None:
    operation, e, r, chosen = step
    event, run = small["events"][e], small["runs"][r]
    players = [small["players"][p].pk for p in sorted(chosen)]
    rows = EventRating.objects.filter(run__in=small["runs"], player_id__in=players)
    if operation == "insert":
        taken = set(rows.filter(event=event, run=run).values_list("player_id", flat=True))
        EventRating.objects.bulk_create(
            EventRating(event=event, run=run, player_id=p, after=1500.0)
            for p in players
            if p not in taken
        )
    elif operation == "delete":
        rows.filter(event=event).delete()
    elif operation == "change":
        rows.filter(event=event).update(after=1600.0)
    else:  # move the players' rows of the event to the next event or run, where free
        target = {"event": small["events"][(e + 1) % 3], "run": run}
        if operation == "move_run":
            target = {"event": event, "run": small["runs"][1 - r]}
        free = rows.filter(event=event, run=run).exclude(
            player_id__in=rows.filter(**target).values("player_id")
        )
        free.update(**{f"{k}_id": v.pk for k, v in target.items()})


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=steps)
def test_the_pairs_follow_every_change_of_the_event_ratings(small, steps):
    runs = small["runs"]
    with transaction.atomic():
        for step in steps:
            _apply(small, step)
            assert _pairs_kept(runs) == _pairs_rated(runs), step
        transaction.set_rollback(True)


@pytest.mark.postgres
def test_the_pairs_follow_a_binary_copy(small):
    """As a run writes its rows (ratings.persistence.writers): one COPY, one statement."""
    runs, events, players = small["runs"], small["events"], small["players"]
    rows = [(runs[0].pk, e.pk, p.pk, 1500.0, 0, "{}") for e in events[:2] for p in players]
    with connection.cursor() as cursor:
        columns = "run_id, event_id, player_id, after, games, details"
        with cursor.cursor.copy(f"COPY ratings_eventrating ({columns}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)
    assert _pairs_kept(runs) == {(events[0].pk, runs[0].pk), (events[1].pk, runs[0].pk)}


def test_nothing_else_writes_the_pairs(small):
    run, event, player = small["runs"][0], small["events"][0], small["players"][0]
    EventRating.objects.create(run=run, event=event, player=player, after=1500.0)
    other = small["events"][1]
    assert_refused(
        KEPT_MESSAGE,
        "INSERT INTO ratings_ratedevent (event_id, run_id) VALUES (%s, %s)",
        [other.pk, run.pk],
    )
    kept = "WHERE event_id = %s AND run_id = %s"
    assert_refused(KEPT_MESSAGE, f"DELETE FROM ratings_ratedevent {kept}", [event.pk, run.pk])
    assert_refused(
        KEPT_MESSAGE,
        f"UPDATE ratings_ratedevent SET event_id = %s {kept}",
        [other.pk, event.pk, run.pk],
    )
    assert _pairs_kept(small["runs"]) == {(event.pk, run.pk)}


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)  # no constraint check pending, as TRUNCATE needs
def test_the_pairs_cannot_be_truncated_while_event_ratings_are_left(small):
    run, event, player = small["runs"][0], small["events"][0], small["players"][0]
    EventRating.objects.create(run=run, event=event, player=player, after=1500.0)
    assert_refused(KEPT_MESSAGE, "TRUNCATE ratings_ratedevent")


def test_the_maintenance_switch_lets_a_person_repair_them(small):
    run, event, player = small["runs"][0], small["events"][0], small["players"][0]
    EventRating.objects.create(run=run, event=event, player=player, after=1500.0)
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(f"INSERT INTO {UNLOCK_TABLE} (reason) VALUES ('repair')")
        cursor.execute("DELETE FROM ratings_ratedevent WHERE run_id = %s", [run.pk])
        cursor.execute(f"DELETE FROM {UNLOCK_TABLE}")
        assert not _pairs_kept(small["runs"])
        transaction.set_rollback(True)
    assert _pairs_kept(small["runs"]) == {(event.pk, run.pk)}


def test_a_rated_event_cannot_be_deleted_but_a_run_can_with_its_rows(small):
    """The ORM refuses deleting an event a run rated (RatedEvent's PROTECT, looked up by its
    key), and deleting a draft run takes its event ratings and, with them, their pairs."""
    from django.db.models import ProtectedError

    run, event, player = small["runs"][0], small["events"][0], small["players"][0]
    EventRating.objects.create(run=run, event=event, player=player, after=1500.0)
    with pytest.raises(ProtectedError):
        event.delete()
    run_id = run.pk
    run.delete()
    assert not RatedEvent.objects.filter(run_id=run_id).exists()
    event.delete()  # nothing refers to it any more
