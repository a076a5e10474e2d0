"""The difference between a published list and the one before it (the diff page)."""

from __future__ import annotations

from dataclasses import dataclass

from django.core.cache import cache
from django.db.models import Exists, F, OuterRef, Subquery

from ratings.models import (
    RatingEntry,
    RatingList,
)
from ratings.selectors.common import ENTRY_FIELDS, flat_row
from ratings.web.page_cache import IMMUTABLE_SECONDS

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
