from __future__ import annotations

from contextlib import contextmanager
from datetime import date

import pytest
from django.core.management import call_command

from federation.models import Federation, Player
from federation.permissions import COMMAND_LINE
from tournaments.models import Event, EventKind, EventStatus, Game


@pytest.fixture
def iccf_world(db):
    """A small ICCF federation with an imported starting list and one accepted event."""
    from ratings.services.publication import import_list

    federation = Federation.objects.create(code="icc", name="ICCF test", system="iccf")
    players = [
        Player.objects.create(
            federation=federation, federation_player_id=str(100 + i), surname=f"P{i}", country="DE"
        )
        for i in range(6)
    ]
    import_list(
        federation=federation,
        period_code="2025Q4",
        entries=[
            {
                "player_id": p.pk,
                "rating": 1900.0 + 50 * i,
                "published_rating": 1900 + 50 * i,
                "rd": 80.0,
                "published_rd": 80,
            }
            for i, p in enumerate(players[:5])
        ],
        by=COMMAND_LINE,
    )
    event = Event.objects.create(
        federation=federation,
        name="Section 1",
        code="S1",
        kind=EventKind.TEAM,
        status=EventStatus.ACCEPTED,
        start=date(2025, 10, 15),
        end=date(2026, 6, 30),
        transmission="electronic",
        reflection_days=50,
        reflection_moves=10,
    )
    results = ["1-0", "1/2", "0-1", "1-0", "1/2"]
    games = []
    for i, result in enumerate(results):
        games.append(
            Game.objects.create(
                event=event,
                round=1,
                white=players[i],
                black=players[(i + 1) % 6],
                result=result,
                finished_on=date(2025, 10, 20 + i),
                reported_on=date(2025, 10, 21 + i),
            )
        )
    return {"federation": federation, "players": players, "event": event, "games": games}


@contextmanager
def seeded_and_rated_demo(django_db_blocker, *, players: int, seed: int):
    """The demo seeded, rated and published (committed, for a module's tests); removed after."""
    with django_db_blocker.unblock():
        from django.db import connection

        from federation.triggers import UNLOCK_TABLE

        call_command("seed_demo", players=players, seed=seed)
        call_command("rate_demo")
        try:
            yield
        finally:
            # Committed data: remove it (published lists need the maintenance switch).
            with connection.cursor() as cursor:
                cursor.execute(f"INSERT INTO {UNLOCK_TABLE} (reason) VALUES ('test teardown')")
            call_command("flush", interactive=False, verbosity=0)
            with connection.cursor() as cursor:
                cursor.execute(f"DELETE FROM {UNLOCK_TABLE}")


@pytest.fixture(scope="module")
def rated_demo(django_db_setup, django_db_blocker):
    """The demo data, rated and published as `make run` does (committed for the module)."""
    with seeded_and_rated_demo(django_db_blocker, players=400, seed=3):
        yield
