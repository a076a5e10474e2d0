"""Reading a correction chain for review: per period, each player's original published rating
beside the revised one (like the ECF's original and revised lists)."""

from __future__ import annotations

from dataclasses import dataclass

from ratings.models import ListStatus, RatingEntry, RatingList


@dataclass(frozen=True)
class RevisedRow:
    player_id: int
    name: str
    federation_player_id: str
    original: int | None  # None: not on the published list
    revised: int | None  # None: not on the revised list

    @property
    def difference(self) -> int | None:
        if self.original is None or self.revised is None:
            return None
        return self.revised - self.original


@dataclass(frozen=True)
class RevisedPeriod:
    code: str
    draft_id: int
    draft_status: str
    original_list_id: int | None
    entries: int
    rows: list[RevisedRow]  # only the players whose published rating differs


def _ratings(list_id: int | None) -> dict[int, tuple[int, str, str]]:
    if list_id is None:
        return {}
    rows = RatingEntry.objects.filter(rating_list_id=list_id, listed=True).values_list(
        "player_id",
        "published_rating",
        "player__surname",
        "player__given_name",
        "player__federation_player_id",
    )
    return {
        pid: (rating, f"{surname}, {given}".strip(", "), fid)
        for pid, rating, surname, given, fid in rows
    }


def chain_review(head_run_id: int) -> list[RevisedPeriod]:
    review = []
    lists = (
        RatingList.objects.filter(run__chain_head_id=head_run_id)
        .select_related("period")
        .order_by("period__valid_from")
    )
    for draft in lists:
        original_id = (
            draft.supersedes_id
            if draft.status == ListStatus.PUBLISHED
            else RatingList.objects.filter(period=draft.period, status=ListStatus.PUBLISHED)
            .values_list("pk", flat=True)
            .first()
        )
        before, after = _ratings(original_id), _ratings(draft.pk)
        rows = []
        for pid in sorted(set(before) | set(after)):
            old, new = before.get(pid), after.get(pid)
            if old is None or new is None or old[0] != new[0]:
                name, fid = (new or old)[1:]
                rows.append(
                    RevisedRow(pid, name, fid, old[0] if old else None, new[0] if new else None)
                )
        rows.sort(
            key=lambda r: (-(abs(r.difference) if r.difference is not None else 10**6), r.name)
        )
        review.append(
            RevisedPeriod(draft.period.code, draft.pk, draft.status, original_id, len(after), rows)
        )
    return review
