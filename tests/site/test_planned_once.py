"""Every statement the public pages prepare on PostgreSQL is planned once, not on each request.

psycopg prepares a statement the pages send with their values apart (federation.prepared).
Left to choose (plan_cache_mode auto, the server's default), PostgreSQL plans its first five
runs for their values, then keeps its generic plan only if that costs no more than those did;
when it costs more, every request pays the planner again. That was the list pages' keyset
statement: its LIMIT was a parameter, so the generic plan joined every player
(ratings.selectors._KEYSET_SQL).

So the first test lets it choose: the pages are requested again and again with varying values
(lists, deep pages, the API, player pages), then the connection's prepared statements are read
back from pg_prepared_statements: each one run often enough must have run on its generic plan.
The second checks that a run's one-off statements are not prepared at all.
"""

from __future__ import annotations

import contextlib
import random
from datetime import date

import pytest
from django.db import connection
from django.test import Client

from federation.models import Player
from federation.prepared import server_binding_cursor
from ratings.persistence.column_read import read_columns
from tests.site.factories import make_federation, make_list, make_period

pytestmark = pytest.mark.django_db

# Enough players that a plan joining all of them costs more than looking up a page's: with a
# few hundred, joining all is the cheaper plan and every statement passes.
PLAYERS = 20_000
ROUNDS = 12  # psycopg prepares at the first run, PostgreSQL compares plans over the first five


@pytest.fixture
def published_list():
    if connection.vendor != "postgresql":
        pytest.skip("prepared statements and their plans are PostgreSQL's")
    rng = random.Random(11)
    fed = make_federation("plan", "iccf")
    players = Player.objects.bulk_create(
        Player(
            federation=fed,
            federation_player_id=str(50_000 + i),
            surname=f"Name{i:05d}",
            given_name="Ann",
            country="DE" if i % 3 else "FR",
        )
        for i in range(PLAYERS)
    )
    make_list(
        fed,
        make_period(fed, "2026Q1", date(2026, 1, 1)),
        {p: 1400.0 + rng.random() * 1000 for p in players},
        rds={p: 60.0 for p in players},
    )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")  # the planner's statistics, as on a site that has data
    return [p.federation_player_id for p in players]


def _pages(fids: list[str], rng: random.Random) -> list[str]:
    base = "/federations/plan/lists/2026Q1/"
    api = "/api/v1/federations/plan/lists/2026Q1/"
    return [
        base,
        f"{base}?after={rng.randint(1, PLAYERS - 60)}",
        f"{base}?before={rng.randint(60, PLAYERS)}",
        f"{base}?sort=rating&after={rng.randint(1, PLAYERS - 60)}",
        f"{base}?size={rng.choice([10, 25])}",
        f"{base}?country=DE&page={rng.randint(1, 20)}",
        f"{base}?country=FR&sort=name&page={rng.randint(1, 20)}",
        api,
        f"{api}?after={rng.randint(1, PLAYERS - 60)}",
        f"/federations/plan/players/{rng.choice(fids)}/",
    ]


def _plans() -> dict[str, tuple[str, int, int]]:
    """name -> (statement, generic plans, custom plans) of the connection's prepared statements."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT name, statement, generic_plans, custom_plans FROM pg_prepared_statements"
        )
        return {name: (statement, g, c) for name, statement, g, c in cursor.fetchall()}


def _runs(urls) -> dict[str, tuple[int, int]]:
    """statement -> (generic plans, custom plans) of its runs while `urls` are requested."""
    client = Client()
    psycopg_connection = connection.connection
    kept = psycopg_connection.prepared_max
    psycopg_connection.prepared_max = 1000  # none of them forgotten meanwhile
    try:
        before = _plans()  # statements earlier tests prepared on this connection count from here
        for url in urls:
            assert client.get(url).status_code == 200, url
        after = _plans()
    finally:
        psycopg_connection.prepared_max = kept
    runs = {}
    for name, (statement, generic, custom) in after.items():
        _, generic_before, custom_before = before.get(name, (statement, 0, 0))
        if (generic, custom) != (generic_before, custom_before):
            runs[statement] = (generic - generic_before, custom - custom_before)
    return runs


@contextlib.contextmanager
def _plan_cache_mode(mode: str):
    with connection.cursor() as cursor:
        cursor.execute("SELECT set_config('plan_cache_mode', %s, false)", [mode])
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("RESET plan_cache_mode")  # the connection's own


def test_every_prepared_statement_of_the_public_pages_runs_on_its_generic_plan_by_choice(
    published_list,
):
    rng = random.Random(3)
    with _plan_cache_mode("auto"):
        runs = _runs(url for _ in range(ROUNDS) for url in _pages(published_list, rng))
    ran_often = {s: plans for s, plans in runs.items() if sum(plans) >= ROUNDS - 5}
    keyset = [s for s in ran_often if "ORDER BY e.rank" in s]
    assert len(keyset) >= 3, "the keyset pages' statements were not prepared"
    replanned = [
        f"planned {custom} times, never generic: …{' '.join(s.split())[-200:]}"
        for s, (generic, custom) in ran_often.items()
        if generic == 0
    ]
    assert not replanned, "\n".join(replanned)


def test_a_runs_one_off_statements_are_not_prepared(published_list):
    before = _plans()
    for _ in range(3):
        read_columns(Player.objects.filter(federation__code="plan"), {"id": "int"})
    with server_binding_cursor(connection, one_off=True) as cursor:
        for _ in range(3):
            cursor.execute("SELECT count(*) FROM federation_federation WHERE code = %s", ["x"])
    assert _plans().keys() == before.keys()
