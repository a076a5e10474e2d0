"""Public read selectors: what the site shows, from published lists and rated events only.

Every function runs a small, fixed number of queries whatever the size of a list or a player's
history (the view tests pin the counts). A list page in rank order is fetched by keyset on the
rank stored at publication (`rank > after`), so page 2,000 costs what page 1 costs and no COUNT
is needed: the list's `entry_count` is stored. A filtered or otherwise sorted page reads the
ordered entry ids once per (list, filters, sort) and keeps them in the cache: a published list
never changes, so facts computed from it (orders, country ranks, diffs, the period selector under
the newest list id) are cached without expiry. Without a cache key, other sorts fall back to a
bounded OFFSET (MAX_OFFSET_ROWS).
"""

from __future__ import annotations

from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from django.core.cache import cache
from django.db import connection
from django.db.models import QuerySet
from django.http import Http404

from federation.models import Player
from federation.prepared import (
    binary_results,
    server_binding_cursor,
)
from ratings.models import (
    RatingEntry,
)
from ratings.selectors.common import (
    ENTRY_FIELDS,
    KEYSET_SORTS,
    MAX_OFFSET_ROWS,
    PAGE_SIZE,
    SORTS,
    _flat_row,
    flat_row,
)
from ratings.web.page_cache import IMMUTABLE_SECONDS

# List pages


@dataclass(frozen=True)
class ListPage:
    rows: list[dict]
    sort: str
    has_next: bool
    has_previous: bool
    next_after: int | None  # keyset cursors (rank sorts)
    previous_before: int | None
    page: int | None  # OFFSET sorts
    first_index: int  # 1-based position of the first row in the filtered, sorted list
    total: int | None = None  # rows matching the filters, when known without a COUNT


def ordered_rows(qs: QuerySet[RatingEntry], sort: str) -> QuerySet:
    return qs.order_by(*SORTS[sort]).values(*ENTRY_FIELDS)


def list_page(
    entries: Callable[[], QuerySet[RatingEntry]],
    *,
    rating_list_id: int,
    sort: str = "rank",
    after: int | None = None,
    before: int | None = None,
    page: int = 1,
    size: int = PAGE_SIZE,
    order_key: str | None = None,
) -> ListPage:
    """One page of the filtered entries `entries()` (ratings.web.filters; called only when the
    page needs the queryset: building it costs more than the keyset page's whole query).

    Unfiltered rank (= rating) order: keyset on the (rating_list, rank) index of the list
    `rating_list_id` (whose listed entries `entries()` then are), one fixed query. With
    `order_key` (a cache key naming the published list and the filters), the filtered, sorted
    order of entry ids is computed once and cached (a published list never changes), and every
    page, however deep and however sorted, is one primary-key query.
    """
    if order_key is not None:
        return _cached_page(
            entries, sort, order_key, after=after, before=before, page=page, size=size
        )
    if sort in KEYSET_SORTS:
        return _keyset_page(rating_list_id, sort, after=after, before=before, size=size)
    offset = (page - 1) * size
    if offset > MAX_OFFSET_ROWS:
        raise Http404("page too deep for this sort: sort by rank or narrow the filter")
    rows = [flat_row(r) for r in ordered_rows(entries(), sort)[offset : offset + size + 1]]
    has_next = len(rows) > size
    return ListPage(
        rows=rows[:size],
        sort=sort,
        has_next=has_next,
        has_previous=page > 1,
        next_after=None,
        previous_before=None,
        page=page,
        first_index=offset + 1,
    )


def _order_of(
    entries: Callable[[], QuerySet[RatingEntry]], sort: str, order_key: str
) -> tuple[array, array]:
    """(entry ids, ranks), both in display order, cached for a day (the list never changes);
    the filtered queryset is built only when the order is not cached yet.

    Stored as packed 32-bit arrays (64-bit once ids outgrow them): 800 kB for a whole
    100,000-player list in a new order, a few kB for a typical filter.
    """
    key = f"ratings:order:{order_key}:{sort}"
    cached = cache.get(key)
    if cached is None:
        rows = list(entries().order_by(*SORTS[sort]).values_list("id", "rank"))
        code = "I" if not rows or max(r[0] for r in rows) < 2**32 else "Q"
        ids = array(code, (r[0] for r in rows))
        ranks = array("I", (r[1] or 0 for r in rows))
        cached = (code, ids.tobytes(), ranks.tobytes())
        cache.set(key, cached, timeout=IMMUTABLE_SECONDS)
    code, id_bytes, rank_bytes = cached
    ids, ranks = array(code), array("I")
    ids.frombytes(id_bytes)
    ranks.frombytes(rank_bytes)
    return ids, ranks


def _cached_page(entries, sort, order_key, *, after, before, page, size) -> ListPage:
    ids, ranks = _order_of(entries, sort, order_key)
    n = len(ids)
    keyset = sort in KEYSET_SORTS
    if keyset:
        ascending = SORTS[sort] == ("rank",)
        by_rank = ranks if ascending else array("I", reversed(ranks))
        if after is not None:
            start = bisect_right(by_rank, after) if ascending else n - bisect_left(by_rank, after)
        elif before is not None:
            end = bisect_left(by_rank, before) if ascending else n - bisect_right(by_rank, before)
            start = max(0, end - size)
        else:
            start = 0
    else:
        start = (page - 1) * size
        if start and start >= n:
            raise Http404("no such page")
    rows = _rows_by_id(ids[start : start + size].tolist())
    return ListPage(
        rows=rows,
        sort=sort,
        has_next=start + size < n,
        has_previous=start > 0 and n > 0,
        next_after=rows[-1]["rank"] if keyset and rows else None,
        previous_before=rows[0]["rank"] if keyset and rows else None,
        page=None if keyset else page,
        first_index=start + 1,
        total=n,
    )


def _keyset_page(rating_list_id: int, sort, *, after, before, size) -> ListPage:
    ascending = SORTS[sort] == ("rank",)
    # "after"/"before" are ranks in display order: after = the last row shown, before = the first.
    if before is not None:
        # Walk backwards from the first row shown, then restore display order.
        rows = _keyset_rows(rating_list_id, "<" if ascending else ">", before, not ascending, size)
        has_previous = len(rows) > size
        rows = rows[:size][::-1]
        has_next = True
    else:
        bound = None if after is None else (">" if ascending else "<")
        rows = _keyset_rows(rating_list_id, bound, after, ascending, size)
        has_next = len(rows) > size
        rows = rows[:size]
        has_previous = after is not None
    return ListPage(
        rows=rows,
        sort=sort,
        has_next=has_next and bool(rows),
        has_previous=has_previous and bool(rows),
        next_after=rows[-1]["rank"] if rows else None,
        previous_before=rows[0]["rank"] if rows else None,
        page=None,
        first_index=0,
    )


def _column(field: str) -> str:
    if field.startswith("player__"):
        return "p." + Player._meta.get_field(field.removeprefix("player__")).column
    return "e." + RatingEntry._meta.get_field(field).column


# The unfiltered page by rank, the list pages' hot path, as one fixed statement: the ORM spends
# more on building this query than the database on running it. The rows are ENTRY_FIELDS, as
# ordered_rows gives them (tests/site/test_list_paging.py compares the two). The page's entries
# are chosen first and joined to their players after: joined inside the LIMIT, PostgreSQL puts a
# cache (Memoize) in front of the player lookups that never hits, one player per entry.
# The LIMIT is written into the statement, not sent as a value: PostgreSQL plans a prepared
# statement once (its generic plan) only when that plan is as cheap as the ones it plans per
# value, and a LIMIT it cannot see makes the generic plan join every player (a hash join costed
# at 10,000 rows), so the page was planned again on every request. A page size is a bounded
# integer (at most 200 on the pages, 500 in the API), so each is its own statement.
_SELECTED = ", ".join(_column(f) for f in ENTRY_FIELDS)  # each fixed statement's columns
_ENTRY_COLUMNS = [_column(f) for f in ENTRY_FIELDS if not f.startswith("player__")]
_KEYSET_SQL = (
    f"SELECT {_SELECTED} "
    f"FROM (SELECT {', '.join(_ENTRY_COLUMNS)}, e.player_id "
    f"FROM {RatingEntry._meta.db_table} e "
    "WHERE e.rating_list_id = %s AND e.listed {bound} ORDER BY e.rank {direction} LIMIT {limit}) e "
    f"JOIN {Player._meta.db_table} p ON p.id = e.player_id ORDER BY e.rank {{direction}}"
)
# A page of a filtered list's cached order: its entries by id, as one fixed statement too.
_BY_ID_SQL = (
    f"SELECT {_SELECTED} "
    f"FROM {RatingEntry._meta.db_table} e JOIN {Player._meta.db_table} p ON p.id = e.player_id "
    "WHERE e.id IN ({ids})"
)
_BOOLEAN_FLAGS = ("provisional", "half_rating", "active")  # SQLite gives 0/1


def _keyset_rows(rating_list_id: int, bound, cursor, ascending: bool, size: int) -> list[dict]:
    """size + 1 flat rows of the list's listed entries in rank order (descending unless
    `ascending`), beyond the rank `cursor` when `bound` ("<" or ">") is given."""
    sql = _KEYSET_SQL.format(
        bound=f"AND e.rank {bound} %s" if bound else "",
        direction="ASC" if ascending else "DESC",
        limit=int(size) + 1,  # an integer, written into the statement (see _KEYSET_SQL)
    )
    params = [rating_list_id, *([cursor] if bound else [])]
    return _flat_rows(_entry_rows(sql, params))


def _rows_by_id(ids: list[int]) -> list[dict]:
    """The flat rows of the entries `ids`, in that order (an id not found is left out)."""
    if not ids:
        return []
    found = {
        row[0]: row for row in _entry_rows(_BY_ID_SQL.format(ids=", ".join(["%s"] * len(ids))), ids)
    }
    return _flat_rows([found[i] for i in ids if i in found])


def _entry_rows(sql: str, params: list) -> list[tuple]:
    """The rows of a statement of ENTRY_FIELDS' columns."""
    with server_binding_cursor(connection) as db:  # prepared after a few pages (PostgreSQL)
        binary_results(db)  # numbers, text and booleans: ENTRY_FIELDS hold nothing else
        db.execute(sql, params)
        return db.fetchall()


def _flat_rows(found: list[tuple]) -> list[dict]:
    rows = [_flat_row(*values) for values in found]
    for row in rows:
        for name in _BOOLEAN_FLAGS:
            row[name] = bool(row[name])
    return rows


def export_rows(base: QuerySet[RatingEntry], sort: str) -> Iterable[dict]:
    """Every row of the filtered list in display order, streamed in chunks (exports)."""
    return (flat_row(r) for r in ordered_rows(base, sort).iterator(chunk_size=2000))
