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
from django.db.models import QuerySet

from ratings.models import RatingEntry
from ratings.selectors.common import (
    ENTRY_FIELDS,
    KEYSET_SORTS,
    MAX_OFFSET_ROWS,
    PAGE_SIZE,
    SORTS,
    flat_row,
)
from ratings.selectors.errors import NotFound
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
        raise NotFound("page too deep for this sort: sort by rank or narrow the filter")
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
            raise NotFound("no such page")
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


def _keyset_rows(rating_list_id: int, bound, cursor, ascending: bool, size: int) -> list[dict]:
    """size + 1 flat rows of the list's listed entries in rank order (descending unless
    `ascending`), beyond the rank `cursor` when `bound` ("<" or ">") is given: the
    (rating_list, rank) index makes page 2,000 cost what page 1 costs."""
    entries = RatingEntry.objects.filter(rating_list_id=rating_list_id, listed=True)
    if bound is not None:
        entries = entries.filter(**{"rank__gt" if bound == ">" else "rank__lt": cursor})
    ordered = entries.order_by("rank" if ascending else "-rank").values(*ENTRY_FIELDS)
    return [flat_row(values) for values in ordered[: size + 1]]


def _rows_by_id(ids: list[int]) -> list[dict]:
    """The flat rows of the entries `ids`, in that order (an id not found is left out)."""
    if not ids:
        return []
    found = {
        values["id"]: values
        for values in RatingEntry.objects.filter(id__in=ids).values(*ENTRY_FIELDS)
    }
    return [flat_row(found[i]) for i in ids if i in found]


def export_rows(base: QuerySet[RatingEntry], sort: str) -> Iterable[dict]:
    """Every row of the filtered list in display order, streamed in chunks (exports)."""
    return (flat_row(r) for r in ordered_rows(base, sort).iterator(chunk_size=2000))
