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

import math
from array import array
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from urllib.parse import quote

from django.core.cache import cache
from django.db import connection
from django.db.models import Exists, F, OuterRef, Q, QuerySet, Subquery
from django.http import Http404
from django.utils.formats import date_format
from django.utils.translation import get_language

from federation.models import Federation, Player
from federation.player_search import player_name_q
from federation.prepared import (
    PreparedValues,
    binary_results,
    marker_int,
    marker_text,
    rows_together,
    server_binding_cursor,
)
from ratings import page_cache, systems
from ratings.crosstable import POINTS
from ratings.models import (
    EventRating,
    ListStatus,
    LiveRating,
    RatedEvent,
    RatingEntry,
    RatingList,
    RatingPeriod,
    RatingRun,
    SolvingNorm,
)
from ratings.numbers import exact_sum, published_change
from ratings.page_cache import IMMUTABLE_SECONDS
from tournaments.models import Event, Game, Placement, Problem, SolverScore, TeamMember

PUBLIC_LIST_STATUSES = (ListStatus.PUBLISHED, ListStatus.SUPERSEDED)
PUBLIC_EVENT_STATUSES = ("accepted", "rated")  # drafts, submitted and rejected events are 404
PAGE_SIZE = 50
MAX_PAGE_SIZE = 200
# The uncached fallback for other sorts pages by OFFSET; deeper than this, narrow the filter.
MAX_OFFSET_ROWS = 20_000
PLAYER_GAMES_SHOWN = 100

# Sort keys of the list page -> ORDER BY; rating order is rank order (ranks were assigned by
# rating when the list was made), so both are served by the (rating_list, rank) index.
SORTS: dict[str, tuple[str, ...]] = {
    "rank": ("rank",),
    "-rank": ("-rank",),
    "rating": ("-rank",),
    "-rating": ("rank",),
    "fid": ("player__federation_player_id", "rank"),
    "-fid": ("-player__federation_player_id", "rank"),
    "name": ("player__surname", "player__given_name", "rank"),
    "-name": ("-player__surname", "-player__given_name", "rank"),
    "country": ("player__country", "rank"),
    "-country": ("-player__country", "rank"),
    "club": ("player__club", "rank"),
    "-club": ("-player__club", "rank"),
    "grade": ("player__grade", "rank"),
    "-grade": ("-player__grade", "rank"),
    "rd": ("published_rd", "rank"),
    "-rd": ("-published_rd", "rank"),
    "games": ("games", "rank"),
    "-games": ("-games", "rank"),
    "change": (F("published_change").asc(nulls_first=True), "rank"),
    "-change": (F("published_change").desc(nulls_last=True), "rank"),
}
KEYSET_SORTS = {"rank", "-rank", "rating", "-rating"}

ENTRY_FIELDS = (
    "id",
    "rank",
    "rating",
    "rd",
    "published_rating",
    "published_rd",
    "games",
    "total_games",
    "change",
    "published_change",
    "provisional",
    "half_rating",
    "player__id",
    "player__federation_player_id",
    "player__surname",
    "player__given_name",
    "player__country",
    "player__club",
    "player__grade",
    "player__active",
)


def flat_row(values: dict) -> dict:
    """An entry as the tables, exports and API show it (flat keys, the name joined), from the
    ORM's values(*ENTRY_FIELDS) (plus "before" and "delta" where the diff has them)."""
    row = _flat_row(*[values[field] for field in ENTRY_FIELDS])
    for extra in ("before", "delta"):
        if extra in values:
            row[extra] = values[extra]
    return row


def _flat_row(
    entry_id, rank, rating, rd, published_rating, published_rd, games, total_games, change,
    published_change, provisional, half_rating, player_id, fid, surname, given, country, club,
    grade, active,
) -> dict:  # fmt: skip
    """The flat row of ENTRY_FIELDS' values, in that order (the keyset page passes a row of its
    own SQL as it comes)."""
    return {
        "rank": rank,
        "fid": fid,
        "name": f"{surname}, {given}" if given else surname,
        "surname": surname,
        "given_name": given,
        "country": country,
        "club": club,
        "grade": grade,
        "active": active,
        "rating": rating,
        "published_rating": published_rating,
        "rd": rd,
        "published_rd": published_rd,
        "games": games,
        "total_games": total_games,
        "change": change,
        "published_change": published_change,
        "provisional": provisional,
        "half_rating": half_rating,
        "player_id": player_id,
    }


# ---------------------------------------------------------------------------------------------
# Federations and lists


@dataclass(frozen=True)
class FederationSummary:
    federation: Federation
    latest_period: str | None
    latest_valid_from: date | None
    latest_published_at: object | None
    latest_entries: int | None
    next_due: date | None


def public_lists(federation: Federation | None = None) -> QuerySet[RatingList]:
    qs = RatingList.objects.filter(status=ListStatus.PUBLISHED)
    if federation is not None:
        qs = qs.filter(federation=federation)
    return qs


def federation_summaries(today: date) -> list[FederationSummary]:
    """Home page: one query (the latest list and the next due period are subqueries)."""
    latest = public_lists().filter(federation=OuterRef("pk")).order_by("-period__valid_from", "-id")
    next_period = (
        RatingPeriod.objects.filter(federation=OuterRef("pk"), list_published_on__gte=today)
        .exclude(lists__status=ListStatus.PUBLISHED)
        .order_by("list_published_on")
    )
    rows = Federation.objects.annotate(
        latest_period=Subquery(latest.values("period__code")[:1]),
        latest_valid_from=Subquery(latest.values("period__valid_from")[:1]),
        latest_published_at=Subquery(latest.values("published_at")[:1]),
        latest_entries=Subquery(latest.values("entry_count")[:1]),
        next_due=Subquery(next_period.values("list_published_on")[:1]),
    ).order_by("code")
    return [
        FederationSummary(
            federation=f,
            latest_period=f.latest_period,
            latest_valid_from=f.latest_valid_from,
            latest_published_at=f.latest_published_at,
            latest_entries=f.latest_entries,
            next_due=next_list_due(
                f.system, today, f.latest_valid_from, f.next_due, _calendar_of(f)
            ),
        )
        for f in rows
    ]


def _calendar_of(federation: Federation):
    from ratings import periods

    try:
        return periods.CalendarParams(**(federation.params or {}).get("calendar", {}))
    except TypeError:  # settings the calendar does not know: the defaults
        return periods.DEFAULT_PARAMS


def next_list_due(
    system: str,
    today: date,
    latest_valid_from: date | None,
    stored: date | None,
    calendar=None,
) -> date | None:
    """The publication date of the next list not yet published, from the federation's calendar
    (ratings.periods), or a stored period's date when that is earlier."""
    from ratings import periods

    calendar = calendar or periods.DEFAULT_PARAMS
    try:
        current = periods.period_for(system, today, params=calendar)
        candidates = [
            periods.previous_period(current, params=calendar),
            current,
            periods.next_period(current, params=calendar),
        ]
    except Exception:  # an unknown system: only what is stored
        return stored
    due = [
        p.list_published_on
        for p in candidates
        if p.list_published_on >= today
        and (latest_valid_from is None or p.valid_from > latest_valid_from)
    ]
    found = min(due) if due else None
    if stored is not None and (found is None or stored < found):
        return stored
    return found


def federation_or_404(code: str) -> Federation:
    federation = Federation.objects.filter(code=code).first()
    if federation is None:
        raise Http404("no such federation")
    return federation


def latest_list(federation: Federation) -> RatingList | None:
    return (
        public_lists(federation)
        .select_related("period")
        .order_by("-period__valid_from", "-id")
        .first()
    )


# How long a published list's row (with its federation and period) is reused across pages: a
# publication changes the generation of every key at once; a renamed federation shows within this.
LIST_ROW_SECONDS = 300


def list_or_404(federation_code: str, period_code: str) -> RatingList:
    """The published list of a federation's period, with its federation and period: read once
    per publication generation (ratings.page_cache) and shared by every page of the list."""
    if len(period_code) > RatingPeriod._meta.get_field("code").max_length:
        raise Http404("no published list for this period")  # no such code can be stored
    # quoted: a cache key holds no spaces or control characters whatever the URL held
    period_key = quote(period_code, safe="")
    key = f"ratings:list-row:{page_cache.generation()}:{federation_code}:{period_key}"
    found = cache.get(key)
    if found is None:
        found = _published_list(federation_code, period_code)  # a 404 is not stored
        cache.set(key, found, timeout=LIST_ROW_SECONDS)
    return found


def _published_list(federation_code: str, period_code: str) -> RatingList:
    newest = (
        RatingList.objects.filter(federation=OuterRef("federation"), status=ListStatus.PUBLISHED)
        .order_by("-id")
        .values("id")[:1]
    )
    found = (
        public_lists()
        .filter(federation__code=federation_code, period__code=period_code)
        .select_related("federation", "period")
        .annotate(newest_list_id=Subquery(newest))
        .first()
    )
    if found is None:
        raise Http404("no published list for this period")
    return found


def previous_list(rating_list: RatingList) -> RatingList | None:
    """The published (or since superseded) list this one was compared with, with its period."""
    if rating_list.previous_id is None:
        return None
    return (
        RatingList.objects.filter(pk=rating_list.previous_id, status__in=PUBLIC_LIST_STATUSES)
        .select_related("period")
        .first()
    )


def period_choices(
    federation: Federation, newest_list_id: int | None = None
) -> list[tuple[str, date]]:
    """The period selector: every published list of the federation, newest first.

    With `newest_list_id` (the highest published list id, read with the list: see list_or_404)
    the choices are cached under it: publishing any list, a correction too, makes a new id.
    """
    key = None
    if newest_list_id is not None:
        key = f"ratings:periods:{federation.pk}:{newest_list_id}"
        found = cache.get(key)
        if found is not None:
            return found
    choices = list(
        public_lists(federation)
        .order_by("-period__valid_from", "-id")
        .values_list("period__code", "period__valid_from")
    )
    if key is not None:
        cache.set(key, choices, timeout=IMMUTABLE_SECONDS)
    return choices


def period_options(federation: Federation, newest_list_id: int | None) -> list[tuple[str, str]]:
    """(code, "code (valid from)") of the period selector, the date in the reader's format:
    cached with the choices, per language (20 dates formatted on every page cost 1 ms)."""
    key = f"ratings:period-options:{federation.pk}:{newest_list_id}:{get_language()}"
    found = cache.get(key) if newest_list_id is not None else None
    if found is None:
        found = [
            (code, f"{code} ({date_format(valid_from, 'SHORT_DATE_FORMAT')})")
            for code, valid_from in period_choices(federation, newest_list_id)
        ]
        if newest_list_id is not None:
            cache.set(key, found, timeout=IMMUTABLE_SECONDS)
    return found


# ---------------------------------------------------------------------------------------------
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
    """One page of the filtered entries `entries()` (ratings.filters; called only when the
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


# ---------------------------------------------------------------------------------------------
# List diff


@dataclass(frozen=True)
class ListDiff:
    new: list[dict]
    dropped: list[dict]
    gains: list[dict]
    losses: list[dict]
    new_count: int
    dropped_count: int


DIFF_SHOWN = 25


def list_diff(current: RatingList, previous: RatingList, limit: int = DIFF_SHOWN) -> ListDiff:
    """New and dropped players and the largest moves between two published lists.

    Six queries the first time; both lists are immutable, so the result is cached for a day.
    """
    key = f"ratings:diff:{current.pk}:{previous.pk}:{limit}"
    found = cache.get(key)
    if found is None:
        found = _list_diff(current, previous, limit)
        cache.set(key, found, timeout=IMMUTABLE_SECONDS)
    return found


def _list_diff(current: RatingList, previous: RatingList, limit: int) -> ListDiff:
    in_previous = RatingEntry.objects.filter(
        rating_list=previous, listed=True, player_id=OuterRef("player_id")
    )
    in_current = RatingEntry.objects.filter(
        rating_list=current, listed=True, player_id=OuterRef("player_id")
    )
    current_rows = RatingEntry.objects.filter(rating_list=current, listed=True)
    previous_rows = RatingEntry.objects.filter(rating_list=previous, listed=True)
    new_q = current_rows.exclude(Exists(in_previous))
    dropped_q = previous_rows.exclude(Exists(in_current))
    moved = (
        current_rows.annotate(before=Subquery(in_previous.values("published_rating")[:1]))
        .filter(before__isnull=False)
        .annotate(delta=F("published_rating") - F("before"))
    )
    fields = (*ENTRY_FIELDS, "before", "delta")
    return ListDiff(
        new=[flat_row(r) for r in new_q.order_by("rank").values(*ENTRY_FIELDS)[:limit]],
        dropped=[flat_row(r) for r in dropped_q.order_by("rank").values(*ENTRY_FIELDS)[:limit]],
        gains=[
            flat_row(r)
            for r in moved.filter(delta__gt=0).order_by("-delta", "rank").values(*fields)[:limit]
        ],
        losses=[
            flat_row(r)
            for r in moved.filter(delta__lt=0).order_by("delta", "rank").values(*fields)[:limit]
        ],
        new_count=new_q.count(),
        dropped_count=dropped_q.count(),
    )


# ---------------------------------------------------------------------------------------------
# Players


@dataclass(frozen=True)
class HistoryPoint:
    period: str
    valid_from: date
    rating: float
    published_rating: int
    rd: float | None
    published_rd: int | None
    rank: int | None
    games: int
    change: float | None  # unrounded
    published_change: int | None  # what readers see: the difference of published integers
    provisional: bool
    half_rating: bool
    listed: bool
    run_id: int | None = None
    total_games: int = 0
    rating_list_id: int | None = None


@dataclass(frozen=True)
class EventChange:
    """A player's rating change at one event, as every page shows it.

    `after − before` is the event's own change, except in two cases. A WFCC contest's own change
    is its ChOfRat (`own`): every contest of a quarter is rated from the list rating, so `after`
    is the running total. And when a run rated the event together with others from the same start
    (an ICCF or PlayChess period: the player's events of the run have one before and one after),
    the own change is the sum of the engine's per-game changes of this event where it reports
    them (PlayChess, established players); where it does not (ICCF, provisional PlayChess
    ratings), `shared` is set: the change shown is the period's, not this event's alone.
    """

    run_id: int
    event_code: str
    event_name: str
    event_end: date
    before: float | None
    after: float
    before_rd: float | None
    after_rd: float | None
    games: int
    score: float | None
    period: str
    own: float | None = None
    shared: bool = False
    place: int | None = None  # his place in the event (results file, or the WFCC engine's)

    @property
    def change_unrounded(self) -> float | None:
        if self.before is None:
            return None
        return self.own if self.own is not None else self.after - self.before

    @property
    def after_event(self) -> float:
        """The rating this event alone leads to (before + its own change)."""
        if self.own is None or self.before is None:
            return self.after
        return exact_sum(self.before, self.own)

    @property
    def change(self) -> int | None:
        """The difference of the published before and after: what the pages show."""
        return published_change(self.before, self.after_event)


# The EventRating columns an EventChange is built from, in its field order.
EVENT_CHANGE_FIELDS = (
    "run_id",
    "event__code",
    "event__name",
    "event__end",
    "before",
    "after",
    "before_rd",
    "after_rd",
    "games",
    "score",
    "run__period__code",
)


def _placed():
    return Placement.objects.filter(
        event_id=OuterRef("event_id"), player_id=OuterRef("player_id")
    ).values("place")[:1]


def _event_changes(rows: QuerySet[EventRating]) -> list[tuple[int, EventChange]]:
    """(player id, EventChange) per row: one query, `shared` read by a subquery."""
    together = EventRating.objects.filter(
        run_id=OuterRef("run_id"),
        player_id=OuterRef("player_id"),
        before=OuterRef("before"),
        after=OuterRef("after"),
    ).exclude(event_id=OuterRef("event_id"))  # another event: (run, player) fix the rest of the key
    found = rows.annotate(shared=Exists(together), file_place=Subquery(_placed())).values_list(
        "player_id", *EVENT_CHANGE_FIELDS, "details", "shared", "file_place"
    )
    return [(row[0], _change(row[1:-3], *row[-3:])) for row in found]


def _change(fields: tuple, details, together: bool, file_place) -> EventChange:
    """An EventChange from its EVENT_CHANGE_FIELDS, the runner's details, whether the run rated
    the event together with others from the same start, and the results file's place."""
    own = own_change(details, together)
    place = file_place if file_place is not None else (details or {}).get("place")
    return EventChange(
        *fields,
        own=own,
        shared=together and own is None,
        place=place if isinstance(place, int) else None,
    )


def _number(value) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def own_change(details: dict | None, together: bool) -> float | None:
    """An event's own change from what the runner stored with it (see EventChange)."""
    if not isinstance(details, dict):
        return None
    if _number(details.get("change")):  # WFCC: the contest's ChOfRat
        return float(details["change"])
    if not together:
        return None
    per_game = [
        g[3] if isinstance(g, list) and len(g) > 3 else None for g in details.get("games") or ()
    ]
    if per_game and all(_number(c) for c in per_game):
        return math.fsum(per_game)
    return None


@dataclass(frozen=True)
class PlayerProfile:
    player: Player
    current: HistoryPoint | None  # his point on the newest published list
    current_period: str | None
    country_rank: int | None
    history: list[HistoryPoint]
    events: list[EventChange]
    games: list[PlayerGame]
    half_ratings: list[float]  # a half-rated WFCC solver's half-ratings so far
    norms: list[NormGained]
    title_proposals: list[str]


@dataclass(frozen=True)
class PlayerGame:
    """One game from the player's side, as the player card shows it."""

    event_code: str
    event_name: str
    round: int
    opponent: Player | None  # None: a free round
    opponent_rating: float | None  # his rating the event was rated with (before it)
    colour: str  # "white" / "black"
    handicap: int  # stones Black received
    points: float | None  # 1, 0.5, 0 from the player's side; None if no result
    by_default: bool


@dataclass(frozen=True)
class NormGained:
    event_code: str
    event_name: str
    event_end: date
    title: str
    at_championship: bool


def published_run_or_404(federation_code: str, run_id: int) -> RatingRun:
    """A run whose list was published (superseded ones included: they were public once)."""
    run = (
        RatingRun.objects.filter(
            pk=run_id,
            federation__code=federation_code,
            rating_list__status__in=PUBLIC_LIST_STATUSES,
        )
        .select_related("federation", "period")
        .first()
    )
    if run is None:
        raise Http404("no published run with this id")
    return run


def _player_query(federation_code: str, player_id: str) -> QuerySet:
    return (
        Player.objects.filter(federation__code=federation_code, federation_player_id=player_id)
        .annotate(has_live_rating=Exists(LiveRating.objects.filter(player=OuterRef("pk"))))
        .order_by()  # one player at most (federation, id is unique): no sort to plan or run
        .values_list(
            *PLAYER_COLUMNS, *(f"federation__{f}" for f in FEDERATION_COLUMNS), "has_live_rating"
        )[:1]
    )


PLAYER_COLUMNS = tuple(f.attname for f in Player._meta.concrete_fields)
FEDERATION_COLUMNS = tuple(f.attname for f in Federation._meta.concrete_fields)
PLAYER_QUERY = PreparedValues(
    _player_query, federation_code=marker_text("federation"), player_id=marker_text("player")
)


def player_or_404(federation_code: str, player_id: str) -> Player:
    """The player with his federation, and `has_live_rating` (whether a live run moved him:
    most players' pages then skip that query). One prepared statement (federation.prepared)."""
    return _player_from(PLAYER_QUERY.rows(federation_code=federation_code, player_id=player_id))


def _player_from(found: list[tuple]) -> Player:
    """The Player of PLAYER_QUERY's row (Http404 when there is none)."""
    if not found:
        raise Http404("no such player")
    values = found[0]
    n = len(PLAYER_COLUMNS)
    player = Player.from_db("default", PLAYER_COLUMNS, values[:n])
    federation = Federation.from_db("default", FEDERATION_COLUMNS, values[n:-1])
    Player.federation.field.set_cached_value(player, federation)
    player.has_live_rating = bool(values[-1])
    return player


def _history_query(player_id: int | Subquery) -> QuerySet:
    return (
        RatingEntry.objects.filter(player_id=player_id, rating_list__status=ListStatus.PUBLISHED)
        .order_by("rating_list__period__valid_from", "rating_list_id")
        .values_list(
            "rating_list__period__code",
            "rating_list__period__valid_from",
            "rating",
            "published_rating",
            "rd",
            "published_rd",
            "rank",
            "games",
            "change",
            "published_change",
            "provisional",
            "half_rating",
            "listed",
            "rating_list__run_id",
            "total_games",
            "rating_list_id",
        )
    )


def _the_player(federation_code: str, player_id: str) -> Subquery:
    """The id of the federation's player with this id, inside a query (computed once by the
    database): the player page asks for his history, events and games with the player."""
    return Subquery(
        Player.objects.filter(federation__code=federation_code, federation_player_id=player_id)
        .order_by()
        .values("pk")[:1]
    )


def _history_by_code(federation_code: str, player_id: str) -> QuerySet:
    return _history_query(_the_player(federation_code, player_id))


_BY_CODE = {"federation_code": marker_text("federation"), "player_id": marker_text("player")}
HISTORY_QUERY = PreparedValues(_history_query, player_id=marker_int())
HISTORY_BY_CODE = PreparedValues(_history_by_code, **_BY_CODE)


def player_history(player: Player) -> list[HistoryPoint]:
    """One point per published list the player is on, oldest first: one query."""
    return _history_points(HISTORY_QUERY.rows(player_id=player.pk))


def _history_points(found: list[tuple]) -> list[HistoryPoint]:
    return [HistoryPoint(*row) for row in found]


def _events_query(player_id: int | Subquery) -> QuerySet:
    return (
        EventRating.objects.filter(
            player_id=player_id, run__rating_list__status=ListStatus.PUBLISHED
        )
        .order_by("-event__end", "-event_id")
        .annotate(file_place=Subquery(_placed()))
        .values_list(*EVENT_CHANGE_FIELDS, "details", "file_place")
    )


def _events_by_code(federation_code: str, player_id: str) -> QuerySet:
    return _events_query(_the_player(federation_code, player_id))


EVENTS_QUERY = PreparedValues(_events_query, player_id=marker_int())
EVENTS_BY_CODE = PreparedValues(_events_by_code, **_BY_CODE)


def player_events(player: Player) -> list[EventChange]:
    """Rating changes per event, from the runs whose lists are published: one query. All the
    rows are his, so which were rated together (the same run, before and after: _event_changes'
    subquery) is read from the rows themselves."""
    return _event_changes_of(EVENTS_QUERY.rows(player_id=player.pk))


def _event_changes_of(found: list[tuple]) -> list[EventChange]:
    run, before, after = (EVENT_CHANGE_FIELDS.index(f) for f in ("run_id", "before", "after"))
    # SQL's equality: a row without a rating before is rated together with none
    starts = Counter((r[run], r[before], r[after]) for r in found if r[before] is not None)
    return [_change(r[:-2], r[-2], starts[(r[run], r[before], r[after])] > 1, r[-1]) for r in found]


GAME_COLUMNS = ("event_id", "round", "result", "handicap", "event__code", "event__name")
SIDE_COLUMNS = ("id", "federation_player_id", "surname", "given_name")


def _games_query(player_id: int | Subquery, limit: int) -> QuerySet:
    return (
        Game.objects.filter(Q(white_id=player_id) | Q(black_id=player_id))
        .filter(event__status__in=PUBLIC_EVENT_STATUSES)
        .order_by("-event__end", "-event_id", "-round", "-id")
        .annotate(white_before=_rated_with("white"), black_before=_rated_with("black"))
        .values_list(
            *GAME_COLUMNS,
            *(f"white__{f}" for f in SIDE_COLUMNS),
            *(f"black__{f}" for f in SIDE_COLUMNS),
            "white_before",
            "black_before",
        )[:limit]
    )


def _rated_with(side: str) -> Subquery:
    """The rating the player of a game's side was rated with at its event: his `before` in the
    newest published run that rated him there (None if none did, or for a free round)."""
    return Subquery(
        EventRating.objects.filter(
            event_id=OuterRef("event_id"),
            player_id=OuterRef(f"{side}_id"),
            run__rating_list__status=ListStatus.PUBLISHED,
        )
        .order_by("-run_id")
        .values("before")[:1]
    )


def _shown_games_query(player_id: int) -> QuerySet:
    return _games_query(player_id, PLAYER_GAMES_SHOWN)


def _shown_games_by_code(federation_code: str, player_id: str) -> QuerySet:
    return _games_query(_the_player(federation_code, player_id), PLAYER_GAMES_SHOWN)


GAMES_QUERY = PreparedValues(_shown_games_query, player_id=marker_int())
GAMES_BY_CODE = PreparedValues(_shown_games_by_code, **_BY_CODE)


def _side(values: tuple) -> Player | None:
    """The player of one side of a game (the SIDE_COLUMNS only), None for a free round."""
    return None if values[0] is None else Player.from_db("default", SIDE_COLUMNS, values)


def player_games(player: Player, limit: int = PLAYER_GAMES_SHOWN) -> list[PlayerGame]:
    """His latest games from his side, each opponent with the rating he was rated with at that
    event (his published run's `before`): one query."""
    if limit == PLAYER_GAMES_SHOWN:
        games = GAMES_QUERY.rows(player_id=player.pk)
    else:
        games = list(_games_query(player.pk, limit))
    return _games_of(player, games)


def _games_of(player: Player, games: list[tuple]) -> list[PlayerGame]:
    """The games' rows (GAMES_QUERY's columns) from his side, with the opponents' ratings."""
    n, s = len(GAME_COLUMNS), len(SIDE_COLUMNS)
    out = []
    for game in games:
        round_, result, handicap, code, name = game[1:n]
        white, black = _side(game[n : n + s]), _side(game[n + s : n + 2 * s])
        white_before, black_before = game[n + 2 * s :]
        own_white = white is not None and white.pk == player.pk
        points = POINTS.get(result)
        out.append(
            PlayerGame(
                event_code=code,
                event_name=name,
                round=round_,
                opponent=black if own_white else white,
                opponent_rating=black_before if own_white else white_before,
                colour="white" if own_white else "black",
                handicap=handicap,
                points=None if points is None else points[0 if own_white else 1],
                by_default=result.endswith("ff"),
            )
        )
    return out


def player_norms(player: Player) -> list[NormGained]:
    rows = (
        SolvingNorm.objects.filter(player=player, run__rating_list__status=ListStatus.PUBLISHED)
        .order_by("-event__end", "title")
        .values_list("event__code", "event__name", "event__end", "title", "at_championship")
    )
    return [NormGained(*row) for row in rows]


def title_proposals(player: Player, norms: list[NormGained]) -> list[str]:
    """The titles his federation's published runs proposed for him (awarded by the WFCC)."""
    if not norms:
        return []
    reports = RatingRun.objects.filter(
        federation_id=player.federation_id, rating_list__status=ListStatus.PUBLISHED
    ).values_list("report", flat=True)
    return [
        f"{p['title']}: {p['reason']}"
        for report in reports
        for p in (report or {}).get("title_proposals", [])
        if p.get("player_id") == player.pk
    ]


def half_ratings_of(player: Player, current: HistoryPoint | None) -> list[float]:
    if current is None or not current.half_rating:
        return []
    state = (
        RatingEntry.objects.filter(player=player, rating_list_id=current.rating_list_id)
        .values_list("state", flat=True)
        .first()
    )
    return list((state or {}).get("half_ratings", []))


def country_rank(entry: RatingEntry | HistoryPoint, country: str) -> int | None:
    """Position among the listed players of the same country in the same list.

    A published list never changes, so the sorted ranks of every country of a list are read once
    (one query over the list) and kept in the cache, one key per country (a page reads only its
    player's country: a 100,000-player list's ranks of every country are 400 KB); a position is
    then a bisection, with no query.
    """
    if not country or entry.rank is None or not entry.listed:
        return None
    prefix = f"ratings:country-ranks:{entry.rating_list_id}:"
    found = cache.get(prefix + country)
    if found is None:
        by_country = _country_ranks(entry.rating_list_id)
        # The asked country is kept even when the list has none of it (his country changed since
        # the list): otherwise every page of his would read the whole list again.
        found = by_country.setdefault(country, b"")
        cache.set_many({prefix + c: r for c, r in by_country.items()}, timeout=IMMUTABLE_SECONDS)
    ranks = array("I")
    ranks.frombytes(found)
    return bisect_right(ranks, entry.rank)


def _country_ranks(rating_list_id: int) -> dict[str, bytes]:
    """Each country's listed ranks in the list, ascending, as array("I") bytes (one query)."""
    arrays: dict[str, array] = {}
    rows = (
        RatingEntry.objects.filter(rating_list_id=rating_list_id, listed=True, rank__isnull=False)
        .order_by("rank")
        .values_list("player__country", "rank")
    )
    for code, rank in rows.iterator(chunk_size=10_000):
        arrays.setdefault(code, array("I")).append(rank)
    return {code: ranks.tobytes() for code, ranks in arrays.items()}


def current_entry(player: Player) -> RatingEntry | None:
    """The player's entry on the newest published list he is on."""
    return (
        RatingEntry.objects.filter(player=player, rating_list__status=ListStatus.PUBLISHED)
        .select_related("rating_list__period")
        .order_by("-rating_list__period__valid_from", "-rating_list_id")
        .first()
    )


def search_players(federation: Federation | None, term: str, limit: int) -> list[Player]:
    """Players by id or name (federation.player_search: "Kaminska", "Kamińska, Adam" and
    "adam kaminska" find the same player), in one federation or in all."""
    found = Player.objects.filter(player_name_q(term))
    if federation is not None:
        found = found.filter(federation=federation)
    return list(
        found.select_related("federation").order_by("surname", "given_name", "federation_id", "id")[
            :limit
        ]
    )


def current_ratings(player_ids: list[int]) -> dict[int, int]:
    """Each player's published rating on the newest published list he is on: one query."""
    rows = (
        RatingEntry.objects.filter(
            player_id__in=player_ids, rating_list__status=ListStatus.PUBLISHED
        )
        .order_by("player_id", "rating_list__period__valid_from", "rating_list_id")
        .values_list("player_id", "published_rating")
    )
    return dict(rows)  # the newest list comes last and wins


def player_page(federation_code: str, player_id: str) -> PlayerProfile:
    """The player (Http404 if there is none) and his history, events and games: four queries
    in one round trip (federation.prepared.rows_together)."""
    values = {"federation_code": federation_code, "player_id": player_id}
    found, history_rows, event_rows, game_rows = rows_together(
        (PLAYER_QUERY, values),
        (HISTORY_BY_CODE, values),
        (EVENTS_BY_CODE, values),
        (GAMES_BY_CODE, values),
    )
    return _profile(_player_from(found), history_rows, event_rows, game_rows)


def _profile(player: Player, history_rows, event_rows, game_rows) -> PlayerProfile:
    history = _history_points(history_rows)
    current = history[-1] if history else None  # the newest published list he is on
    norms = player_norms(player) if systems.of(player.federation).earns_norms else []
    return PlayerProfile(
        player=player,
        current=current,
        current_period=current.period if current else None,
        country_rank=country_rank(current, player.country) if current else None,
        history=history,
        events=_event_changes_of(event_rows),
        games=_games_of(player, game_rows),
        half_ratings=half_ratings_of(player, current),
        norms=norms,
        title_proposals=title_proposals(player, norms),
    )


# ---------------------------------------------------------------------------------------------
# Events


@dataclass(frozen=True)
class EventPage:
    event: Event
    games: list[Game]
    changes: dict[int, EventChange]  # player id -> his change at this event
    problems: list[Problem]
    scores: list[SolverScore]
    players: list[Player]
    placements: dict[int, tuple[int, str]]  # player id -> (place, grade) from the results file
    boards: dict[int, tuple[str, int]]  # player id -> (team, board) in a team event


def event_or_404(federation_code: str, code: str) -> Event:
    """Only accepted and rated events are public; drafts, submitted and rejected ones are 404."""
    event = (
        Event.objects.filter(
            federation__code=federation_code, code=code, status__in=PUBLIC_EVENT_STATUSES
        )
        .select_related("federation")
        .first()
    )
    if event is None:
        raise Http404("no such event")
    return event


def event_changes(event: Event, players: Iterable[int]) -> dict[int, EventChange]:
    """(player id, change) of each of `players` at the event, from published runs: one query.
    Event ratings have no index by event (ratings.models): the runs that rated the event are
    read from RatedEvent and the rows by the players' keys."""
    rated_by = RatedEvent.objects.filter(
        event=event, run__rating_list__status=ListStatus.PUBLISHED
    ).values("run_id")
    rows = EventRating.objects.filter(
        player_id__in=sorted(set(players)), event=event, run_id__in=rated_by
    ).order_by("player_id", "-run_id")
    seen: dict[int, EventChange] = {}
    for player_id, change in _event_changes(rows):
        seen.setdefault(player_id, change)  # the newest published run wins
    return seen


def event_page(event: Event) -> EventPage:
    games = list(
        Game.objects.filter(event=event).select_related("white", "black").order_by("round", "id")
    )
    problems: list[Problem] = []
    scores: list[SolverScore] = []
    if event.kind == "solving":
        problems = list(Problem.objects.filter(event=event).order_by("round", "number"))
        scores = list(
            SolverScore.objects.filter(problem__event=event)
            .select_related("solver")
            .order_by("solver_id", "problem__round", "problem__number")
        )
    placements = {
        pid: (place, grade)
        for pid, place, grade in Placement.objects.filter(event=event).values_list(
            "player_id", "place", "grade"
        )
    }
    boards = {}
    if event.kind == "team":
        boards = {
            pid: (team, board)
            for pid, team, board in TeamMember.objects.filter(team__event=event).values_list(
                "player_id", "team__name", "board"
            )
        }
    known = {g.white_id for g in games} | {g.black_id for g in games if g.black_id}
    known |= {s.solver_id for s in scores}
    listed = set(placements) | set(boards)
    # every player a run rates at an event played, solved, placed or sat on a team's board there
    changes = event_changes(event, known | listed)
    missing = listed - known
    extra = list(Player.objects.filter(id__in=missing)) if missing else []
    by_id = {g.white_id: g.white for g in games}
    by_id.update({g.black_id: g.black for g in games if g.black_id})
    by_id.update({s.solver_id: s.solver for s in scores})
    by_id.update({p.id: p for p in extra})
    return EventPage(
        event=event,
        games=games,
        changes=changes,
        problems=problems,
        scores=scores,
        players=[by_id[pid] for pid in sorted(by_id, key=lambda i: by_id[i].full_name)],
        placements=placements,
        boards=boards,
    )


def full_ratings_at_start(
    events: Sequence[Event], solvers: Mapping[int, Iterable[int]]
) -> dict[int, dict[int, int]]:
    """Per event, its solvers' full ratings (half-ratings count as unrated, RULES §4.1) on the
    published list valid at its start: what WFCC acceptability asks (tournaments.ports)."""
    federations = {e.federation_id for e in events}
    lists = list(
        RatingList.objects.filter(federation_id__in=federations, status=ListStatus.PUBLISHED)
        .order_by("-period__valid_from", "-id")
        .values_list("id", "federation_id", "period__valid_from")
    )
    list_of: dict[int, int] = {}
    for event in events:
        # the newest list whose validity began on or before the start (RULES §5)
        valid = next(
            (
                lid
                for lid, fed, valid_from in lists
                if fed == event.federation_id and valid_from <= event.start
            ),
            None,
        )
        if valid is not None:
            list_of[event.pk] = valid
    players = {p for e in events for p in solvers[e.pk]}
    wanted = set(list_of.values())
    ratings: dict[tuple[int, int], int] = {}
    if wanted and players:
        entries = RatingEntry.objects.filter(
            rating_list_id__in=wanted, player_id__in=players, half_rating=False
        ).values_list("rating_list_id", "player_id", "published_rating")
        ratings = {(lid, pid): rating for lid, pid, rating in entries}
    return {
        e.pk: {
            p: ratings[(list_of[e.pk], p)]
            for p in solvers[e.pk]
            if e.pk in list_of and (list_of[e.pk], p) in ratings
        }
        for e in events
    }


def published_period_holding(federation_id: int, day: date) -> tuple[str, list[str]] | None:
    """(the period whose window holds ``day``, every later period) when that period's list is
    published: an event ending that day then needs a re-rate from it (tournaments.ports)."""
    published = RatingList.objects.filter(federation_id=federation_id, status=ListStatus.PUBLISHED)
    holding = (
        published.filter(period__starts_on__lte=day, period__ends_on__gte=day)
        .values_list("period__code", flat=True)
        .first()
    )
    if holding is None:
        return None
    later = published.filter(period__starts_on__gt=day).order_by("period__starts_on")
    return holding, list(dict.fromkeys(later.values_list("period__code", flat=True)))
