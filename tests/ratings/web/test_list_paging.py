"""The list page's sorting, filtering, searching and keyset paging, checked against Python's own
sort/filter of the same rows; malformed query strings give form errors, never a 500."""

from __future__ import annotations

import random
import re
import uuid
from datetime import date
from urllib.parse import urlencode

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ratings.engines.core.rounding import half_up_int
from ratings.selectors import common, lists
from tests.ratings.web.factories import make_federation, make_list, make_period, make_players

pytestmark = pytest.mark.django_db

URL = "/federations/big/lists/2026Q1/"
COUNTRIES = ["DE", "FR", "NL", "SE"]
CLUBS = ["Alpha", "Beta", "Gamma"]


@pytest.fixture
def big():
    """37 players with distinct ratings; every 7th unlisted; countries and clubs in cycles."""
    rng = random.Random(7)
    fed = make_federation("big", "iccf")
    specs = [
        (
            f"{100 + i}",
            f"{rng.choice(['Ma', 'Mo', 'Ku', 'Ka'])}{chr(97 + i % 26)}{i:02d}",
            COUNTRIES[i % 4],
            CLUBS[i % 3],
        )
        for i in range(37)
    ]
    players = make_players(fed, specs)
    ratings = {p: 1500.0 + rng.random() * 900 for p in players}
    unlisted = tuple(players[::7])
    make_list(
        fed,
        make_period(fed, "2026Q1", date(2026, 1, 1)),
        ratings,
        unlisted=unlisted,
        rds={p: 60.0 + i for i, p in enumerate(players)},
    )
    rows = sorted(
        (
            {
                "fid": p.federation_player_id,
                "surname": p.surname,
                "country": p.country,
                "club": p.club,
                "rating": half_up_int(ratings[p]),
                "raw": ratings[p],
            }
            for p in players
            if p not in unlisted
        ),
        key=lambda r: -r["raw"],
    )
    for i, r in enumerate(rows):
        r["rank"] = i + 1
    return rows


def _ids(html: str) -> list[str]:
    """Player ids in table order, read from the profile links of the name column."""
    body = html[html.index("<tbody") : html.index("</tbody>")]
    return re.findall(r'href="/federations/big/players/([^/]+)/"', body)


def _walk(client, query: dict) -> list[str]:
    """Follow `next` links from the first page to the end."""
    seen, url = [], f"{URL}?{urlencode(query)}"
    for _ in range(100):
        html = client.get(url).content.decode()
        seen += _ids(html)
        found = re.search(r'rel="next" href="([^"]+)"', html)
        if not found:
            return seen
        url = found.group(1).replace("&amp;", "&")
    raise AssertionError("paging did not end")


@pytest.mark.parametrize(
    "sort",
    [
        "rank",
        "-rank",
        "rating",
        "-rating",
        "name",
        "-name",
        "country",
        "-club",
        "fid",
        "rd",
        "-games",
        "change",
    ],
)
def test_walking_every_page_gives_every_row_once_in_order(client, big, sort):
    got = _walk(client, {"sort": sort, "size": 5})
    assert sorted(got) == sorted(r["fid"] for r in big)
    assert len(got) == len(set(got))
    if sort in ("rank", "-rating"):
        assert got == [r["fid"] for r in big]
    if sort in ("-rank", "rating"):
        assert got == [r["fid"] for r in reversed(big)]
    if sort == "name":
        assert got == [r["fid"] for r in sorted(big, key=lambda r: (r["surname"], r["rank"]))]
    if sort == "country":
        assert got == [r["fid"] for r in sorted(big, key=lambda r: (r["country"], r["rank"]))]


def test_previous_link_walks_back(client, big):
    html = client.get(f"{URL}?size=5&after=15").content.decode()
    assert _ids(html) == [r["fid"] for r in big[15:20]]
    previous = re.search(r'rel="prev" href="([^"]+)"', html).group(1).replace("&amp;", "&")
    back = client.get(previous).content.decode()
    assert _ids(back) == [r["fid"] for r in big[10:15]]
    html = client.get(f"{URL}?size=5&sort=-rank&after=20").content.decode()
    assert _ids(html) == [r["fid"] for r in reversed(big[14:19])]


@pytest.mark.parametrize(
    "query",
    [
        {"country": "DE"},
        {"country": "de"},
        {"club": "Beta"},
        {"country": "FR", "club": "Gamma"},
        {"active": "true"},
        {"q": "Ma"},
        {"q": "mo"},
        {"q": "105"},
    ],
)
def test_filters_select_exactly_the_matching_rows(client, big, query):
    got = _walk(client, {**query, "size": 4})
    expected = [
        r["fid"]
        for r in big
        if r["country"] == query.get("country", r["country"]).upper()
        and r["club"] == query.get("club", r["club"])
        and (
            "q" not in query
            or r["fid"] == query["q"]
            or r["surname"].lower().startswith(query["q"].lower())
        )
    ]
    assert got == expected
    assert got  # the fixture has matches for each case


def test_filter_keeps_filters_in_sort_links_and_exports(client, big):
    html = client.get(f"{URL}?country=DE&sort=name").content.decode().replace("&amp;", "&")
    assert "export.csv?country=DE&sort=name" in html
    assert 'href="/federations/big/lists/2026Q1/?country=DE&sort=-name"' in html


def test_sort_links_toggle_direction(client, big):
    html = client.get(URL).content.decode().replace("&amp;", "&")
    assert f'href="{URL}?sort=-rank"' in html  # rank is ascending now: click to reverse
    assert f'href="{URL}?sort=rating"' in html  # rating is descending now (rank order)
    assert f'href="{URL}?sort=name"' in html


def test_page_past_the_end_is_404(client, big):
    assert client.get(f"{URL}?sort=name&page=100000").status_code == 404
    assert client.get(f"{URL}?sort=name&page=8&size=5").status_code == 404  # 32 rows
    assert client.get(f"{URL}?sort=name&page=7&size=5").status_code == 200


def test_filtered_pages_come_from_one_cached_order(client, big, django_assert_max_num_queries):
    client.get(f"{URL}?country=DE&sort=name")
    with django_assert_max_num_queries(3):  # list, period selector, one page by primary key
        response = client.get(f"{URL}?country=DE&sort=name&page=2&size=3")
    assert response.status_code == 200
    assert "players match" in response.content.decode()


@pytest.mark.parametrize(
    "query",
    [
        "sort=bogus",
        "after=-1",
        "after=abc",
        "page=0",
        "page=x",
        "size=0",
        "size=100000",
        "after=3&before=5",
        "country=D",
        "country=123",
        "grade=%3Cb%3E",
        "active=perhaps",
        "q=" + "x" * 101,
        "q=%00",
        "club=a%01b",
    ],
)
def test_malformed_query_strings_give_form_errors(client, big, query):
    response = client.get(f"{URL}?{query}")
    if query == "active=perhaps":
        # django-filter's null-boolean select reads unknown values as "any"
        assert response.status_code == 200
        return
    assert response.status_code == 400, query
    if "%00" in query:  # refused before the view (federation.middleware): NUL reaches nothing
        assert "NUL character" in response.content.decode()
    else:
        assert 'class="error"' in response.content.decode()
    export = client.get(f"{URL}export.csv?{query}")
    assert export.status_code == 400


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.dictionaries(
        st.sampled_from(
            [
                "sort",
                "after",
                "before",
                "page",
                "size",
                "country",
                "club",
                "grade",
                "active",
                "q",
                "period",
                "against",
                "zzz",
            ]
        ),
        st.text(max_size=12),
        max_size=5,
    )
)
def test_no_query_string_gives_a_500(client, big, params):
    for url in (
        URL,
        f"{URL}export.json",
        f"{URL}diff/",
        "/federations/big/",
        "/api/v1/federations/big/lists/2026Q1/",
    ):
        response = client.get(url, params)
        if response.streaming:
            b"".join(response.streaming_content)
        assert response.status_code in (200, 302, 400, 404), (url, params)


def test_the_longest_filters_give_a_page_not_a_500(client, big):
    """Each filter at its longest, in 4-byte characters: the cached order's key stays short
    (a key of over 250 characters warns on every cache, and fails on memcached)."""
    longest = {"q": "\U0001d518" * 100, "club": "\U0001d518" * 100, "grade": "1d"}
    api = "/api/v1/federations/big/lists/2026Q1/"
    for url, sort in ((URL, "rank"), (URL, "name"), (api, "rank")):  # each a cached order
        response = client.get(url, {**longest, "sort": sort})
        assert response.status_code == 200, (url, sort)


@pytest.mark.parametrize("ascending", [True, False])
@pytest.mark.parametrize("size", [1, 5, 50])
def test_the_fixed_keyset_query_gives_the_orm_rows(big, ascending, size):
    """The hot path's own SQL (lists._keyset_rows) against the ORM on the same list, from
    every cursor both ways: the same rows, values (booleans as booleans) and order."""
    from ratings.models import RatingEntry, RatingList

    rating_list = RatingList.objects.get(federation__code="big")
    base = RatingEntry.objects.filter(rating_list=rating_list, listed=True)
    cursors = [*base.values_list("rank", flat=True), 0, 10**6]
    for bound, cursor in [(None, None), *((b, c) for b in "<>" for c in cursors)]:
        qs = base
        if bound:
            qs = qs.filter(**{"rank__lt" if bound == "<" else "rank__gt": cursor})
        ordered = qs.order_by("rank" if ascending else "-rank")
        expected = [common.flat_row(r) for r in ordered.values(*common.ENTRY_FIELDS)[: size + 1]]
        got = lists._keyset_rows(rating_list.pk, bound, cursor, ascending, size)
        assert got == expected, (bound, cursor)
        # and each value of the type the ORM gives (rows come in binary on PostgreSQL)
        assert [[type(v) for v in r.values()] for r in got] == [
            [type(v) for v in r.values()] for r in expected
        ]
        assert all(type(r["active"]) is bool for r in got)


def test_the_fixed_by_id_query_gives_the_orm_rows(big):
    """A filtered page's own SQL (lists._rows_by_id) against the ORM: the same rows and
    values (booleans as booleans), in the order asked, for every entry of the list (listed or
    not), shuffled windows of it, and ids that are no entry."""
    from ratings.models import RatingEntry

    everything = RatingEntry.objects.filter(rating_list__federation__code="big")
    by_orm = {r["id"]: common.flat_row(r) for r in everything.values(*common.ENTRY_FIELDS)}
    ids = list(by_orm)
    rng = random.Random(3)
    windows = [ids, ids[::-1], ids[:1], [], [10**9, *ids[:3], 10**9 + 1]]
    windows += [rng.sample(ids, k) for k in (2, 5, 17)]
    for window in windows:
        expected = [by_orm[i] for i in window if i in by_orm]
        got = lists._rows_by_id(window)
        assert got == expected, window
        assert all(type(r["active"]) is bool for r in got)


def test_a_cached_order_does_not_build_the_filtered_queryset(big):
    """Building the filtered queryset costs more than the page's query: only a cache miss
    builds it."""
    from ratings.models import RatingEntry

    built = []

    def entries():
        built.append(1)
        return RatingEntry.objects.filter(rating_list__federation__code="big", listed=True)

    order_key = f"test-{uuid.uuid4()}"  # never cached before
    first = lists._order_of(entries, "name", order_key)
    again = lists._order_of(entries, "name", order_key)
    assert first == again and len(first[0]) == len(big)
    assert len(built) == 1


def test_each_flat_row_key_comes_from_its_own_field():
    """flat_row's keys against ENTRY_FIELDS, field by field (the keyset page builds the same
    rows from its SQL's columns in ENTRY_FIELDS order)."""
    row = common.flat_row({field: f"<{field}>" for field in common.ENTRY_FIELDS})
    renamed = {"fid": "player__federation_player_id", "given_name": "player__given_name"}
    renamed |= {"surname": "player__surname", "player_id": "player__id"}
    for key in ("country", "club", "grade", "active"):
        renamed[key] = f"player__{key}"
    assert row.pop("name") == "<player__surname>, <player__given_name>"
    assert row == {key: f"<{renamed.get(key, key)}>" for key in row}
    assert len(row) == len(common.ENTRY_FIELDS) - 1  # all but the entry's id
