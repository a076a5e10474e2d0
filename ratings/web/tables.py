"""The rating-list table: columns (declared for django-tables2), cell rendering, sort links.

The rows are one page already fetched by keyset (ratings.selectors.list_page), so the table never
sorts or paginates itself; it renders the page and builds each header's sort link from the
current query string (filters kept, cursors dropped).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from html import escape as _escape
from urllib.parse import urlencode

import django_tables2 as tables
from django.urls import reverse
from django.utils.formats import get_format
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from ratings.numbers import signed, signed_unrounded
from ratings.web.settings_generation import settings_generation

# Column name -> the sort key it toggles (ratings.selectors.SORTS); descending first for numbers.
NUMERIC_COLUMNS = {"rank", "rating", "rd", "games", "change"}

SORT_OF_COLUMN = {
    "rank": "rank",
    "fid": "fid",
    "name": "name",
    "country": "country",
    "club": "club",
    "grade": "grade",
    "rating": "-rating",
    "rd": "rd",
    "games": "-games",
    "change": "-change",
}


class RatingListTable(tables.Table):
    rank = tables.Column(verbose_name=_("Rank"), attrs={"td": {"class": "num"}})
    fid = tables.Column(verbose_name=_("Id"))
    name = tables.Column(verbose_name=_("Name"), empty_values=())
    country = tables.Column(verbose_name=_("Country"))
    club = tables.Column(verbose_name=_("Club"), attrs={"td": {"class": "col-club"}})
    grade = tables.Column(verbose_name=_("Title/grade"))
    rating = tables.Column(
        verbose_name=_("Rating"),
        accessor="published_rating",
        attrs={"td": {"class": "num"}},
        empty_values=(),
    )
    rd = tables.Column(
        verbose_name=_("RD"), accessor="published_rd", attrs={"td": {"class": "num"}}
    )
    games = tables.Column(verbose_name=_("Games"), attrs={"td": {"class": "num"}})
    change = tables.Column(
        verbose_name=_("Change"), attrs={"td": {"class": "num"}}, empty_values=()
    )

    class Meta:
        # Who and how strong first: on a phone these stay in view while the rest scrolls.
        sequence = (
            "rank",
            "name",
            "rating",
            "rd",
            "change",
            "fid",
            "country",
            "club",
            "grade",
            "games",
        )
        orderable = False  # sort links come from header_links (keyset-aware)
        attrs = {"class": "ratings"}
        empty_text = _("No player matches these filters.")


@dataclass(frozen=True)
class ListColumn:
    name: str
    header: object  # the declared verbose name: translated when the page renders
    td_class: str


@lru_cache
def list_columns(shows_rd: bool, shows_grade: bool) -> tuple[ListColumn, ...]:
    """The columns of a list under a system's flags, in display order: read from
    RatingListTable once per layout (django-tables2 deep-copies every column per instance)."""
    exclude = [name for name, shown in (("rd", shows_rd), ("grade", shows_grade)) if not shown]
    table = RatingListTable([], exclude=exclude)
    return tuple(
        ListColumn(
            c.name,
            RatingListTable.base_columns[c.name].verbose_name,
            c.attrs.get("td", {}).get("class", ""),
        )
        for c in table.columns
    )


@lru_cache
def header_labels(
    shows_rd: bool, shows_grade: bool, language: str, generation: int
) -> tuple[tuple[str, str], ...]:
    """(column, its header escaped) of a layout in `language` (the active one), translated once
    per process rather than on every page; `generation`: settings_generation()."""
    return tuple((c.name, _escape(str(c.header))) for c in list_columns(shows_rd, shows_grade))


class ListTable:
    """One page of a rating list as a table: the page's rows (already fetched by keyset, see
    ratings.selectors.list_page) under the columns of the federation's system."""

    def __init__(self, rows: list[dict], *, federation_code: str, system):
        """``system``: the federation's ``ratings.systems.System`` (which columns it has)."""
        self.rows = rows
        self.layout = (system.shows_rd, system.shows_grade)
        self.columns = list_columns(*self.layout)
        self.federation_code = federation_code
        self.empty_text = RatingListTable._meta.empty_text
        self.header_links: list[tuple] = []

    def html(self) -> SafeString:
        """The whole <table>: header from header_links (sort links, aria-sort), body_html rows.

        Built in Python rather than through django-tables2's template: this is the hot path of
        the busiest page (see tests/benchmarks/bench_site.py).
        """
        head = []
        labels = dict(header_labels(*self.layout, get_language(), settings_generation()))
        for column, url, state in self.header_links:
            aria = f' aria-sort="{state}"' if state else ""
            arrow = {"ascending": " ▲", "descending": " ▼"}.get(state, "")
            arrow = f' <span aria-hidden="true">{arrow.strip()}</span>' if arrow else ""
            label = labels[column.name]
            inner = f'<a href="{_escape(url)}">{label}{arrow}</a>' if url else label
            num = " num" if column.name in NUMERIC_COLUMNS else ""
            head.append(f'<th scope="col" class="col-{column.name}{num}"{aria}>{inner}</th>')
        body = self.body_html() or format_html(
            '<tr><td colspan="{}">{}</td></tr>', len(self.header_links), self.empty_text
        )
        return mark_safe(
            '<div class="table-container"><table class="ratings"><thead><tr>'
            + "".join(head)
            + "</tr></thead><tbody>"
            + body
            + "</tbody></table></div>"
        )

    def body_html(self) -> SafeString:
        """The <tr> rows of the page, built in Python.

        Without django-tables2's per-cell machinery (bound rows, accessor resolution, signature
        inspection), which cost ~20 ms per 50-row page in the site benchmark; each column's cell,
        its <td> included, is one function chosen once per table, and a row is one join of them
        (tests/site/test_list_table.py compares the rows with a cell-by-cell reference on
        generated rows).
        """
        federation_code = self.federation_code
        provisional = format_html(' <abbr title="{}">P</abbr>', _("provisional"))
        half = format_html(' <abbr title="{}">½</abbr>', _("half-rating"))
        separator = get_format("DECIMAL_SEPARATOR")

        def cell(column: ListColumn):
            # Every cell names its column: the stylesheet keeps rank, name and rating in view.
            td = f'<td class="{f"col-{column.name} {column.td_class}".strip()}">'
            key = column.name
            if key == "name":
                return lambda row: (
                    f'{td}<a href="{escape_text(reverse("ratings:player", args=[federation_code, row["fid"]]))}">'
                    f"{escape_text(row['name'])}</a></td>"
                )
            if key == "rating":
                return lambda row: (
                    f"{td}{row['published_rating']}"
                    f"{provisional if row['provisional'] else (half if row['half_rating'] else '')}"
                    "</td>"
                )
            if key == "rd":
                return lambda row: (
                    f"{td}—</td>"
                    if row["published_rd"] is None
                    else f"{td}{row['published_rd']}</td>"
                )
            if key == "change":
                return lambda row: (
                    f"{td}{change_cell(row['published_change'], row['change'], separator)}</td>"
                )
            empty = f"{td}—</td>"
            return lambda row: (
                empty if row[key] in (None, "") else f"{td}{escape_text(row[key])}</td>"
            )

        cells = [cell(c) for c in self.columns]
        return mark_safe(
            "\n".join(
                "<tr>" + "".join([each(row) for each in cells]) + "</tr>" for row in self.rows
            )
        )

    def build_header_links(self, path: str, filters: dict[str, str], sort: str) -> None:
        """(column, url, aria-sort) per visible column: clicking sorts, clicking again reverses."""
        links = []
        for column in self.columns:
            default = SORT_OF_COLUMN.get(column.name)
            if default is None:
                links.append((column, None, None))
                continue
            state = sort_state(sort, column.name)
            if state is None:
                target = default
            else:
                target = f"-{column.name}" if state == "ascending" else column.name
            query = urlencode({**filters, "sort": target})
            links.append((column, f"{path}?{query}", state))
        self.header_links = links


def escape_text(value) -> str:
    """html.escape(str(value)), without its five replacements where there is nothing to
    escape (most names, every number): most of a list page's cells."""
    if type(value) is int:
        return str(value)
    text = str(value)
    if "&" in text or "<" in text or ">" in text or '"' in text or "'" in text:
        return _escape(text)
    return text


def change_cell(
    published: int | None, unrounded: float | None, separator: str | None = None
) -> str:
    """The published change, with the unrounded one as its tooltip (`separator`: the reader's
    decimal separator, when the caller has it already)."""
    if published is None:
        return signed(None)
    separator = separator or get_format("DECIMAL_SEPARATOR")
    exact = signed_unrounded(unrounded).replace(".", separator)
    return f'<span title="{exact}">{signed(published)}</span>'


def sort_state(sort: str, column: str) -> str | None:
    """aria-sort of a column under a sort key ("x" ascending on x, "-x" descending).

    Rank and rating are one order seen from two sides: rank ascending is rating descending.
    """
    base, descending = sort.lstrip("-"), sort.startswith("-")
    if column in ("rank", "rating") and base in ("rank", "rating"):
        rank_descending = descending if base == "rank" else not descending
        column_descending = rank_descending if column == "rank" else not rank_descending
        return "descending" if column_descending else "ascending"
    if base == column:
        return "descending" if descending else "ascending"
    return None
