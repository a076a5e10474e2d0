"""Admin search and autocomplete read names as people type them (issue 13 item 5)."""

from __future__ import annotations

import json

import pytest

from federation.models import Player
from tests.factories import make_official, make_world
from tournaments.models import Game

pytestmark = pytest.mark.django_db


@pytest.fixture
def officer_and_players(client):
    world = make_world("srch")
    federation = world["federation.Federation"]
    sofia, anna, other = (
        Player.objects.create(
            federation=federation, federation_player_id=fid, surname=surname, given_name=given
        )
        for fid, surname, given in (
            ("501", "Tóth", "Sofia"),
            ("502", "Kamińska", "Anna"),
            ("503", "Toth", "Peter"),
        )
    )
    client.force_login(make_official("srch-officer", federation))
    return world, sofia, anna, other


def _autocomplete(client, term, field="white"):
    response = client.get(
        "/admin/autocomplete/",
        {"term": term, "app_label": "tournaments", "model_name": "game", "field_name": field},
    )
    assert response.status_code == 200, response.content[:500]
    return {row["text"] for row in json.loads(response.content)["results"]}


@pytest.mark.parametrize(
    ("term", "expected"),
    [
        ("Toth, Sofia", {"Sofia"}),  # its own display order, without the accent
        ("Sofia Tóth", {"Sofia"}),
        ("kaminska", {"Anna"}),
        ("Kamińska, A", {"Anna"}),
        ("502", {"Anna"}),
        ("toth", {"Sofia", "Peter"}),
    ],
)
def test_autocomplete_reads_names_as_typed(client, officer_and_players, term, expected):
    found = _autocomplete(client, term)
    assert {
        given for given in ("Sofia", "Anna", "Peter") if any(given in t for t in found)
    } == expected


def test_the_player_list_search_uses_the_same_reading(client, officer_and_players):
    response = client.get("/admin/federation/player/", {"q": "Toth, Sofia"})
    assert response.status_code == 200
    names = [str(p) for p in response.context["cl"].result_list]
    assert len(names) == 1 and "Sofia" in names[0]


def test_the_game_search_finds_a_players_games(client, officer_and_players):
    world, sofia, anna, _other = officer_and_players
    Game.objects.create(
        event=world["tournaments.Event"], round=2, white=sofia, black=anna, result="1-0"
    )
    response = client.get("/admin/tournaments/game/", {"q": "kaminska"})
    games = list(response.context["cl"].result_list)
    assert len(games) == 1 and games[0].black == anna
