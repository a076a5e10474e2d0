"""The list endpoint renders its response without ninja's per-entry validation: its body must be
exactly what validating it against the documented schema gives (same keys, same types, same
values), for every system's list and for filtered, paged and empty pages."""

from __future__ import annotations

import json

import pytest
from ninja.responses import NinjaJSONEncoder

from ratings.web.api.schemas import ListPage
from tests.ratings.web.factories import standard_world

pytestmark = pytest.mark.django_db


def _through_the_schema(body: dict) -> dict:
    return json.loads(json.dumps(ListPage.model_validate(body).model_dump(), cls=NinjaJSONEncoder))


@pytest.mark.parametrize("system", ["iccf", "egf", "playchess", "wfcc"])
@pytest.mark.parametrize("query", ["", "?limit=2", "?limit=2&after=2", "?country=DE", "?q=zzz"])
def test_list_page_is_what_the_schema_gives(client, system, query):
    standard_world(system)
    response = client.get(f"/api/v1/federations/fed/lists/2026Q2/{query}")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert body == _through_the_schema(body)
    assert body["results"] or query == "?q=zzz"


def test_a_wrong_type_would_be_caught():
    """The comparison above has teeth: a value of the wrong type does not survive the schema."""
    standard_world()
    from django.test import Client

    body = Client().get("/api/v1/federations/fed/lists/2026Q2/").json()
    body["results"][0]["rating"] = 2011.4
    with pytest.raises(ValueError):
        _through_the_schema(body)
