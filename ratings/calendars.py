"""Rating periods and calendars of the four systems (RULES §5). Pure: stdlib only, no clock.

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

import re
from bisect import bisect_right
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal

from ratings.engines import SYSTEMS
from ratings.engines.core.errors import EngineInputError
from ratings.engines.core.grades import parse_grade
from ratings.engines.core.months import add_months, first_of, month_index

_ONE_DAY = timedelta(days=1)
_CENT = Decimal("0.01")


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
        return (self.report_deadline or self.ends_on) + _ONE_DAY

    def contains(self, day: date) -> bool:
        return self.starts_on <= day <= self.ends_on


# --- building periods from their first window month ----------------------------------------------


def _quarter_code(valid_from: date) -> str:
    return f"{valid_from.year}Q{(valid_from.month - 1) // 3 + 1}"


def _iccf(calendar: Calendar, start: int, params: CalendarParams) -> Period:
    # Window months start, start+1, start+2; the list is valid from start+4 (Sep-Nov -> 1 Jan).
    valid_from = first_of(start + 4)
    deadline = add_months(valid_from, -1)
    return Period(
        system=calendar.system,
        code=_quarter_code(valid_from),
        starts_on=first_of(start),
        ends_on=first_of(start + 3) - _ONE_DAY,
        list_published_on=deadline.replace(day=params.iccf_publication_day),
        valid_from=valid_from,
        valid_until=first_of(start + 7) - _ONE_DAY,
        report_deadline=deadline,
    )


def _wfcc(calendar: Calendar, start: int, params: CalendarParams) -> Period:
    # Tournaments ended (report included) in a calendar quarter -> list of the next quarter's 1st.
    valid_from = first_of(start + 3)
    ends_on = valid_from - _ONE_DAY
    return Period(
        system=calendar.system,
        code=_quarter_code(valid_from),
        starts_on=first_of(start),
        ends_on=ends_on,
        list_published_on=valid_from,
        valid_from=valid_from,
        valid_until=first_of(start + 6) - _ONE_DAY,
        report_deadline=ends_on,
    )


def _batch(calendar: Calendar, start: int, params: CalendarParams) -> Period:
    # EGF snapshots and PlayChess batches: the run on the day after the window is the list day.
    months = calendar.months(params)
    run_day = first_of(start + months)
    return Period(
        system=calendar.system,
        code=f"{start // 12:04d}-{start % 12 + 1:02d}",
        starts_on=first_of(start),
        ends_on=run_day - _ONE_DAY,
        list_published_on=run_day,
        valid_from=run_day,
        valid_until=first_of(start + 2 * months) - _ONE_DAY,
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


def _three_months(params: CalendarParams) -> int:
    return 3


ICCF = Calendar("iccf", _three_months, 2, _iccf, list_lag=2)
WFCC = Calendar("wfcc", _three_months, 0, _wfcc, list_lag=1)
EGF = Calendar("egf", lambda p: p.egf_snapshot_months, 0, _batch, list_lag=None)
PLAYCHESS = Calendar("playchess", lambda p: p.playchess_batch_months, 0, _batch, list_lag=None)
CALENDARS = (ICCF, WFCC, EGF, PLAYCHESS)


def calendar_of(system: str) -> Calendar:
    for calendar in CALENDARS:
        if calendar.system == system:
            return calendar
    raise EngineInputError("system", f"unknown rating system {system!r}; one of {SYSTEMS}")


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
    return period_for(period.system, period.ends_on + _ONE_DAY, params=params)


def previous_period(period: Period, *, params: CalendarParams = DEFAULT_PARAMS) -> Period:
    return period_for(period.system, period.starts_on - _ONE_DAY, params=params)


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


# --- ICCF ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class IccfAssignment:
    period: Period  # the period whose list includes the result
    late: bool  # reported after the deadline of the window the game finished in
    reason: str


def iccf_period_for_report(
    reported_on: date,
    *,
    finished_on: date | None = None,
    params: CalendarParams = DEFAULT_PARAMS,
) -> IccfAssignment:
    """Which ICCF list includes a result, and why (rules 3/4 and RULES §5 [P])."""
    finished = reported_on if finished_on is None else finished_on
    if finished > reported_on:
        raise EngineInputError("finished_on", f"{finished} is after the report date {reported_on}")
    home = period_for("iccf", finished, params=params)
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
    rolled = period_for("iccf", reported_on, params=params)
    return IccfAssignment(
        period=rolled,
        late=True,
        reason=(
            f"finished {finished} in the window of {home.code} but reported {reported_on}, after "
            f"its deadline {deadline} (one month before {home.valid_from}): rolls into "
            f"{rolled.code}"
        ),
    )


# --- WFCC ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class WfccPlacement:
    counted_in: Period  # the period (and so the next list) the tournament's changes go into
    rated_with: Period  # the period whose list was valid at the tournament's start (its Rat)


def wfcc_period_for_tournament(
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
    counted_in = period_for("wfcc", completed, params=params)
    # The list valid at the start is the one published at the end of the window before it.
    rated_with = previous_period(period_for("wfcc", start, params=params), params=params)
    return WfccPlacement(counted_in=counted_in, rated_with=rated_with)


WFCC_EXPIRY_YEARS = 5


def wfcc_expired(last_rated_tournament_end: date, list_date: date) -> bool:
    """True if the solver leaves the list of ``list_date``: five years without a rated tournament.

    On return his former full rating is used again and a former half-rating is discarded (§4.2);
    the caller keeps the full rating in the database.
    """
    return list_date >= add_months(last_rated_tournament_end, 12 * WFCC_EXPIRY_YEARS)


def wfcc_next_list_rating(list_rating: float, changes: Iterable[float]) -> float:
    """List rating + Σ ChOfRat (each rounded half-up to 2 decimals) -> the next list value (§5).

    Every tournament of a period uses the list rating as Rat, so changes add up instead of a later
    tournament overwriting an earlier one. Summed in Decimal: exact and order-independent.
    """
    total = Decimal(repr(float(list_rating)))
    for change in changes:
        total += Decimal(repr(float(change))).quantize(_CENT, rounding=ROUND_HALF_UP)
    return float(total.quantize(_CENT, rounding=ROUND_HALF_UP))


# --- EGF ----------------------------------------------------------------------------------------


def egf_tournament_order_key(end: date, start: date, code: str) -> tuple[date, date, str]:
    """Tournaments are rated by end date, then start date, then EGD code (§5 [P])."""
    return (end, start, code)


def egf_is_active(grade: str, last_tournament_date: date, list_date: date) -> bool:
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
