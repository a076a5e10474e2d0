"""Every API response on the rated demo data conforms to the OpenAPI schema the API serves.

Schemathesis loads /api/v1/openapi.json from the WSGI application and checks each response
(status documented, JSON content type, body valid against the response schema, no server
error): first for concrete requests built from the demo (every federation, list, filter and a
sample of players, good and bad queries), then for queries it generates itself.
"""

from __future__ import annotations

import pytest
import schemathesis
from django.core.handlers.wsgi import WSGIHandler
from django.core.management import call_command
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from federation.models import Federation, Player
from federation.permissions import COMMAND_LINE
from ratings.models import ListStatus, RatingEntry, RatingList

pytestmark = pytest.mark.django_db

BASE = "/api/v1"
LIST = f"{BASE}/federations/{{federation}}/lists/{{period}}/"


@pytest.fixture(scope="module")
def rated_demo(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        from django.db import connection

        from federation.triggers import UNLOCK_TABLE

        call_command("seed_demo", players=80, seed=5)
        call_command("rate_demo")
        yield
        with connection.cursor() as cursor:
            cursor.execute(f"INSERT INTO {UNLOCK_TABLE} (reason) VALUES ('test teardown')")
        call_command("flush", interactive=False, verbosity=0)
        with connection.cursor() as cursor:
            cursor.execute(f"DELETE FROM {UNLOCK_TABLE}")


@pytest.fixture(scope="module", autouse=True)
def _keep_the_test_connection():
    """Requests go through the real WSGI handler, whose request signals close the database
    connection (and with it the test's transaction on PostgreSQL): disconnect them, as Django's
    test client does."""
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture(scope="module")
def schema(django_db_blocker):
    with django_db_blocker.unblock():
        return schemathesis.openapi.from_wsgi(f"{BASE}/openapi.json", WSGIHandler())


def check(schema, path: str, expected_status: int, *, query=None, **path_parameters):
    case = schema[path]["GET"].Case(
        path_parameters=path_parameters, query=query or {}, headers={"Accept": "application/json"}
    )
    response = case.call_and_validate()
    assert response.status_code == expected_status, (path, path_parameters, query, response.text)
    return response.json()


def test_every_operation_is_documented(schema):
    operations = {op.ok().path for op in schema.get_all_operations()}
    assert operations == {
        f"{BASE}/",
        f"{BASE}/federations/",
        f"{BASE}/federations/{{federation}}/lists/",
        LIST,
        f"{BASE}/federations/{{federation}}/players/",
        f"{BASE}/federations/{{federation}}/players/{{player}}/",
        f"{BASE}/federations/{{federation}}/players/{{player}}/history/",
    }


def test_index_and_federations(rated_demo, schema):
    assert check(schema, f"{BASE}/", 200)["federations"].endswith("/api/v1/federations/")
    codes = {f["code"] for f in check(schema, f"{BASE}/federations/", 200)["federations"]}
    assert codes == {"iccf", "egf", "playchess", "wfcc"}


def test_every_published_list(rated_demo, schema):
    for fed in Federation.objects.all():
        lists = check(schema, f"{BASE}/federations/{{federation}}/lists/", 200, federation=fed.code)
        assert len(lists["lists"]) >= 2, fed.code
        for rating_list in RatingList.objects.filter(federation=fed, status=ListStatus.PUBLISHED):
            where = {"federation": fed.code, "period": rating_list.period.code}
            full = check(schema, LIST, 200, query={"limit": 500}, **where)
            assert len(full["results"]) == min(rating_list.entry_count, 500)


def test_paging_and_every_filter_on_each_federations_newest_list(rated_demo, schema):
    for fed in Federation.objects.all():
        rating_list = (
            RatingList.objects.filter(federation=fed, status=ListStatus.PUBLISHED)
            .order_by("-period__valid_from")
            .first()
        )
        where = {"federation": fed.code, "period": rating_list.period.code}
        first = check(schema, LIST, 200, query={"limit": 1}, **where)
        after = first["next"].split("after=")[1].split("&")[0]
        check(schema, LIST, 200, query={"limit": 1, "after": int(after)}, **where)
        p = RatingEntry.objects.filter(rating_list=rating_list, listed=True).first().player
        for query in (
            {"country": p.country},
            {"club": p.club[:20]} if p.club else {},
            {"grade": p.grade} if p.grade else {},
            {"active": "true"},
            {"active": "false"},
            {"q": p.surname[:3]},
            {"q": p.federation_player_id},
            {"sort": "-rating", "country": p.country, "limit": 5},
        ):
            found = check(schema, LIST, 200, query=query, **where)
            assert found["results"] or query.get("active") == "false", query


@pytest.mark.parametrize(
    "query",
    [
        {"limit": 501},
        {"limit": 0},
        {"after": -1},
        {"country": "X"},
        {"sort": "name"},
        {"before": 2},
    ],
)
def test_bad_list_queries_are_documented_400s(rated_demo, schema, query):
    rating_list = RatingList.objects.filter(status=ListStatus.PUBLISHED).first()
    where = {"federation": rating_list.federation.code, "period": rating_list.period.code}
    body = check(schema, LIST, 400, query=query, **where)
    assert body["error"]


def test_players_detail_and_history(rated_demo, schema):
    for fed in Federation.objects.all():
        sample = list(Player.objects.filter(federation=fed).order_by("?")[:5])
        for p in sample:
            where = {"federation": fed.code, "player": p.federation_player_id}
            found = check(
                schema,
                f"{BASE}/federations/{{federation}}/players/",
                200,
                query={"q": p.full_name},
                federation=fed.code,
            )
            assert p.federation_player_id in {r["id"] for r in found["results"]}
            check(schema, f"{BASE}/federations/{{federation}}/players/{{player}}/", 200, **where)
            check(
                schema,
                f"{BASE}/federations/{{federation}}/players/{{player}}/history/",
                200,
                **where,
            )


def test_unknown_ids_are_documented_404s(rated_demo, schema):
    check(schema, f"{BASE}/federations/{{federation}}/lists/", 404, federation="nope")
    check(schema, LIST, 404, federation="iccf", period="1900Q1")
    check(
        schema,
        f"{BASE}/federations/{{federation}}/players/",
        404,
        federation="no",
        query={"q": "ab"},
    )
    check(
        schema,
        f"{BASE}/federations/{{federation}}/players/{{player}}/",
        404,
        federation="iccf",
        player="x",
    )


def test_generated_list_queries_conform(rated_demo, schema):
    """Schemathesis' own generated queries on a real list: never a 500, always as documented."""
    rating_list = RatingList.objects.filter(
        federation__code="iccf", status=ListStatus.PUBLISHED
    ).first()
    strategy = schema[LIST]["GET"].as_strategy(
        path_parameters={"federation": "iccf", "period": rating_list.period.code}
    )

    @settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
    @given(case=strategy)
    def run(case):
        case.call_and_validate()

    run()


def test_generated_player_searches_conform(rated_demo, schema):
    strategy = schema[f"{BASE}/federations/{{federation}}/players/"]["GET"].as_strategy(
        path_parameters={"federation": "egf"}
    )

    @settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
    @given(case=strategy)
    def run(case):
        case.call_and_validate()

    run()


def test_live_ratings_on_the_demo_conform_and_equal_the_official_run(rated_demo, schema):
    from ratings.models import LiveRun
    from ratings.services import live, runs

    assert live.refresh_all() >= 1
    for run in LiveRun.objects.select_related("federation"):
        fed = run.federation.code
        mine = {r.player_id: r for r in run.ratings.select_related("player")}
        for r in list(mine.values())[:5]:
            body = check(
                schema,
                f"{BASE}/federations/{{federation}}/players/{{player}}/",
                200,
                federation=fed,
                player=r.player.federation_player_id,
            )
            assert body["live"]["unofficial"] is True
            assert body["live"]["rating"] == r.published_rating
        official = runs.run_now(
            federation=run.federation, period_code=run.period_code, by=COMMAND_LINE
        )
        entries = {e.player_id: e for e in official.rating_list.entries.all()}
        assert {pid: (r.rating, r.published_rating) for pid, r in mine.items()} == {
            pid: (entries[pid].rating, entries[pid].published_rating) for pid in mine
        }


# Where Python's, pydantic's (Rust) and ECMA-262's \s disagree (schemathesis generated " \x85 Ē "
# as a valid search: to ECMA-262, \x85 is no space, to the server it is one).
SPACE_DIALECTS_DISAGREE = "\x1c\x1d\x1e\x1f\x85\ufeff"


@pytest.mark.parametrize("odd", SPACE_DIALECTS_DISAGREE)
def test_the_search_pattern_takes_no_character_whose_spaceness_depends_on_the_dialect(odd):
    import re

    from ratings.web.api.schemas import SEARCH

    for text in (f"{odd}ab", f"ab{odd}", f"a{odd}b", f"ab {odd} cd", f" {odd} \u0112 "):
        assert re.fullmatch(SEARCH, text) is None, repr(text)


@settings(max_examples=500, deadline=None)
@given(
    st.one_of(
        st.text(max_size=6),
        st.text(alphabet=" \t\x85\xa0\u2028\x97\ufeff\x1cab", max_size=6),
        st.sampled_from([" \x97", " a ", "ab", "a", "\x85ab\x85", " a b ", " \x85 \u0112 "]),
    )
)
def test_a_search_the_schema_allows_is_a_search_the_server_takes(text):
    """The player search's declared pattern (as sent) against the server's own reading (spaces
    around stripped, then two characters at least): what the schema allows is taken, and what
    it takes in one piece of two or more characters the schema allows."""
    import re

    from pydantic import TypeAdapter, ValidationError

    from ratings.web.api.schemas import SEARCH, SearchText

    declared = re.fullmatch(SEARCH, text) is not None and len(text) <= 100
    try:
        TypeAdapter(SearchText).validate_python(text)
        taken = True
    except ValidationError:
        taken = False
    if declared:
        assert taken, repr(text)
    if taken and text == text.strip():
        assert declared, repr(text)
