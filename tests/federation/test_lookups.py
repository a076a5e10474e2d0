"""AnyOf (federation.lookups) selects what Django's IN selects, as one array on PostgreSQL."""

from __future__ import annotations

import json

import pytest
from django.db import connection
from django.db.models import F
from django.test.utils import CaptureQueriesContext
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from federation.lookups import AnyOf
from federation.models import Federation, Player

pytestmark = pytest.mark.django_db


@pytest.fixture
def players():
    federation = Federation.objects.create(code="anyof", name="AnyOf", system="iccf")
    return Player.objects.bulk_create(
        Player(federation=federation, federation_player_id=str(i), surname=f"P{i}", country="DE")
        for i in range(12)
    )


def _ids(queryset) -> list[int]:
    return sorted(queryset.values_list("id", flat=True))


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(picks=st.lists(st.one_of(st.none(), st.integers(-3, 14)), max_size=30))
def test_any_of_selects_what_in_selects(players, picks):
    """Ids of players and ids of none, repeated, with NULLs; an empty list matches nothing."""
    base = players[0].pk
    values = [None if p is None else base + p for p in picks]
    expected = _ids(Player.objects.filter(id__in=values))
    assert _ids(Player.objects.filter(AnyOf(F("id"), values))) == expected
    assert _ids(Player.objects.exclude(AnyOf(F("id"), values))) == _ids(
        Player.objects.exclude(id__in=values)
    )


def test_any_of_a_subquery_is_in(players):
    chosen = Player.objects.filter(surname__in=["P1", "P5"]).values("id")
    assert _ids(Player.objects.filter(AnyOf(F("id"), chosen))) == [players[1].pk, players[5].pk]


def test_on_postgresql_the_values_are_one_array_parameter(players):
    if connection.vendor != "postgresql":
        pytest.skip("the array is PostgreSQL's")
    ids = [p.pk for p in players]
    with CaptureQueriesContext(connection) as captured:
        assert _ids(Player.objects.filter(AnyOf(F("id"), ids))) == sorted(ids)
    (query,) = captured.captured_queries
    assert "= ANY(" in query["sql"] and " IN (" not in query["sql"]
    sql, params = Player.objects.filter(AnyOf(F("id"), ids)).query.sql_with_params()
    assert params == (ids,)


def test_on_postgresql_the_plan_is_ins(players):
    """The array has the column's type, so PostgreSQL costs (and plans) the query as IN's. An
    untyped array of small ints (int2[]) was costed element by element against every row."""
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL's planner")
    federation = players[0].federation
    many = Player.objects.bulk_create(
        Player(federation=federation, federation_player_id=f"m{i}", surname="M", country="FR")
        for i in range(400)
    )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE federation_player")
    ids = [p.pk for p in many[::2]]

    def plan(queryset) -> dict:
        return json.loads(queryset.only("id").explain(format="json"))[0]["Plan"]

    as_in, as_any = (
        plan(Player.objects.filter(id__in=ids)),
        plan(Player.objects.filter(AnyOf(F("id"), ids))),
    )
    assert (as_any["Node Type"], as_any["Total Cost"]) == (as_in["Node Type"], as_in["Total Cost"])
