"""The list table's rows (ratings.web.tables.ListTable.body_html, one cell function per column) are
the rows of the cell-by-cell loop it replaced, kept below as the reference, on generated rows
in every language and for every column layout."""

from __future__ import annotations

from html import escape
from types import SimpleNamespace

import pytest
from django.conf import settings as django_settings
from django.urls import reverse
from django.utils import translation
from django.utils.html import format_html
from django.utils.translation import gettext as _
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.web.tables import ListTable, change_cell

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


def reference(table: ListTable) -> str:
    """The loop body_html had before: a branch per cell, reverse() per player."""
    names = [c.name for c in table.columns]
    classes = {c.name: c.td_class for c in table.columns}
    tds = {n: f'<td class="{f"col-{n} {classes[n]}".strip()}">' for n in names}
    provisional = format_html(' <abbr title="{}">P</abbr>', _("provisional"))
    half = format_html(' <abbr title="{}">½</abbr>', _("half-rating"))
    out = []
    for row in table.rows:
        cells = []
        for n in names:
            if n == "name":
                url = reverse(
                    "ratings:player",
                    kwargs={"federation": table.federation_code, "player": row["fid"]},
                )
                value = f'<a href="{escape(url)}">{escape(row["name"])}</a>'
            elif n == "rating":
                mark = provisional if row["provisional"] else (half if row["half_rating"] else "")
                value = f"{row['published_rating']}{mark}"
            elif n == "rd":
                value = "—" if row["published_rd"] is None else str(row["published_rd"])
            elif n == "change":
                value = change_cell(row["published_change"], row["change"])
            else:
                value = escape(str(row[n])) if row[n] not in (None, "") else "—"
            cells.append(tds[n] + value + "</td>")
        out.append("<tr>" + "".join(cells) + "</tr>")
    return "\n".join(out)


@pytest.mark.parametrize("language", [code for code, _name in django_settings.LANGUAGES])
@settings(max_examples=40, deadline=None)
@given(page=st.lists(rows, max_size=8), shows_rd=st.booleans(), shows_grade=st.booleans())
def test_body_rows_are_the_reference_rows(language, page, shows_rd, shows_grade):
    system = SimpleNamespace(shows_rd=shows_rd, shows_grade=shows_grade)
    with translation.override(language):
        table = ListTable(page, federation_code="fed-1", system=system)
        assert table.body_html() == reference(table)


def reference_head(table: ListTable) -> str:
    """The header row as html() built it before: each column's name translated on the page."""
    cells = []
    for column, url, state in table.header_links:
        aria = f' aria-sort="{state}"' if state else ""
        arrow = {"ascending": "▲", "descending": "▼"}.get(state)
        arrow = f' <span aria-hidden="true">{arrow}</span>' if arrow else ""
        label = escape(str(column.header))
        inner = f'<a href="{escape(url)}">{label}{arrow}</a>' if url else label
        num = " num" if column.name in {"rank", "rating", "rd", "games", "change"} else ""
        cells.append(f'<th scope="col" class="col-{column.name}{num}"{aria}>{inner}</th>')
    return "<thead><tr>" + "".join(cells) + "</tr></thead>"


@pytest.mark.parametrize("sort", ["rank", "-rating", "name"])
def test_the_headers_are_the_column_names_in_each_language(sort):
    for _round in range(2):  # the first translates and keeps, the second copies
        for language in [code for code, _name in django_settings.LANGUAGES]:
            for shows_rd in (True, False):
                for shows_grade in (True, False):
                    system = SimpleNamespace(shows_rd=shows_rd, shows_grade=shows_grade)
                    with translation.override(language):
                        table = ListTable([], federation_code="fed-1", system=system)
                        table.build_header_links("/federations/fed-1/lists/2026Q1/", {}, sort)
                        assert reference_head(table) in table.html()
