"""Whole-page caching of public pages, and its invalidation by publication."""

from __future__ import annotations

from datetime import date

import pytest
from django.core.cache import cache

from federation.models import Player
from federation.permissions import COMMAND_LINE
from tests.ratings.web.factories import make_list, make_period, standard_world

LIST = "/federations/fed/lists/2026Q2/"
pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _cache_on(settings):
    settings.PUBLIC_PAGE_CACHE_SECONDS = 300
    cache.clear()
    yield
    cache.clear()


def test_second_request_is_served_from_the_cache(client, django_assert_num_queries):
    standard_world()
    first = client.get(LIST)
    assert first.status_code == 200
    with django_assert_num_queries(0):
        again = client.get(LIST)
    assert again.content == first.content
    filtered = client.get(LIST + "?country=DE")  # another query string is another page
    assert filtered.status_code == 200 and filtered.content != first.content


def test_publishing_a_list_invalidates_cached_pages(client):
    from ratings.services import publication

    world = standard_world()
    client.get(LIST)
    Player.objects.filter(pk=world.players[0].pk).update(surname="Renamed")
    assert "Renamed" not in client.get(LIST).content.decode()  # served from the cache
    period = make_period(world.federation, "2026Q3", date(2026, 7, 1))
    draft = make_list(
        world.federation,
        period,
        {world.players[0]: 1900.0},
        previous=world.lists[1],
        published=False,
    )
    publication.publish_list(list_id=draft.pk, by=COMMAND_LINE)
    assert "Renamed" in client.get(LIST).content.decode()


def test_error_responses_are_not_cached(client, django_assert_max_num_queries):
    standard_world()
    assert client.get(LIST + "?size=abc").status_code == 400
    response = client.get(LIST + "?size=abc")
    assert response.status_code == 400 and b"size" in response.content
    assert client.get("/federations/fed/lists/1999Q1/").status_code == 404
