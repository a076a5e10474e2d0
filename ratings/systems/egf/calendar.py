"""EGF's calendar (RULES §5): list snapshots every ``egf_snapshot_months`` months, named by the
window (``2026-03``), the order tournaments are rated in, and who stays on the list. Pure."""

from __future__ import annotations

from datetime import date

from ratings.calendars import Calendar, batch_period
from ratings.engines.core.errors import EngineInputError
from ratings.engines.core.grades import parse_grade
from ratings.engines.core.months import month_index

CALENDAR = Calendar("egf", lambda p: p.egf_snapshot_months, 0, batch_period, list_lag=None)


def tournament_order_key(end: date, start: date, code: str) -> tuple[date, date, str]:
    """Tournaments are rated by end date, then start date, then EGD code (§5 [P])."""
    return (end, start, code)


def is_active(grade: str, last_tournament_date: date, list_date: date) -> bool:
    """Whether a player stays on the published list of ``list_date`` (RULES §2.5 [P]).

    An inactive player is only left out of the published list; the caller keeps him and his
    rating in the database and uses it again when he returns.

    The current year/month is not counted: a dan or pro stays if his last tournament is in year
    >= Y - 2; a 1-10 kyu if in month >= M - 12; an 11 kyu or weaker if in month >= M - 6.
    ``grade`` is the last professed grade, e.g. "3d", "12k", "1p"; a bare number is kyu.
    """
    try:
        professed = parse_grade(grade)
    except ValueError as exc:
        raise EngineInputError("grade", str(exc)) from None
    if not professed.is_kyu:
        return last_tournament_date.year >= list_date.year - 2
    months = 12 if professed.number <= 10 else 6
    return month_index(last_tournament_date) >= month_index(list_date) - months
