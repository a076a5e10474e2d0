"""The EGD world list as an EGF federation's starting list: each player's grade, highest grade,
last tournament and tournament count as the EGF runner carries them on, listed when active on the
list's date (RULES §2.5)."""

from __future__ import annotations

import functools
from datetime import date

from ratings.engines.core.grades import normalise_grade
from ratings.systems.base import StartingList
from ratings.systems.egf.calendar import is_active
from tournaments.formats import egd_list
from tournaments.formats.player_lists import ListRow

# Asked 44,000 times with a few thousand distinct values.
_grade = functools.lru_cache(maxsize=256)(normalise_grade)
_last_date = functools.lru_cache(maxsize=65536)(egd_list.last_appearance_date)
_active = functools.lru_cache(maxsize=65536)(is_active)


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


STARTING_LIST = StartingList(list_format="egd", entry=egd_entry)
