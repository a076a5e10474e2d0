"""What clients of /api/v1/ depend on: every path, its keys and every query parameter.

Written against the hand-made views before the API moved to django-ninja; they must pass
unchanged on both.
"""

from __future__ import annotations

import pytest

from tests.ratings.web.factories import standard_world

pytestmark = pytest.mark.django_db

LIST = "/api/v1/federations/fed/lists/2026Q2/"

ENTRY_KEYS = {
    "rank",
    "id",
    "name",
    "country",
    "club",
    "grade",
    "active",
    "rating",
    "rating_unrounded",
    "rd",
    "rd_unrounded",
    "games",
    "change",
    "change_unrounded",
    "provisional",
    "half_rating",
}


def ids(client, query: str) -> list[str]:
    response = client.get(f"{LIST}?{query}")
    assert response.status_code == 200, response.content
    return [r["id"] for r in response.json()["results"]]


def test_index_links_to_federations_for_json_clients(client):
    body = client.get("/api/v1/", HTTP_ACCEPT="application/json").json()
    assert body["federations"] == "http://testserver/api/v1/federations/"
    assert client.get("/api/v1/", HTTP_ACCEPT="*/*").json()["federations"]


def test_federation_keys(client):
    standard_world()
    (fed,) = client.get("/api/v1/federations/").json()["federations"]
    assert fed == {
        "code": "fed",
        "name": "Federation FED",
        "system": "iccf",
        "latest_period": "2026Q2",
        "latest_valid_from": "2026-04-01",
        "next_list_due": fed["next_list_due"],
        "lists": "http://testserver/api/v1/federations/fed/lists/",
    }


def test_lists_keys(client):
    standard_world()
    body = client.get("/api/v1/federations/fed/lists/").json()
    assert body["federation"] == "fed"
    assert body["lists"][0] == {
        "period": "2026Q2",
        "valid_from": "2026-04-01",
        "published_at": "2026-03-15T12:00:00+00:00",
        "entries": 4,
        "url": "http://testserver/api/v1/federations/fed/lists/2026Q2/",
    }


def test_list_page_keys(client):
    standard_world()
    body = client.get(LIST).json()
    assert body["list"] == {
        "federation": "fed",
        "period": "2026Q2",
        "valid_from": "2026-04-01",
        "published_at": "2026-03-15T12:00:00+00:00",
        "entries": 4,
        "url": "http://testserver" + LIST,
    }
    assert body["next"] is None
    first = body["results"][0]
    assert set(first) >= ENTRY_KEYS  # more keys are fine (the export's surname, given_name)
    assert first["rating_unrounded"] == 2010.6 and first["rd_unrounded"] == 80.0
    # One number everywhere: 2000 -> 2011 published is +11; the unrounded +10.6 beside it.
    assert first["change"] == 11 and first["change_unrounded"] == pytest.approx(10.6)


def test_default_limit_is_100_and_limit_is_carried(client):
    standard_world()
    assert ids(client, "") == ["101", "102", "103", "105"]
    body = client.get(f"{LIST}?limit=2&country=DE").json()
    assert [r["id"] for r in body["results"]] == ["101", "103"]
    assert "limit=2" in body["next"] and "country=DE" in body["next"] and "after=3" in body["next"]


def test_after_alone(client):
    standard_world()
    assert ids(client, "after=2") == ["103", "105"]
    assert ids(client, "after=4") == []


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("country=de", ["101", "103", "105"]),
        ("club=Berlin", ["101", "105"]),
        ("grade=", ["101", "102", "103", "105"]),
        ("active=true", ["101", "102", "103", "105"]),
        ("active=false", []),
        ("q=101", ["101"]),
        ("q=Ba", ["102"]),
        ("sort=rank", ["101", "102", "103", "105"]),
        ("sort=-rating", ["101", "102", "103", "105"]),
    ],
)
def test_each_filter(client, query, expected):
    standard_world()
    assert ids(client, query) == expected


def test_player_keys(client):
    standard_world()
    (found,) = client.get("/api/v1/federations/fed/players/?q=101").json()["results"]
    assert found == {
        "id": "101",
        "name": "Adams, Bob",
        "country": "DE",
        "club": "Berlin",
        "grade": "",
        "active": True,
        "url": "http://testserver/api/v1/federations/fed/players/101/",
    }
    body = client.get(found["url"]).json()
    assert body["current"] == {
        "period": "2026Q2",
        "rating": 2011,
        "rating_unrounded": 2010.6,
        "rd": 80,
        "rank": 1,
        "games": 3,
        "total_games": 6,
        "provisional": False,
        "half_rating": False,
    }
    assert body["history"] == "http://testserver/api/v1/federations/fed/players/101/history/"


def test_unlisted_player_has_no_rank(client):
    standard_world()
    assert client.get("/api/v1/federations/fed/players/104/").json()["current"]["rank"] is None


def test_history_keys(client):
    standard_world()
    body = client.get("/api/v1/federations/fed/players/101/history/").json()
    assert body["id"] == "101"
    assert set(body["lists"][1]) == {
        "period",
        "valid_from",
        "rating",
        "rating_unrounded",
        "rd",
        "rank",
        "games",
        "change",
        "change_unrounded",
        "provisional",
        "half_rating",
    }
    assert body["events"][0] == {
        "event": "OPEN-26",
        "name": "Open OPEN-26",
        "end": "2026-02-01",
        "period": "2026Q2",
        "before": 2000.0,
        "after": 2010.6,
        "before_rd": None,
        "after_rd": None,
        "change": 11,
        "change_unrounded": pytest.approx(10.6),
        "games": 3,
        "score": 1.5,
    }


@pytest.mark.parametrize(
    "url",
    [
        "/api/v1/federations/nope/lists/",
        "/api/v1/federations/fed/lists/1999Q1/",
        "/api/v1/federations/nope/players/?q=ab",
        "/api/v1/federations/fed/players/nobody/history/",
    ],
)
def test_unknown_ids_are_json_404(client, url):
    standard_world()
    response = client.get(url)
    assert response.status_code == 404
    assert response["Content-Type"].startswith("application/json")
    assert response.json()["error"]


def test_bad_player_query_is_json_400(client):
    standard_world()
    for query in ("", "q=a", "q=" + "x" * 101):
        response = client.get(f"/api/v1/federations/fed/players/?{query}")
        assert response.status_code == 400 and response.json()["error"]
