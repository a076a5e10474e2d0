"""Selectors raise NotFound, never an HTTP error: the pages answer it with Django's 404 page
and the API with its JSON 404, the selector's words as the error."""

from __future__ import annotations

import pytest
from django.http import Http404

from ratings.selectors import events, federations, players
from ratings.selectors.errors import NotFound
from tests.ratings.web.factories import standard_world

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "lookup",
    [
        lambda: federations.federation_by_code("nope"),
        lambda: federations.published_list("fed", "1999Q1"),
        lambda: federations.published_list("fed", "x" * 100),
        lambda: players.player_by_code("fed", "nobody"),
        lambda: players.published_run("fed", 999_999),
        lambda: events.public_event("fed", "nothing"),
    ],
    ids=["federation", "list", "long-period", "player", "run", "event"],
)
def test_an_unknown_thing_is_a_domain_error(lookup):
    standard_world()
    with pytest.raises(NotFound) as raised:
        lookup()
    assert not isinstance(raised.value, Http404)


def test_the_page_answers_404_and_the_api_its_json(client):
    standard_world()
    assert client.get("/federations/fed/players/nobody/").status_code == 404
    response = client.get("/api/v1/federations/fed/players/nobody/history/")
    assert response.status_code == 404
    assert response.json() == {"error": "no such player"}
