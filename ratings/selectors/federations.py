"""Federations and their lists: the home page's summaries, a federation's latest and
previous lists, the period selector, the next list due."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from urllib.parse import quote

from django.core.cache import cache
from django.db.models import OuterRef, QuerySet, Subquery
from django.utils.formats import date_format
from django.utils.translation import get_language

from federation.models import Federation
from ratings.models import (
    ListStatus,
    RatingList,
    RatingPeriod,
)
from ratings.selectors.common import PUBLIC_LIST_STATUSES
from ratings.selectors.errors import NotFound
from ratings.web import page_cache
from ratings.web.page_cache import IMMUTABLE_SECONDS

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
    from ratings import calendars

    try:
        return calendars.CalendarParams(**(federation.params or {}).get("calendar", {}))
    except TypeError:  # settings the calendar does not know: the defaults
        return calendars.DEFAULT_PARAMS


def next_list_due(
    system: str,
    today: date,
    latest_valid_from: date | None,
    stored: date | None,
    calendar=None,
) -> date | None:
    """The publication date of the next list not yet published, from the federation's calendar
    (ratings.calendars), or a stored period's date when that is earlier."""
    from ratings import calendars

    calendar = calendar or calendars.DEFAULT_PARAMS
    try:
        current = calendars.period_for(system, today, params=calendar)
        candidates = [
            calendars.previous_period(current, params=calendar),
            current,
            calendars.next_period(current, params=calendar),
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


def federation_by_code(code: str) -> Federation:
    federation = Federation.objects.filter(code=code).first()
    if federation is None:
        raise NotFound("no such federation")
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


def published_list(federation_code: str, period_code: str) -> RatingList:
    """The published list of a federation's period, with its federation and period: read once
    per publication generation (ratings.web.page_cache) and shared by every page of the list."""
    if len(period_code) > RatingPeriod._meta.get_field("code").max_length:
        raise NotFound("no published list for this period")  # no such code can be stored
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
        raise NotFound("no published list for this period")
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

    With `newest_list_id` (the highest published list id, read with the list: see published_list)
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
