"""The difference between a list and the one before it: the public diff page of two published
lists (cached: both are immutable), and a draft's review in the admin."""

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


@dataclass(frozen=True)
class DraftDiffRow:
    player_id: int
    name: str
    federation_player_id: str
    before: int | None
    after: int | None

    @property
    def change(self) -> int | None:
        if self.before is None or self.after is None:
            return None
        return self.after - self.before


@dataclass(frozen=True)
class DraftDiff:
    new: list[DraftDiffRow]
    dropped: list[DraftDiffRow]
    changed: list[DraftDiffRow]  # largest absolute move first
    new_count: int
    dropped_count: int
    changed_count: int


def _rows(rating_list: RatingList | None) -> dict[int, tuple[int, str, str]]:
    if rating_list is None:
        return {}
    return {
        pid: (rating, f"{surname}, {given}".strip(", "), fid)
        for pid, rating, surname, given, fid in rating_list.entries.filter(listed=True).values_list(
            "player_id",
            "published_rating",
            "player__surname",
            "player__given_name",
            "player__federation_player_id",
        )
    }


def draft_diff(
    rating_list: RatingList, previous: RatingList | None = None, limit: int = 50
) -> DraftDiff:
    """A draft against the list before it, for the officer's review (drafts are not cached:
    they can still be discarded). Two queries whatever the list's length; rows beyond ``limit``
    are only counted."""
    previous = previous if previous is not None else rating_list.previous
    now, before = _rows(rating_list), _rows(previous)
    new = [
        DraftDiffRow(pid, name, fid, None, rating)
        for pid, (rating, name, fid) in now.items()
        if pid not in before
    ]
    dropped = [
        DraftDiffRow(pid, name, fid, rating, None)
        for pid, (rating, name, fid) in before.items()
        if pid not in now
    ]
    changed = [
        DraftDiffRow(pid, now[pid][1], now[pid][2], before[pid][0], now[pid][0])
        for pid in now.keys() & before.keys()
        if now[pid][0] != before[pid][0]
    ]
    new.sort(key=lambda r: (-r.after, r.name))
    dropped.sort(key=lambda r: (-r.before, r.name))
    changed.sort(key=lambda r: (-abs(r.change), r.name))
    return DraftDiff(
        new[:limit], dropped[:limit], changed[:limit], len(new), len(dropped), len(changed)
    )
