"""The rating-list table's column headers: their names and sort links.

The table itself is a template (templates/ratings/_list_table.html, the one place that orders the
columns). The rows are one page already fetched by keyset (ratings.selectors.lists.list_page), so
the table never sorts or paginates itself; each header links to its sort from the current query
string (filters kept, cursors dropped).
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlencode

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

# Column -> (header, the sort key a first click chooses: descending first for numbers).
COLUMNS: dict[str, tuple[Promise, str]] = {
    "rank": (_("Rank"), "rank"),
    "name": (_("Name"), "name"),
    "rating": (_("Rating"), "-rating"),
    "rd": (_("RD"), "rd"),
    "change": (_("Change"), "-change"),
    "fid": (_("Id"), "fid"),
    "country": (_("Country"), "country"),
    "club": (_("Club"), "club"),
    "grade": (_("Title/grade"), "grade"),
    "games": (_("Games"), "-games"),
}
NUMERIC_COLUMNS = {"rank", "rating", "rd", "games", "change"}


@dataclass(frozen=True)
class SortHeader:
    name: str
    label: Promise  # translated when the page renders
    url: str
    state: str | None  # aria-sort: "ascending", "descending" or None (not the current sort)
    numeric: bool


def sort_headers(path: str, filters: dict[str, str], sort: str) -> dict[str, SortHeader]:
    """Each column's header: clicking sorts, clicking again reverses."""
    headers = {}
    for name, (label, first) in COLUMNS.items():
        state = sort_state(sort, name)
        if state is None:
            target = first
        elif state == "ascending":
            target = f"-{name}"
        else:
            target = name
        url = f"{path}?{urlencode({**filters, 'sort': target})}"
        headers[name] = SortHeader(name, label, url, state, name in NUMERIC_COLUMNS)
    return headers


def column_count(system) -> int:
    """The columns a ``ratings.systems.System``'s list shows (RD and grade where it has them)."""
    return len(COLUMNS) - (not system.shows_rd) - (not system.shows_grade)


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
