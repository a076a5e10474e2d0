"""The list table (templates/ratings/_list_table.html) shows each row as a reader should see it:
its cells in the column order, the name linking to the player, text escaped, a dash where a value
is missing (0 stays 0), the provisional and half-rating marks, the change with its unrounded
value as tooltip; and each header links to its sort, marked with aria-sort, in every language."""

from __future__ import annotations

from html import escape
from types import SimpleNamespace

import pytest
from django.conf import settings as django_settings
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.formats import get_format
from django.utils.translation import gettext as _
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.numbers import signed, signed_unrounded
from ratings.web import tables

LANGUAGES = [code for code, _name in django_settings.LANGUAGES]
PATH = "/federations/fed-1/lists/2026Q1/"

texts = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="/\x00"),
    min_size=1,
    max_size=10,
)
rows = st.fixed_dictionaries(
    {
        "rank": st.none() | st.integers(1, 10**6),
        "fid": texts,
        "name": texts,
        "country": st.sampled_from(["", "DE", "<&>"]),
        "club": st.none() | texts,
        "grade": st.sampled_from(["", "5d", "GM"]),
        "published_rating": st.integers(-100, 3000),
        "published_rd": st.none() | st.integers(0, 400),
        "games": st.integers(0, 50),
        "published_change": st.none() | st.integers(-300, 300),
        "change": st.none() | st.floats(-300, 300, allow_nan=False),
        "provisional": st.booleans(),
        "half_rating": st.booleans(),
    }
)


def _table(rows_shown: list[dict], system, sort: str = "rank") -> str:
    return render_to_string(
        "ratings/_list_table.html",
        {
            "rows": tables.with_player_urls([dict(r) for r in rows_shown], "fed-1"),
            "federation": SimpleNamespace(code="fed-1"),
            "system": system,
            "headers": tables.sort_headers(PATH, {"country": "DE"}, sort),
            "column_count": tables.column_count(system),
        },
    )


def _seen_row(row: dict, system) -> str:
    """The row as a reader must see it, cell by cell in display order."""

    def dash(value) -> str:
        return "—" if value in (None, "") else escape(str(value))

    url = reverse("ratings:player", kwargs={"federation": "fed-1", "player": row["fid"]})
    mark = ""
    if row["provisional"]:
        mark = f' <abbr title="{_("provisional")}">P</abbr>'
    elif row["half_rating"]:
        mark = f' <abbr title="{_("half-rating")}">½</abbr>'
    change = signed(row["published_change"])
    if row["published_change"] is not None:
        exact = signed_unrounded(row["change"]).replace(".", get_format("DECIMAL_SEPARATOR"))
        change = f'<span title="{exact}">{change}</span>'
    cells = [
        ("rank num", dash(row["rank"])),
        ("name", f'<a href="{escape(url)}">{escape(row["name"])}</a>'),
        ("rating num", f"{row['published_rating']}{mark}"),
        *([("rd num", dash(row["published_rd"]))] if system.shows_rd else []),
        ("change num", change),
        ("fid", dash(row["fid"])),
        ("country", dash(row["country"])),
        ("club", dash(row["club"])),
        *([("grade", dash(row["grade"]))] if system.shows_grade else []),
        ("games num", dash(row["games"])),
    ]
    return "<tr>" + "".join(f'<td class="col-{c}">{v}</td>' for c, v in cells) + "</tr>"


@pytest.mark.parametrize("language", LANGUAGES)
@settings(max_examples=40, deadline=None)
@given(page=st.lists(rows, min_size=1, max_size=8), shows_rd=st.booleans(), grade=st.booleans())
def test_each_row_shows_its_cells_in_column_order(language, page, shows_rd, grade):
    system = SimpleNamespace(shows_rd=shows_rd, shows_grade=grade)
    with translation.override(language):
        html = _table(page, system)
        for row in page:
            assert _seen_row(row, system) in html


@pytest.mark.parametrize("shows_rd", [True, False])
@pytest.mark.parametrize("shows_grade", [True, False])
def test_no_row_says_so_across_every_column(shows_rd, shows_grade):
    system = SimpleNamespace(shows_rd=shows_rd, shows_grade=shows_grade)
    html = _table([], system)
    count = 8 + shows_rd + shows_grade
    assert f'<td colspan="{count}">No player matches these filters.</td>' in html
    assert html.count("<th ") == count


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(
    ("sort", "marked"),
    [
        ("rank", {"rank": "ascending", "rating": "descending"}),
        ("-rating", {"rank": "ascending", "rating": "descending"}),
        ("rating", {"rank": "descending", "rating": "ascending"}),
        ("name", {"name": "ascending"}),
        ("-games", {"games": "descending"}),
    ],
)
def test_headers_link_to_their_sort_in_each_language(language, sort, marked):
    system = SimpleNamespace(shows_rd=True, shows_grade=True)
    with translation.override(language):
        html = _table([], system, sort)
        for name, (label, first) in tables.COLUMNS.items():
            state = marked.get(name)
            target = first if state is None else (f"-{name}" if state == "ascending" else name)
            arrow = {"ascending": "▲", "descending": "▼"}.get(state)
            arrow = f' <span aria-hidden="true">{arrow}</span>' if arrow else ""
            aria = f' aria-sort="{state}"' if state else ""
            num = " num" if name in tables.NUMERIC_COLUMNS else ""
            href = escape(f"{PATH}?country=DE&sort={target}")
            assert (
                f'<th scope="col" class="col-{name}{num}"{aria}><a href="{href}">'
                f"{escape(str(label))}{arrow}</a></th>"
            ) in html
