"""WFCC's calendar (RULES §5): quarterly lists named by the list (``2026Q1`` rates tournaments
that ended in Oct-Dec 2025), where a tournament counts, expiry and the next list value. Pure."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from decimal import ROUND_HALF_UP, Decimal

from ratings.calendars import (
    DEFAULT_PARAMS,
    ONE_DAY,
    Calendar,
    CalendarParams,
    Period,
    period_for,
    previous_period,
    quarter_code,
    three_months,
)
from ratings.engines.core.errors import EngineInputError
from ratings.engines.core.months import add_months, first_of

_CENT = Decimal("0.01")


def _period(calendar: Calendar, start: int, params: CalendarParams) -> Period:
    # Tournaments ended (report included) in a calendar quarter -> list of the next quarter's 1st.
    valid_from = first_of(start + 3)
    ends_on = valid_from - ONE_DAY
    return Period(
        system=calendar.system,
        code=quarter_code(valid_from),
        starts_on=first_of(start),
        ends_on=ends_on,
        list_published_on=valid_from,
        valid_from=valid_from,
        valid_until=first_of(start + 6) - ONE_DAY,
        report_deadline=ends_on,
    )


CALENDAR = Calendar("wfcc", three_months, 0, _period, list_lag=1)


@dataclass(frozen=True)
class WfccPlacement:
    counted_in: Period  # the period (and so the next list) the tournament's changes go into
    rated_with: Period  # the period whose list was valid at the tournament's start (its Rat)


def period_for_tournament(
    start: date,
    end: date,
    *,
    reported_on: date | None = None,
    params: CalendarParams = DEFAULT_PARAMS,
) -> WfccPlacement:
    """Counted in the period in which it ends (report included); rated with the list at its start."""
    if end < start:
        raise EngineInputError("end", f"{end} is before the start {start}")
    completed = end if reported_on is None else max(end, reported_on)
    counted_in = period_for(CALENDAR.system, completed, params=params)
    # The list valid at the start is the one published at the end of the window before it.
    rated_with = previous_period(period_for(CALENDAR.system, start, params=params), params=params)
    return WfccPlacement(counted_in=counted_in, rated_with=rated_with)


EXPIRY_YEARS = 5


def has_expired(last_rated_tournament_end: date, list_date: date) -> bool:
    """True if the solver leaves the list of ``list_date``: five years without a rated tournament.

    On return his former full rating is used again and a former half-rating is discarded (§4.2);
    the caller keeps the full rating in the database.
    """
    return list_date >= add_months(last_rated_tournament_end, 12 * EXPIRY_YEARS)


def next_list_rating(list_rating: float, changes: Iterable[float]) -> float:
    """List rating + Σ ChOfRat (each rounded half-up to 2 decimals) -> the next list value (§5).

    Every tournament of a period uses the list rating as Rat, so changes add up instead of a later
    tournament overwriting an earlier one. Summed in Decimal: exact and order-independent.
    """
    total = Decimal(repr(float(list_rating)))
    for change in changes:
        total += Decimal(repr(float(change))).quantize(_CENT, rounding=ROUND_HALF_UP)
    return float(total.quantize(_CENT, rounding=ROUND_HALF_UP))
