"""A federation's first published list from an imported player list (ratings.services.imports):
the calendar period whose list is valid from the file's date, the ratings through
``services.import_list``, recognised by its input digest when imported again. A system's own
world list (its ``starting_list``: EGF's EGD list) also carries each player's runner state."""

from __future__ import annotations

from datetime import date, timedelta
from typing import TYPE_CHECKING

from federation.models import Federation
from ratings import calendars, systems
from ratings.models import ListStatus, RatingList
from tournaments.formats.player_lists import ListRow

if TYPE_CHECKING:
    from ratings.services.imports import ListImportPreview


def _period_code(federation: Federation, valid_from: date) -> str | None:
    """The calendar's period whose list becomes valid on ``valid_from``, if there is one."""
    from ratings.services.runs import calendar_of

    params = calendar_of(federation)
    period = calendars.period_for(federation.system, valid_from - timedelta(days=1), params=params)
    while period.valid_from < valid_from:
        period = calendars.next_period(period, params=params)
    return period.code if period.valid_from == valid_from else None


def _entries(preview: ListImportPreview, rows: list[ListRow], ids: dict[str, int]) -> list[dict]:
    own = systems.of(preview.federation).starting_list
    own_state = own.entry if own is not None and own.list_format == preview.fmt else None
    entries = []
    for row in rows:
        pid = ids.get(row.player_id)
        if pid is None or row.rating is None:
            continue
        entry = {"player_id": pid, "rating": float(row.rating), "published_rating": row.rating}
        if own_state is not None:
            entry.update(own_state(row, preview.valid_from))
        else:
            entry["total_games"] = row.games or 0
        entries.append(entry)
    return sorted(entries, key=lambda e: e["player_id"])


def publish_starting_list(
    preview: ListImportPreview, rows: list[ListRow], ids: dict[str, int], by
) -> None:
    from ratings.services.publication import import_list
    from ratings.services.runs import canonical_digest

    federation = preview.federation
    if preview.valid_from is None:
        preview.errors.append("the list has no date: give the date it is valid from")
        return
    code = _period_code(federation, preview.valid_from)
    if code is None:
        preview.errors.append(
            f"{preview.valid_from} is no list date of {federation.code}'s calendar"
        )
        return
    entries = _entries(preview, rows, ids)
    published = RatingList.objects.filter(
        federation=federation, status=ListStatus.PUBLISHED
    ).select_related("run", "period")
    imported = published.filter(period__code=code, run__engine="import")
    same = (
        imported.filter(run__input_digest=canonical_digest(entries)).first()
        if imported.exists()  # 44,000 entries: digest them only when there is one to compare
        else None
    )
    if same is not None:
        preview.publication = f"the list of {code} is already published with these ratings"
        preview.list_id = same.pk
        return
    if published.exists():
        preview.errors.append(
            f"{federation.code} already has published lists; a starting list can only be a "
            "federation's first list"
        )
        return
    rating_list = import_list(
        federation=federation,
        period_code=code,
        entries=entries,
        by=by,
        note=f"starting list imported from {preview.filename}",
    )
    preview.list_id = rating_list.pk
    preview.publication = (
        f"published the starting list of {code} ({len(entries)} entries, "
        f"{rating_list.entry_count} listed)"
    )
