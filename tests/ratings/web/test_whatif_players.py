"""The what-if calculator in a federation's context: prefilled from a player's page, opponents
by `#id` or found by name (a server-side search, no JavaScript), the federation's parameters."""

from __future__ import annotations

import re

import pytest

from federation.models import Federation
from ratings.engines import iccf
from ratings.engines.core.rounding import half_up_int
from tests.ratings.web.factories import standard_world

pytestmark = pytest.mark.django_db

URL = "/what-if/iccf/"
CHECKED = re.compile(r'name="inflate"[^>]*checked')


def _outcome(html: str) -> tuple[str, str]:
    rating = re.search(r'id="new-rating">([^<]+)<', html).group(1)
    rd = re.search(r'id="new-rd">([^<]+)<', html).group(1)
    return rating, rd


def _field(html: str, name: str) -> str:
    return re.search(rf'name="{name}"[^>]*value="([^"]*)"', html).group(1)


def test_player_page_links_to_the_calculator_prefilled_with_his_values(client):
    standard_world()
    html = client.get("/federations/fed/players/101/").content.decode()
    link = re.search(r'id="whatif-link" href="([^"]+)"', html).group(1).replace("&amp;", "&")
    assert link == "/what-if/iccf/?fed=fed&player=101"
    page = client.get(link)
    assert page.status_code == 200
    form = page.content.decode()
    # his carried (unrounded) values from list 2026Q2: what the engine would start from
    assert _field(form, "rating") == "2010.6" and _field(form, "rd") == "80.0"
    assert CHECKED.search(form)
    assert '<option value="fed" selected>' in form
    assert 'id="prefilled"' in form and "2026Q2" in form
    assert 'id="new-rating"' not in form  # prefilled, not yet calculated


def test_an_opponent_by_id_is_his_published_values(client):
    standard_world()
    mine = {"rating": "2010.6", "rd": "80", "inflate": "on", "fed": "fed"}
    by_id = client.get(URL, {**mine, "opponents": "#102 1\n#103 0.5 b"})
    typed = client.get(URL, {**mine, "opponents": "1940.0 81.0 1\n1905.5 82.0 0.5 b"})
    assert by_id.status_code == typed.status_code == 200
    assert _outcome(by_id.content.decode()) == _outcome(typed.content.decode())


def test_the_federations_engine_parameters_are_used(client):
    world = standard_world()
    Federation.objects.filter(pk=world.federation.pk).update(params={"engine": {"c": 10.0}})
    query = {"rating": "2000", "rd": "100", "inflate": "on", "opponents": "1900 90 1"}
    with_fed = _outcome(client.get(URL, {**query, "fed": "fed"}).content.decode())
    without = _outcome(client.get(URL, query).content.decode())
    expected = iccf.explain(
        "you",
        [iccf.Player("you", 2000.0, 100.0), iccf.Player("o", 1900.0, 90.0)],
        [iccf.Game("you", "o", 1.0)],
        (),
        iccf.Params(c=10.0),
    )
    assert with_fed == (str(half_up_int(expected.rating)), str(half_up_int(expected.rd)))
    assert with_fed != without


def test_find_an_opponent_by_name_then_add_him(client):
    standard_world()
    mine = {"rating": "2010.6", "rd": "80", "inflate": "on", "fed": "fed", "opponents": "#102 1"}
    found = client.get(URL, {**mine, "action": "find", "find": "bob clark"})
    html = found.content.decode()
    assert found.status_code == 200 and 'id="new-rating"' not in html
    assert 'name="add" value="#103 0.5"' in html and "Clark, Bob (#103)" in html
    added = client.get(URL, {**mine, "add": "#103 0.5"}).content.decode()
    assert "#102 1\n#103 0.5</textarea>" in added
    assert 'id="new-rating"' not in added
    assert CHECKED.search(added)
    unchecked = client.get(URL, {**mine, "inflate": "", "add": "#103 0"}).content.decode()
    assert CHECKED.search(unchecked)  # "" is still submitted: on
    off = {k: v for k, v in mine.items() if k != "inflate"}
    assert not CHECKED.search(client.get(URL, {**off, "add": "#103 0"}).content.decode())


def test_search_needs_a_federation(client):
    standard_world()
    html = client.get(URL, {"action": "find", "find": "Clark"}).content.decode()
    assert "Choose a federation first." in html


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ({"fed": "fed", "opponents": "#999 1"}, "line 1: no player #999 on a published list"),
        ({"opponents": "1900 90 1\n#102 1"}, "line 2: an opponent by id (#102) needs a federation"),
    ],
)
def test_bad_opponent_ids_are_named(client, query, message):
    standard_world()
    response = client.get(URL, {"rating": "2000", "rd": "90", **query})
    assert response.status_code == 400
    assert message in response.content.decode()


def test_a_federation_of_another_system_or_an_unlisted_player_is_404(client):
    standard_world()
    standard_world("egf", "go")
    assert client.get("/what-if/egf/", {"fed": "fed"}).status_code == 404
    assert client.get(URL, {"fed": "fed", "player": "nobody"}).status_code == 404


def test_egf_prefill_and_opponent_by_id(client):
    standard_world("egf", "go")
    form = client.get("/what-if/egf/", {"fed": "go", "player": "102"}).content.decode()
    assert _field(form, "rating") == "1940.0"
    mine = {"rating": "1940", "tournament_class": "A", "fed": "go"}
    by_id = client.get("/what-if/egf/", {**mine, "opponents": "#101 0 b"}).content.decode()
    typed = client.get("/what-if/egf/", {**mine, "opponents": "2010.6 0 b"}).content.decode()
    new = re.compile(r'id="new-rating">([^<]+)<')
    assert new.search(by_id).group(1) == new.search(typed).group(1)
