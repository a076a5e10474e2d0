"""Every public page: what it shows, its fixed query count, and 404s for unknown ids."""

from __future__ import annotations

from datetime import date

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from ratings.models import EventRating
from tests.ratings.web.factories import (
    make_event,
    make_federation,
    make_list,
    make_period,
    make_players,
    standard_world,
)
from tournaments.models import Event

pytestmark = pytest.mark.django_db

LIST = "/federations/fed/lists/2026Q2/"


def _queries(client, url: str) -> int:
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
        if response.streaming:
            b"".join(response.streaming_content)
    assert response.status_code == 200, url
    return len(ctx.captured_queries)


def _grow(world, extra: int) -> None:
    """Add `extra` players to a federation with their own published lists, events and games."""
    fed = world.federation
    players = make_players(
        fed, [(f"9{i:03d}", f"Zed{i:03d}", "DE", "Berlin") for i in range(extra)]
    )
    p3 = make_period(fed, "2026Q3", date(2026, 7, 1))
    ratings = {p: 1500.0 + i for i, p in enumerate(players)}
    ratings[world.players[0]] = 2100.0
    third = make_list(fed, p3, ratings, previous=world.lists[1], published=False)
    event, _ = make_event(fed, "BIG-26", [world.players[0], *players[:10]], end=date(2026, 5, 1))
    for p in [world.players[0], *players[:10]]:
        EventRating.objects.create(run=third.run, event=event, player=p, before=1500, after=1501)
    from tests.ratings.web.factories import publish

    publish(third)


def test_home_lists_federations_with_latest_list_and_next_due(
    client, django_assert_max_num_queries
):
    standard_world()
    make_federation("empty", "egf")
    with django_assert_max_num_queries(1):
        response = client.get("/")
    html = response.content.decode()
    assert "Federation FED" in html and "Federation EMPTY" in html
    assert 'href="/federations/fed/lists/2026Q2/"' in html
    assert "none published yet" in html
    from django.utils import timezone

    from ratings.selectors.federations import next_list_due

    due = next_list_due("iccf", timezone.localdate(), date(2026, 4, 1), None)
    assert due is not None and due.isoformat() in html


def test_federation_redirects_to_its_latest_list(client):
    standard_world()
    response = client.get("/federations/fed/")
    assert response.status_code == 302 and response["Location"] == LIST
    response = client.get("/federations/fed/?period=2026Q1")
    assert response["Location"] == "/federations/fed/lists/2026Q1/"
    assert client.get("/federations/fed/?period=1999Q1").status_code == 404


def test_federation_without_list_says_so(client):
    make_federation("empty", "egf")
    response = client.get("/federations/empty/")
    assert response.status_code == 404
    assert "No rating list has been published yet" in response.content.decode()


def test_list_page_shows_listed_players_by_rank(client):
    standard_world()
    html = client.get(LIST).content.decode()
    order = [html.index(name) for name in ("Adams", "Baker", "Clark", "Evans")]
    assert order == sorted(order)
    assert "Davis" not in html  # kept for the engine, not listed
    assert ">2011<" in html.replace(" ", "") or "2011" in html
    assert "+11" in html and "−10" in html  # change since the previous list
    assert 'aria-sort="ascending"' in html  # the rank column
    assert "RD" in html  # ICCF shows RD


def test_list_page_hides_rd_outside_iccf(client):
    standard_world(system="playchess", code="pc")
    html = client.get("/federations/pc/lists/2026Q2/").content.decode()
    assert ">RD<" not in html


def test_list_page_only_shows_published_lists(client):
    world = standard_world()
    make_list(
        world.federation,
        make_period(world.federation, "2026Q3", date(2026, 7, 1)),
        {world.players[0]: 1234.0},
        published=False,
    )
    assert client.get("/federations/fed/lists/2026Q3/").status_code == 404
    assert client.get("/federations/fed/").status_code == 302


def test_query_counts_do_not_grow_with_data(client):
    world = standard_world()
    pid = world.players[0].federation_player_id
    urls = [
        "/",
        LIST,
        f"{LIST}?sort=-name&country=DE",
        f"{LIST}?after=2",
        f"{LIST}?q=ad",
        f"{LIST}diff/",
        f"/federations/fed/players/{pid}/",
        "/federations/fed/events/OPEN-26/",
        # filtered, streamed (the whole list's are files written once: no query at all)
        f"{LIST}export.csv?country=DE",
        f"{LIST}export.json?country=DE",
        "/api/v1/federations/",
        "/api/v1/federations/fed/lists/2026Q2/",
        f"/api/v1/federations/fed/players/{pid}/history/",
    ]
    small = {url: _queries(client, url) for url in urls}
    _grow(world, 60)
    cache.clear()  # both passes cold: cached orders and country ranks save a query when warm
    big = {url: _queries(client, url) for url in urls}
    assert small == big
    assert max(big.values()) <= 9, big  # the diff page, cold: six diff queries


def test_explain_page_query_count_is_bounded(client, django_assert_max_num_queries):
    """The explain page rebuilds its run's input with the runner: bulk reads, a bounded count
    (the runner reads one list per distinct tournament start list), not one per row."""
    world = standard_world()
    _grow(world, 30)
    with django_assert_max_num_queries(20):
        assert (
            client.get(f"/federations/fed/players/101/explain/{world.runs[1].pk}/").status_code
            == 200
        )


@pytest.mark.parametrize(
    ("url", "limit"),
    [
        ("/", 1),
        (LIST, 4),
        (f"{LIST}?sort=-club&page=1", 4),
        (f"{LIST}diff/", 9),
        ("/federations/fed/players/101/", 8),  # + opponents' ratings, norms, live rating
        ("/federations/fed/events/OPEN-26/", 7),  # 2 for the acceptability rules
        (f"{LIST}export.csv", 3),
        ("/api/v1/federations/fed/lists/2026Q2/", 3),
        ("/api/v1/federations/fed/players/101/", 3),  # + his live rating
    ],
)
def test_query_count_limits(client, django_assert_max_num_queries, url, limit):
    standard_world()
    with django_assert_max_num_queries(limit):
        response = client.get(url)
        if response.streaming:
            b"".join(response.streaming_content)
    assert response.status_code == 200


def test_player_profile(client):
    world = standard_world()
    html = client.get("/federations/fed/players/101/").content.decode()
    assert "Adams, Bob" in html
    assert "RD 80" in html
    assert "Rank in the federation</dt><dd>1" in html
    assert "Rank in DE</dt><dd>1" in html
    assert html.count('class="point"') == 2  # one point per published list
    assert "Open OPEN-26" in html
    assert f"/federations/fed/players/101/explain/{world.runs[1].pk}/" in html
    assert "Clark, Bob" in html  # his games


def test_player_card_games_from_his_side_with_the_opponents_rating_before(client):
    """Baker (102) lost to Adams with Black and beat Evans with White; Adams was rated from
    2000.0 and Evans from nothing (new): the card says so from Baker's side."""
    from ratings.selectors.players import player_games

    world = standard_world()
    baker = world.players[1]
    games = {g.opponent.surname: g for g in player_games(baker)}
    adams, evans = games["Adams"], games["Evans"]
    assert (adams.colour, adams.points, adams.opponent_rating) == ("black", 0.0, 2000.0)
    assert (evans.colour, evans.opponent_rating) == ("white", None)
    assert evans.points in (1.0, 0.5)
    html = client.get("/federations/fed/players/102/").content.decode()
    rows = html[html.index('id="games-h"') :]
    assert "Opponent&#x27;s rating" in rows or "Opponent's rating" in rows
    assert ">2000<" in rows and ">lost<" in rows and ">Black<" in rows


def test_player_country_rank_counts_compatriots_above(client):
    standard_world()
    html = client.get("/federations/fed/players/105/").content.decode()
    # Evans (DE) is 4th overall; Adams and Clark (DE) are above him.
    assert "Rank in the federation</dt><dd>4" in html
    assert "Rank in DE</dt><dd>3" in html


def test_country_ranks_are_cached_per_country_and_read_back_without_a_query(
    django_assert_num_queries,
):
    """One query fills every country's ranks of the list; a page then reads only its player's
    country's key, a country evicted alone is read again from the list, and a country the list
    lacks is kept as empty."""
    from django.core.cache import cache

    from ratings.selectors.players import country_rank, current_entry

    world = standard_world()
    evans = world.players[4]  # DE, 4th overall, two compatriots above him
    entry = current_entry(evans)
    with django_assert_num_queries(1):
        assert country_rank(entry, "DE") == 3
    prefix = f"ratings:country-ranks:{entry.rating_list_id}:"
    stored = {c for c in ("DE", "FR", "NL", "SE", "GB") if cache.get(prefix + c) is not None}
    assert "DE" in stored and len(stored) >= 2  # each country of the list, apart
    with django_assert_num_queries(0):
        assert country_rank(entry, "DE") == 3
    cache.delete(prefix + "DE")
    with django_assert_num_queries(1):
        assert country_rank(entry, "DE") == 3
    # A country the list has no player of (his changed since) is kept too: read once, not on
    # every page.
    with django_assert_num_queries(1):
        assert country_rank(entry, "XX") == 0
    with django_assert_num_queries(0):
        assert country_rank(entry, "XX") == 0


def test_unlisted_player_shows_as_not_listed(client):
    standard_world()
    html = client.get("/federations/fed/players/104/").content.decode()
    assert "not listed (inactive)" in html


def test_provisional_and_half_rating_flags(client):
    fed = make_federation("pc", "playchess")
    (a,) = make_players(fed, [("1", "Prov", "DE", "")])
    rl = make_list(fed, make_period(fed, "2026-01", date(2026, 1, 1)), {a: 1500.0}, published=False)
    rl.entries.update(provisional=True)
    from tests.ratings.web.factories import publish

    publish(rl)
    assert "provisional" in client.get("/federations/pc/players/1/").content.decode()
    fed = make_federation("wf", "wfcc")
    (s,) = make_players(fed, [("7", "Half", "RS", "")])
    rl = make_list(fed, make_period(fed, "2026Q1", date(2026, 1, 1)), {s: 2300.0}, published=False)
    rl.entries.update(half_rating=True)
    publish(rl)
    assert "half-rating" in client.get("/federations/wf/players/7/").content.decode()


def test_iccf_event_page_is_a_square_crosstable_with_the_iccf_legend(client):
    standard_world()
    html = client.get("/federations/fed/events/OPEN-26/").content.decode()
    assert "Crosstable" in html and "square" in html
    assert "Legend (ICCF)" in html and "jigo" not in html and "handicap" not in html
    assert "Rated" in html
    assert "The acceptability rules, one by one" in html and "ICCF-" in html
    assert "+11" in html and "−10" in html


def test_egf_event_page_is_an_egd_table(client):
    world = standard_world("egf", "eg")
    html = client.get("/federations/eg/events/OPEN-26/").content.decode()
    assert "Results table" in html and "GoR before" in html and "GoR after" in html
    assert "2+/w0" in html and "1-/b0" in html  # opponent's place, result, colour, stones
    assert "Crosstable" not in html
    assert world.event.name in html


@pytest.mark.parametrize("status", ["draft", "submitted", "rejected"])
def test_only_accepted_and_rated_events_are_public(client, status):
    world = standard_world()
    make_event(world.federation, "OTHER-1", world.players[:2], status=status)
    assert client.get("/federations/fed/events/OTHER-1/").status_code == 404
    Event.objects.filter(code="OTHER-1").update(status="accepted")
    assert client.get("/federations/fed/events/OTHER-1/").status_code == 200


def test_solving_event_shows_scores_per_problem_and_round(client):
    from decimal import Decimal

    from tournaments.models import Event, Problem, SolverScore

    fed = make_federation("wf", "wfcc")
    a, b = make_players(fed, [("1", "Alpha", "RS", ""), ("2", "Beta", "DE", "")])
    event = Event.objects.create(
        federation=fed,
        name="Solving Open",
        code="SO-1",
        kind="solving",
        status="accepted",
        start=date(2026, 1, 1),
        end=date(2026, 1, 2),
    )
    problems = [
        Problem.objects.create(event=event, round=r, number=n, group="twomover", original=True)
        for r in (1, 2)
        for n in (1, 2)
    ]
    for p, pts_a, pts_b in zip(
        problems, ("5", "2.5", "5", "0"), ("5", "5", "1.25", "5"), strict=True
    ):
        SolverScore.objects.create(problem=p, solver=a, points=Decimal(pts_a))
        SolverScore.objects.create(problem=p, solver=b, points=Decimal(pts_b))
    html = client.get("/federations/wf/events/SO-1/").content.decode()
    assert "Solving sheet" in html and "Games" not in html
    assert "16.25" in html and "12.50" in html  # Beta first: 16.25, Alpha 12.50
    assert html.index("Beta") < html.index("Alpha")
    assert "7.50" in html  # Alpha's round 1
    assert "Accepted" in html


def test_list_diff(client):
    standard_world()
    html = client.get(f"{LIST}diff/").content.decode()
    assert "1 new players, 1 dropped" in html
    gains = html[html.index("Largest gains") : html.index("Largest losses")]
    losses = html[html.index("Largest losses") : html.index("New players")]
    new = html[html.index("New players") : html.index("Dropped players")]
    dropped = html[html.index("Dropped players") :]
    assert "Adams" in gains and "Clark" in gains and "Baker" not in gains
    assert gains.index("Adams") < gains.index("Clark")  # +11 before +6
    assert "Baker" in losses
    assert "Evans" in new
    assert "Davis" in dropped  # unlisted in the new list


def test_list_diff_against_a_chosen_list_and_unknown_one(client):
    standard_world()
    assert client.get(f"{LIST}diff/?against=2026Q1").status_code == 200
    assert client.get(f"{LIST}diff/?against=1900Q1").status_code == 404
    html = client.get("/federations/fed/lists/2026Q1/diff/").content.decode()
    assert "no earlier published list" in html


@pytest.mark.parametrize(
    "url",
    [
        "/federations/nope/",
        "/federations/nope/lists/2026Q2/",
        "/federations/fed/lists/1999Q1/",
        "/federations/fed/lists/1999Q1/export.csv",
        "/federations/fed/lists/2026Q2/export.pdf",
        "/federations/fed/players/999/",
        "/federations/fed/players/101/explain/999999/",
        "/federations/fed/events/NOPE/",
        "/what-if/nope/",
        "/api/v1/federations/nope/lists/",
        "/api/v1/federations/fed/lists/1999Q1/",
        "/api/v1/federations/fed/players/999/",
        "/api/v1/federations/fed/players/999/history/",
    ],
)
def test_unknown_ids_are_404(client, url):
    standard_world()
    assert client.get(url).status_code == 404


def test_explain_of_another_players_run_is_404(client):
    world = standard_world()
    # Davis (104) was not rated at any event of the second run.
    assert (
        client.get(f"/federations/fed/players/104/explain/{world.runs[1].pk}/").status_code == 404
    )


def test_pages_send_no_inline_script(client):
    world = standard_world()
    for url in (
        "/",
        LIST,
        "/federations/fed/players/101/",
        "/federations/fed/events/OPEN-26/",
        f"{LIST}diff/",
        "/what-if/",
        "/what-if/playchess/",
        f"/federations/fed/players/101/explain/{world.runs[1].pk}/",
    ):
        response = client.get(url)
        html = response.content.decode()
        assert "<script" not in html, url
        assert " on" + "click=" not in html
        assert "script-src 'self'" in response["Content-Security-Policy"]
        assert '<meta name="viewport"' in html


def test_next_list_due_follows_the_calendar():
    from ratings.selectors.federations import next_list_due

    # ICCF: the list valid from 1 Jan 2027 is published about 15 Dec 2026.
    assert next_list_due("iccf", date(2026, 11, 21), date(2026, 10, 1), None) == date(2026, 12, 15)
    # Once it is published the next one is due in March.
    assert next_list_due("iccf", date(2026, 11, 21), date(2027, 1, 1), None) == date(2027, 3, 15)
    # A stored earlier date wins; an unknown system gives only the stored date.
    assert next_list_due("iccf", date(2026, 11, 21), None, date(2026, 11, 30)) == date(2026, 11, 30)
    assert next_list_due("chess960", date(2026, 11, 21), None, None) is None


def test_period_selector_shows_a_list_published_after_it_was_cached(client):
    world = standard_world()
    assert "2026Q3" not in client.get(LIST).content.decode()
    _grow(world, 3)  # publishes 2026Q3
    html = client.get(LIST).content.decode()
    assert '<option value="2026Q3">' in html


ORDER_TABLE = """; CL[B]
; EV[Order Cup]
; DT[2024-03-02,2024-03-03]
; HA[h9]
; TC[T240302B]
   1 Alpha Ann         3d CZ Brno  1  2-/w0   3+/b0   0-
   2 Beta Bob          1k CZ Brno  2  1+/b0   0-      3+/w0
   3 Gamma Cy          2k CZ Prah  0  0-      1-/w0   2-/b0
"""


def test_egf_event_page_keeps_the_results_files_order(client, tmp_path):
    """Beta won more games than Alpha, but the file placed Alpha first: the page agrees."""
    from django.core.management import call_command

    make_federation("egf-o", "egf")
    table = tmp_path / "t240302b.h9"
    table.write_text(ORDER_TABLE)
    call_command("import_egf", str(table), "--federation", "egf-o")
    Event.objects.filter(code="T240302B").update(status="accepted")
    html = client.get("/federations/egf-o/events/T240302B/").content.decode()
    assert "Places as in the results file." in html
    assert html.index("Alpha") < html.index("Beta") < html.index("Gamma")
    assert "2-/w0" in html and "3+/b0" in html and ">3d<" in html


@pytest.mark.parametrize(
    "query", ["Kaminska", "Kamińska, Adam", "adam kaminska", "KAMINSKA", "777"]
)
def test_search_forgives_order_case_and_marks_on_home_list_and_api(client, query):
    from federation.models import Player

    world = standard_world()
    kaminska = Player.objects.create(
        federation=world.federation,
        federation_player_id="777",
        surname="Kamińska",
        given_name="Adam",
        country="PL",
    )
    make_list(
        world.federation,
        make_period(world.federation, "2026Q3", date(2026, 7, 1)),
        {kaminska: 1999.6, world.players[0]: 2012.0},
        previous=world.lists[1],
    )
    home = client.get("/").content.decode()
    assert 'action="/search/"' in home
    found = client.get("/search/", {"q": query}).content.decode()
    assert "/federations/fed/players/777/" in found and ">2000<" in found
    assert "Adams" not in found
    listed = client.get("/federations/fed/lists/2026Q3/", {"q": query}).content.decode()
    assert "Kamińska, Adam" in listed and "Adams" not in listed
    api = client.get("/api/v1/federations/fed/players/", {"q": query}).json()
    assert [p["id"] for p in api["results"]] == ["777"]


def test_search_refuses_control_characters_with_a_message(client):
    response = client.get("/search/", {"q": "a\x01b"})
    assert response.status_code == 400
    assert "Give a name or an id" in response.content.decode()
