"""Every prepared query (federation.prepared) gives exactly the rows of its queryset run the
ORM's way, for every value the rated demo offers, on SQLite and on PostgreSQL; and a marker the
compiled statement does not carry as a parameter is refused, not run as another query."""

from __future__ import annotations

import pytest
from django.db import DatabaseError, transaction
from django.db.models import Q
from django.http import Http404

import ratings.selectors.players  # noqa: F401  (defines the site's prepared queries)
from federation.models import Player
from federation.prepared import PreparedValues, marker_text, rows_together
from ratings.models import EventRating
from ratings.selectors.players import player_events, player_games, player_history, player_page
from tests.ratings.conftest import seeded_and_rated_demo
from tests.typed_rows import typed_rows
from tournaments.models import Event, Game

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def rated_demo(django_db_setup, django_db_blocker):
    with seeded_and_rated_demo(django_db_blocker, players=80, seed=7):
        yield


def _values(parameters: tuple[str, ...]) -> list[dict]:
    """Every value combination of the demo for these parameter names (and a few that miss)."""
    players = list(Player.objects.values_list("pk", "federation__code", "federation_player_id"))
    if parameters == ("player_id",):
        return [{"player_id": pk} for pk, _, _ in players] + [{"player_id": 0}]
    if parameters == ("federation_code", "player_id"):
        found = [{"federation_code": code, "player_id": fid} for _, code, fid in players]
        return [*found, {"federation_code": "nowhere", "player_id": players[0][2]}]
    raise AssertionError(f"no demo values for a prepared query of {parameters}: add them here")


@pytest.mark.usefixtures("rated_demo")
def test_every_prepared_query_gives_the_orm_rows():
    assert PreparedValues.instances, "no prepared query found"
    compared = 0
    for prepared in PreparedValues.instances:
        non_empty = 0
        for values in _values(prepared.parameters):
            expected = list(prepared.queryset(**values))
            assert prepared.rows(**values) == expected, (prepared.name, values)
            non_empty += bool(expected)
            compared += 1
        assert non_empty, f"{prepared.name}: the demo gave it no row to compare"
    assert compared > 100


@pytest.mark.usefixtures("rated_demo")
def test_a_free_round_has_no_opponent():
    game = Game.objects.filter(event__status__in=("accepted", "rated")).first()
    event = Event.objects.get(pk=game.event_id)
    bye = Game.objects.create(event=event, round=99, white=game.white, black=None, result="bye+")
    first = player_games(game.white)[0]
    assert (first.round, first.opponent, first.colour, first.opponent_rating) == (
        99,
        None,
        "white",
        None,
    )
    assert bye.pk


def test_a_marker_lost_in_the_compiled_statement_is_refused():
    def contains(name):  # `contains` wraps the value in %...%: not a parameter to substitute
        return Player.objects.filter(Q(surname__contains=name)).values_list("pk")

    prepared = PreparedValues(contains, name=marker_text("name"))
    PreparedValues.instances.remove(prepared)
    with pytest.raises(ValueError, match="not a parameter"):
        prepared.rows(name="Kam")


def test_a_call_must_give_exactly_the_parameters():
    from ratings.selectors.players import PLAYER_QUERY

    with pytest.raises(TypeError, match="takes"):
        PLAYER_QUERY.rows(player_id="1")
    with pytest.raises(TypeError, match="takes"):
        PLAYER_QUERY.rows(federation_code="x", player_id="1", extra=2)


@pytest.mark.usefixtures("rated_demo")
@pytest.mark.parametrize("parameters", [("player_id",), ("federation_code", "player_id")])
def test_queries_sent_together_give_each_querys_own_rows(parameters):
    """rows_together (one statement on PostgreSQL: federation.json_rows) against each query run
    the ORM's way, values and their types, for every player of the demo: all the site's
    prepared queries of a player at once, by his row id and by his federation's code and id."""
    from django.db import connection

    together_ones = [p for p in PreparedValues.instances if p.parameters == parameters]
    assert len(together_ones) >= 3
    for values in _values(parameters):
        together = rows_together(*((prepared, values) for prepared in together_ones))
        expected = [list(prepared.queryset(**values)) for prepared in together_ones]
        assert [typed_rows(rows) for rows in together] == [typed_rows(rows) for rows in expected]
    if connection.vendor == "postgresql":  # they went as one statement
        compiled = [p._compiled[("default", "postgresql")] for p in together_ones]
        assert all(c.json_readers is not None for c in compiled)


@pytest.mark.postgres
@pytest.mark.usefixtures("rated_demo")
def test_a_failing_query_sent_together_raises_djangos_error_and_the_connection_goes_on():
    failing = PreparedValues(
        lambda text: Player.objects.extra(where=["id = (%s)::integer"], params=[text]).values_list(
            "pk"
        ),
        text=marker_text("text"),
    )
    PreparedValues.instances.remove(failing)  # not one of the site's
    first = next(p for p in PreparedValues.instances if p.parameters == ("player_id",))
    with pytest.raises(DatabaseError, match="invalid input syntax"), transaction.atomic():
        rows_together((first, {"player_id": 1}), (failing, {"text": "not a number"}))
    assert first.rows(player_id=0) == []


@pytest.mark.usefixtures("rated_demo")
def test_the_player_page_in_one_round_trip_is_each_query_by_id():
    """player_page asks by federation code and player id, in one round trip; the same history,
    events and games as the queries by the player's own row id, for every player of the demo."""
    players = Player.objects.select_related("federation")
    assert players
    for player in players:
        profile = player_page(player.federation.code, player.federation_player_id)
        assert profile.player == player
        assert profile.history == player_history(player)
        assert profile.events == player_events(player)
        assert profile.games == player_games(player)
    with pytest.raises(Http404):
        player_page(players[0].federation.code, "no-such-player")


@pytest.mark.usefixtures("rated_demo")
def test_each_opponent_comes_with_the_rating_he_was_rated_with_there():
    """The games' query carries each side's `before` (a subquery per side): for every game of
    every player of the demo, his opponent's `before` in the newest published run of that
    event, as a query of its own gives it."""
    checked = 0
    for player in Player.objects.all():
        games = player_games(player, limit=1000)
        events = dict(
            Event.objects.filter(
                federation=player.federation_id, code__in={g.event_code for g in games}
            ).values_list("code", "pk")
        )
        for game in games:
            expected = None
            if game.opponent is not None:
                expected = (
                    EventRating.objects.filter(
                        event_id=events[game.event_code],
                        player=game.opponent,
                        run__rating_list__status="published",
                    )
                    .order_by("-run_id")
                    .values_list("before", flat=True)
                    .first()
                )
            assert game.opponent_rating == expected, (player, game)
            checked += game.opponent_rating is not None
    assert checked > 50
