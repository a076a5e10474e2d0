"""Rating periods and the calendar arithmetic the systems share (RULES §5). Pure: stdlib only, no
clock. Each system's own calendar and calendar rules are its package's ``calendar.py``
(``ratings/systems/<code>/calendar.py``); ``calendar_of(system)`` finds it.

A ``Period`` is one rating period: the window of games/tournaments it rates
(``starts_on``..``ends_on``, both inclusive), the day its list is published, the days that list is
valid, and (ICCF, WFCC) the last day a result may be reported to count in it. Its ``code`` is a
stable string:

* ICCF and WFCC (quarterly): ``2026Q1`` names the LIST valid from 1 Jan 2026, as the federations
  name their lists. ICCF 2026Q1 rates results of Sep-Nov 2025; WFCC 2026Q1 rates tournaments that
  ended in Oct-Dec 2025.
* EGF snapshots and PlayChess batches (``CalendarParams``, N calendar months): ``2026-03`` names the
  WINDOW starting March 2026. Windows are aligned so that their first month's index
  (12*year + month - 1) is a multiple of N, which for N dividing 12 means aligned to the year.

Decisions where RULES.md leaves room ([P], see also the tests):

* ICCF window: results of Sep-Nov -> list published on the 15th of Dec (``iccf_publication_day``),
  valid Jan-Mar. Report deadline (rules 3/4, "no later than one month before the list is to be
  made valid"): valid 1 Jan -> reported on or before 1 Dec, i.e. ``reported_on + 1 month <=
  valid_from``. A game belongs to the window containing its finish date; when no separate finish
  date is known it is the report date (RULES §5 [P], keyed on reporting). It counts in that
  window's list if reported by its deadline; otherwise it is late and rolls into the period whose
  window contains the report date. So a game finished on 30 Nov and reported on 1 Dec (31 days
  before 1 Jan) is in the 1 Jan list, reported on 3 Dec (29 days before) it is in the 1 Apr list.
  "29 vs 31 days" is counted before the list becomes VALID, not before its publication on the
  15th: counted from the 15th both reports would lie inside the window and the test could not
  fail. Every quarter's preceding month has 30 or 31 days, so 31 days before validity always
  meets the deadline and 29 days never does.
* WFCC: the list of 1 Apr rates tournaments that ended, report included, on or before 31 Mar; a
  tournament whose report comes later counts in the period containing the report date. Lists are
  published on their validity day. Expiry: no rated tournament for five years, i.e. off the list
  once ``list_date >= last end + 5 years`` (29 Feb -> 28 Feb).
* Runs: a period's run is due on ``due_on`` = the day after its report deadline (ICCF, WFCC) or
  after its window (EGF, PlayChess: the run day is the snapshot/publication day).
"""

from __future__ import annotations

import importlib
import re
from bisect import bisect_right
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import date, timedelta

from ratings.engines import SYSTEMS
from ratings.engines.core.errors import EngineInputError
from ratings.engines.core.months import add_months, first_of, month_index

ONE_DAY = timedelta(days=1)


@dataclass(frozen=True)
class CalendarParams:
    """The calendar settings: PLAYCHESS_BATCH_PERIOD (RULES §3.2, §5) and the EGF snapshot step."""

    playchess_batch_months: int = 1
    egf_snapshot_months: int = 1  # [P] a monthly snapshot of the EGF list
    iccf_publication_day: int = 15  # "approx 15th" of the month before validity

    def __post_init__(self) -> None:
        for name in ("playchess_batch_months", "egf_snapshot_months"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 12:
                raise EngineInputError(f"params.{name}", f"must be an integer 1..12, got {value!r}")
        day = self.iccf_publication_day
        if not isinstance(day, int) or isinstance(day, bool) or not 1 <= day <= 28:
            raise EngineInputError("params.iccf_publication_day", f"must be 1..28, got {day!r}")


DEFAULT_PARAMS = CalendarParams()


@dataclass(frozen=True)
class Period:
    system: str
    code: str
    starts_on: date  # first day of the game/tournament window
    ends_on: date  # last day of the window
    list_published_on: date
    valid_from: date
    valid_until: date
    report_deadline: date | None  # last day a result may be reported to count here

    @property
    def due_on(self) -> date:
        """The first day the period's rating run may start."""
        return (self.report_deadline or self.ends_on) + ONE_DAY

    def contains(self, day: date) -> bool:
        return self.starts_on <= day <= self.ends_on


# --- building periods from their first window month (each system's calendar.py uses these) -----


def quarter_code(valid_from: date) -> str:
    return f"{valid_from.year}Q{(valid_from.month - 1) // 3 + 1}"


def batch_period(calendar: Calendar, start: int, params: CalendarParams) -> Period:
    """EGF snapshots and PlayChess batches: the run on the day after the window is the list day."""
    months = calendar.months(params)
    run_day = first_of(start + months)
    return Period(
        system=calendar.system,
        code=f"{start // 12:04d}-{start % 12 + 1:02d}",
        starts_on=first_of(start),
        ends_on=run_day - ONE_DAY,
        list_published_on=run_day,
        valid_from=run_day,
        valid_until=first_of(start + 2 * months) - ONE_DAY,
        report_deadline=None,
    )


@dataclass(frozen=True)
class Calendar:
    """One system's calendar: window length, alignment, how a window becomes a period, and how
    its periods are named (quarterly lists by the list, batches by the window)."""

    system: str
    months: Callable[[CalendarParams], int]  # window length, also the alignment of window starts
    phase: int  # month index of a window start modulo the length (ICCF: Mar/Jun/Sep/Dec)
    build: Callable[[Calendar, int, CalendarParams], Period]
    list_lag: int | None  # quarterly: months from a list's validity back into its window

    def window_start(self, index: int, params: CalendarParams) -> int:
        return index - (index - self.phase) % self.months(params)

    def period_for(self, day: date, *, params: CalendarParams = DEFAULT_PARAMS) -> Period:
        if not _COMPUTABLE_YEARS[0] <= day.year <= _COMPUTABLE_YEARS[1]:
            raise EngineInputError(
                "date", f"{day.isoformat()} is outside the years {FIRST_YEAR}-{LAST_YEAR}"
            )
        return self.build(self, self.window_start(month_index(day), params), params)

    def period_by_code(self, code: str, *, params: CalendarParams = DEFAULT_PARAMS) -> Period:
        return period_by_code(self.system, code, params=params)

    def due_periods(
        self, last_rated_code: str | None, today: date, *, params: CalendarParams = DEFAULT_PARAMS
    ) -> tuple[Period, ...]:
        return due_periods(self.system, last_rated_code, today, params=params)


def three_months(params: CalendarParams) -> int:
    return 3


def calendar_of(system: str) -> Calendar:
    """The calendar of ``system``: its package's pure ``calendar.py`` (ratings.systems.base)."""
    if system not in SYSTEMS:
        raise EngineInputError("system", f"unknown rating system {system!r}; one of {SYSTEMS}")
    return importlib.import_module(f"ratings.systems.{system}.calendar").CALENDAR


# --- public API ---------------------------------------------------------------------------------


# Period codes, imported tables and events are accepted for these years; the calendar itself
# computes for a wider range (a period's neighbours may lie in the year before), and refuses
# days near date.min/date.max, where looking a year or two either way would overflow (a server
# error for "0001Q1" or an event in 9999).
FIRST_YEAR, LAST_YEAR = 1900, 2999
_COMPUTABLE_YEARS = (1000, 8999)


def period_for(system: str, day: date, *, params: CalendarParams = DEFAULT_PARAMS) -> Period:
    """The period whose game/tournament window contains ``day``."""
    return calendar_of(system).period_for(day, params=params)


_QUARTER_RE = re.compile(r"^(\d{4})Q([1-4])$")
_MONTH_RE = re.compile(r"^(\d{4})-(0[1-9]|1[0-2])$")


def period_by_code(system: str, code: str, *, params: CalendarParams = DEFAULT_PARAMS) -> Period:
    """The period named ``code``; EngineInputError if it is no period of ``system``."""
    calendar = calendar_of(system)
    if not isinstance(code, str):
        raise EngineInputError("code", f"must be a string, got {code!r}")
    if calendar.list_lag is not None:
        match = _QUARTER_RE.match(code)
        if not match or not FIRST_YEAR <= int(match[1]) <= LAST_YEAR:
            raise EngineInputError("code", f"{code!r} is not a quarter code like 2026Q1")
        valid_from = date(int(match[1]), 3 * int(match[2]) - 2, 1)
        # The list's window ended the day before it became valid (ICCF: a month earlier).
        return calendar.period_for(add_months(valid_from, -calendar.list_lag), params=params)
    match = _MONTH_RE.match(code)
    if not match or not FIRST_YEAR <= int(match[1]) <= LAST_YEAR:
        raise EngineInputError("code", f"{code!r} is not a month code like 2026-03")
    period = calendar.period_for(date(int(match[1]), int(match[2]), 1), params=params)
    if period.code != code:
        n = calendar.months(params)
        raise EngineInputError(
            "code", f"{code!r} does not start a {n}-month {system} window (that is {period.code})"
        )
    return period


def next_period(period: Period, *, params: CalendarParams = DEFAULT_PARAMS) -> Period:
    return period_for(period.system, period.ends_on + ONE_DAY, params=params)


def previous_period(period: Period, *, params: CalendarParams = DEFAULT_PARAMS) -> Period:
    return period_for(period.system, period.starts_on - ONE_DAY, params=params)


def due_periods(
    system: str,
    last_rated_code: str | None,
    today: date,
    *,
    params: CalendarParams = DEFAULT_PARAMS,
) -> tuple[Period, ...]:
    """Periods after ``last_rated_code`` whose runs are due on ``today``, oldest first.

    With no rated period yet, only the latest due period (a new federation starts there).
    """
    latest = calendar_of(system).period_for(today, params=params)
    while latest.due_on > today:
        latest = previous_period(latest, params=params)
    if last_rated_code is None:
        return (latest,)
    due: list[Period] = []
    period = next_period(period_by_code(system, last_rated_code, params=params), params=params)
    while period.starts_on <= latest.starts_on:
        due.append(period)
        period = next_period(period, params=params)
    return tuple(due)


def list_valid_on(list_dates: Iterable[date], day: date) -> date | None:
    """The validity start of the list valid on ``day``: the newest one on or before it (§5)."""
    ordered: Sequence[date] = sorted(list_dates)
    at = bisect_right(ordered, day)
    return ordered[at - 1] if at else None
