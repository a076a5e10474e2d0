"""A federation's first published list from an imported EGD world list or CSV (list_import):
the calendar period whose list is valid from the file's date, the ratings through
``services.import_list``, recognised by its input digest when imported again."""

from __future__ import annotations

import functools
from datetime import date, timedelta
from typing import TYPE_CHECKING

from federation.models import Federation
from ratings import calendars
from ratings.engines.core.grades import normalise_grade
from ratings.models import ListStatus, RatingList
from ratings.systems.egf import calendar as egf_calendar
from tournaments.formats import egd_list
from tournaments.formats.player_lists import ListRow

if TYPE_CHECKING:
    from ratings.services.imports import ListImportPreview

# Asked 44,000 times with a few thousand distinct values.
_grade = functools.lru_cache(maxsize=256)(normalise_grade)
_last_date = functools.lru_cache(maxsize=65536)(egd_list.last_appearance_date)
_active = functools.lru_cache(maxsize=65536)(egf_calendar.is_active)


def _period_code(federation: Federation, valid_from: date) -> str | None:
    """The calendar's period whose list becomes valid on ``valid_from``, if there is one."""
    from ratings.services.runs import calendar_of

    params = calendar_of(federation)
    period = calendars.period_for(federation.system, valid_from - timedelta(days=1), params=params)
    while period.valid_from < valid_from:
        period = calendars.next_period(period, params=params)
    return period.code if period.valid_from == valid_from else None


def _entries(preview: ListImportPreview, rows: list[ListRow], ids: dict[str, int]) -> list[dict]:
    entries = []
    for row in rows:
        pid = ids.get(row.player_id)
        if pid is None or row.rating is None:
            continue
        entry = {"player_id": pid, "rating": float(row.rating), "published_rating": row.rating}
        if preview.fmt == "egd":
            entry.update(egd_entry(row, preview.valid_from))
        else:
            entry["total_games"] = row.games or 0
        entries.append(entry)
    return sorted(entries, key=lambda e: e["player_id"])


def egd_entry(row: ListRow, valid_from: date) -> dict:
    """An EGD row as the EGF runner carries it on: grade, highest grade, last tournament date,
    tournament count; listed when active on the list's date (RULES §2.5)."""
    grade = _grade(row.grade)
    state = {"grade": grade, "max_grade": grade, "tournaments": row.tournaments or 0}
    last = _last_date(row.last_appearance)
    if row.last_appearance:
        state["egd_last"] = row.last_appearance
    if last is not None:
        state["last"] = last.isoformat()
    listed = last is not None and _active(grade, last, valid_from)
    return {"state": state, "listed": listed}


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
