"""The difference between a list and the one before it: new, dropped, and the largest moves."""

from __future__ import annotations

from dataclasses import dataclass

from ratings.models import RatingList


@dataclass(frozen=True)
class DiffRow:
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
class ListDiff:
    new: list[DiffRow]
    dropped: list[DiffRow]
    changed: list[DiffRow]  # largest absolute move first
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


def list_diff(
    rating_list: RatingList, previous: RatingList | None = None, limit: int = 50
) -> ListDiff:
    """Two queries whatever the list's length; rows beyond ``limit`` are only counted."""
    previous = previous if previous is not None else rating_list.previous
    now, before = _rows(rating_list), _rows(previous)
    new = [
        DiffRow(pid, name, fid, None, rating)
        for pid, (rating, name, fid) in now.items()
        if pid not in before
    ]
    dropped = [
        DiffRow(pid, name, fid, rating, None)
        for pid, (rating, name, fid) in before.items()
        if pid not in now
    ]
    changed = [
        DiffRow(pid, now[pid][1], now[pid][2], before[pid][0], now[pid][0])
        for pid in now.keys() & before.keys()
        if now[pid][0] != before[pid][0]
    ]
    new.sort(key=lambda r: (-r.after, r.name))
    dropped.sort(key=lambda r: (-r.before, r.name))
    changed.sort(key=lambda r: (-abs(r.change), r.name))
    return ListDiff(
        new[:limit], dropped[:limit], changed[:limit], len(new), len(dropped), len(changed)
    )
