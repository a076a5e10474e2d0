"""The rating-list table's column headers: their names and sort links.

The table itself is a template (templates/ratings/_list_table.html, the one place that orders the
columns). The rows are one page already fetched by keyset (ratings.selectors.lists.list_page), so
the table never sorts or paginates itself; each header links to its sort from the current query
string (filters kept, cursors dropped).
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import quote, urlencode

from django.urls import reverse
from django.utils.functional import Promise
from django.utils.http import RFC3986_SUBDELIMS
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
# Stands for a table's varying URL argument: digits, so that int and str converters accept it.
_PLACEHOLDER = "9081726354"
_SAFE = RFC3986_SUBDELIMS + "~:@"  # what reverse() leaves unquoted, "/" apart (no id has one)


class RowUrls:
    """One table's row links: reverse() once, then each row's value put in the place of the
    URL's last argument, quoted as reverse() quotes it (tests/ratings/web/test_list_table.py
    checks the two agree).

    `{% url %}` in every row cost the list page 1.1 ms of its 10 ms (50 rows) and the player page
    about as much (20 history rows with two links each), measured in process on bench_site's
    data (25 µs a reverse() against 1 µs here); both pages are over the bench's ratio of 4 even
    without it.
    """

    def __init__(self, view_name: str, *fixed_args):
        url = reverse(view_name, args=[*fixed_args, _PLACEHOLDER])
        self.head, _, self.tail = url.rpartition(_PLACEHOLDER)

    def __call__(self, value) -> str:
        return f"{self.head}{quote(str(value), safe=_SAFE)}{self.tail}"


def with_player_urls(rows: list[dict], federation_code: str) -> list[dict]:
    """The list rows, each with "url": its player's page."""
    player_url = RowUrls("ratings:player", federation_code)
    for row in rows:
        row["url"] = player_url(row["fid"])
    return rows


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
