"""ICCF's calendar (RULES §5): quarterly lists named by the list (``2026Q1`` is valid from 1 Jan
2026 and rates results of Sep-Nov 2025), and which list a reported result goes into. Pure."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from ratings.calendars import (
    DEFAULT_PARAMS,
    ONE_DAY,
    Calendar,
    CalendarParams,
    Period,
    period_for,
    quarter_code,
    three_months,
)
from ratings.engines.core.errors import EngineInputError
from ratings.engines.core.months import add_months, first_of


def _period(calendar: Calendar, start: int, params: CalendarParams) -> Period:
    # Window months start, start+1, start+2; the list is valid from start+4 (Sep-Nov -> 1 Jan).
    valid_from = first_of(start + 4)
    deadline = add_months(valid_from, -1)
    return Period(
        system=calendar.system,
        code=quarter_code(valid_from),
        starts_on=first_of(start),
        ends_on=first_of(start + 3) - ONE_DAY,
        list_published_on=deadline.replace(day=params.iccf_publication_day),
        valid_from=valid_from,
        valid_until=first_of(start + 7) - ONE_DAY,
        report_deadline=deadline,
    )


CALENDAR = Calendar("iccf", three_months, 2, _period, list_lag=2)


@dataclass(frozen=True)
class IccfAssignment:
    period: Period  # the period whose list includes the result
    late: bool  # reported after the deadline of the window the game finished in
    reason: str


def period_for_report(
    reported_on: date,
    *,
    finished_on: date | None = None,
    params: CalendarParams = DEFAULT_PARAMS,
) -> IccfAssignment:
    """Which ICCF list includes a result, and why (rules 3/4 and RULES §5 [P])."""
    finished = reported_on if finished_on is None else finished_on
    if finished > reported_on:
        raise EngineInputError("finished_on", f"{finished} is after the report date {reported_on}")
    home = period_for(CALENDAR.system, finished, params=params)
    deadline = home.report_deadline
    if reported_on <= deadline:
        what = "reported" if finished_on is None else f"finished {finished}, reported"
        return IccfAssignment(
            period=home,
            late=False,
            reason=(
                f"{what} {reported_on}, on or before {deadline} (one month before the list of "
                f"{home.valid_from}): rated in {home.code}"
            ),
        )
    rolled = period_for(CALENDAR.system, reported_on, params=params)
    return IccfAssignment(
        period=rolled,
        late=True,
        reason=(
            f"finished {finished} in the window of {home.code} but reported {reported_on}, after "
            f"its deadline {deadline} (one month before {home.valid_from}): rolls into "
            f"{rolled.code}"
        ),
    )
