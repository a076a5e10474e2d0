"""The read-only JSON API under /api/v1/."""

from __future__ import annotations

import pytest

from tests.ratings.web.factories import standard_world

pytestmark = pytest.mark.django_db


def test_index_and_federations(client):
    standard_world()
    index = client.get("/api/v1/").json()
    assert index["federations"].endswith("/api/v1/federations/")
    feds = client.get("/api/v1/federations/").json()["federations"]
    assert feds[0]["code"] == "fed" and feds[0]["latest_period"] == "2026Q2"
    assert feds[0]["system"] == "iccf"


def test_lists_newest_first(client):
    standard_world()
    lists = client.get("/api/v1/federations/fed/lists/").json()["lists"]
    assert [x["period"] for x in lists] == ["2026Q2", "2026Q1"]
    assert lists[0]["entries"] == 4


def test_list_entries_page_by_rank_with_next_links(client):
    standard_world()
    page = client.get("/api/v1/federations/fed/lists/2026Q2/?limit=3").json()
    assert [r["id"] for r in page["results"]] == ["101", "102", "103"]
    assert page["results"][0]["rd"] == 80 and page["results"][0]["rating"] == 2011
    assert "after=3" in page["next"] and "limit=3" in page["next"]
    rest = client.get(page["next"]).json()
    assert [r["id"] for r in rest["results"]] == ["105"] and rest["next"] is None


def test_list_entries_filtered(client):
    standard_world()
    page = client.get("/api/v1/federations/fed/lists/2026Q2/?country=DE&q=e").json()
    assert [r["id"] for r in page["results"]] == ["105"]


@pytest.mark.parametrize(
    "query", ["limit=0", "limit=abc", "after=-3", "country=X", "sort=name", "before=2"]
)
def test_bad_list_queries_are_json_400(client, query):
    standard_world()
    response = client.get(f"/api/v1/federations/fed/lists/2026Q2/?{query}")
    assert response.status_code == 400
    assert "error" in response.json()


def test_player_search_detail_and_history(client):
    standard_world()
    found = client.get("/api/v1/federations/fed/players/?q=Cl").json()["results"]
    assert [p["id"] for p in found] == ["103"]
    assert client.get("/api/v1/federations/fed/players/?q=C").status_code == 400
    player = client.get("/api/v1/federations/fed/players/101/").json()
    assert player["current"]["rating"] == 2011 and player["current"]["rank"] == 1
    history = client.get(player["history"]).json()
    assert [h["period"] for h in history["lists"]] == ["2026Q1", "2026Q2"]
    assert history["events"][0]["event"] == "OPEN-26"
    assert history["events"][0]["after"] == 2010.6


def test_api_is_read_only_and_404s_are_json(client):
    standard_world()
    assert client.post("/api/v1/federations/").status_code == 405
    response = client.get("/api/v1/federations/fed/players/nobody/")
    assert response.status_code == 404 and response.json()["error"]


def test_limit_is_1_to_500_as_documented(client):
    standard_world()
    assert client.get("/api/v1/federations/fed/lists/2026Q2/?limit=500").status_code == 200
    response = client.get("/api/v1/federations/fed/lists/2026Q2/?limit=501")
    assert response.status_code == 400
    assert response.json()["errors"]["limit"] == ["Input should be less than or equal to 500"]
    assert "limit" in response.json()["error"]


def test_openapi_schema_is_served_and_names_the_limits(client):
    schema = client.get("/api/v1/openapi.json").json()
    assert schema["openapi"].startswith("3.")
    params = schema["paths"]["/api/v1/federations/{federation}/lists/{period}/"]["get"]
    limit = next(p for p in params["parameters"] if p["name"] == "limit")
    assert (limit["schema"]["minimum"], limit["schema"]["maximum"]) == (1, 500)


def test_docs_page_for_browsers_is_rendered_from_the_schema(client):
    schema = client.get("/api/v1/openapi.json").json()
    response = client.get("/api/v1/", HTTP_ACCEPT="text/html,application/xhtml+xml,*/*;q=0.8")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/html")
    html = response.content.decode()
    for path in schema["paths"]:
        assert f"GET {path}" in html
    for name in schema["components"]["schemas"]:
        assert f'id="model-{name}"' in html
    assert "1..500, default 100" in html  # the limit parameter's constraints, from the schema
    assert "<script" not in html  # no JavaScript, no CDN


def test_swagger_ui_is_served_from_the_packages_static_files(client):
    html = client.get("/api/v1/docs/").content.decode()
    assert "/static/ninja/swagger-ui-bundle.js" in html
    assert "cdn" not in html.lower()
