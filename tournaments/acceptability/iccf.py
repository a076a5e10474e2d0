"""ICCF correspondence chess: reflection time and webserver (rule 1.3), reporting deadline (3, 4).

RULES.md §6.1 and §5. The quarterly calendar is ``ratings.calendars`` (pure), so the acceptability
report and the rating run place every result in the same list.

Reporting windows (§5): a result finished Sep-Nov belongs to the list valid from 1 Jan, Dec-Feb to
1 Apr, Mar-May to 1 Jul, Jun-Aug to 1 Oct. It counts there if reported "at least one month before
the list becomes valid", read literally: reported on or before V - 1 month (1 Dec for 1 Jan;
1 Mar for 1 Apr). A later report rolls over to the period whose window contains the report date.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache

from ratings.engines.core.errors import EngineInputError
from ratings.systems.iccf import calendar as iccf_calendar
from tournaments.acceptability.types import RuleResult, Status, result

TRANSMISSIONS = ("postal", "electronic")
# (moves, days): at least this many days for the first this many moves (rule 1.3)
MIN_REFLECTION = {"postal": (10, 20), "electronic": (50, 150)}
MAX_LATE_LISTED = 50  # late results named in the facts; the count covers all


def _fraction(value: object, where: str) -> Fraction:
    if isinstance(value, bool):
        raise EngineInputError(where, f"must be a number, not {value!r}")
    try:
        # Decimal(repr) keeps 0.1 as 1/10 rather than the binary float
        x = Fraction(Decimal(repr(value))) if isinstance(value, float) else Fraction(value)
    except (TypeError, ValueError, ArithmeticError):
        raise EngineInputError(where, f"must be a number, not {value!r}") from None
    if x < 0:
        raise EngineInputError(where, f"must not be negative, not {value!r}")
    return x


@dataclass(frozen=True)
class IccfTimeControl:
    """base_days up front, plus days_per_block for every block_moves moves (the classic
    "10 moves in 50 days"), plus increment_days per move (Fischer-style "+1 day per move")."""

    base_days: Fraction | int | Decimal = 0
    block_moves: int = 0  # 0 = no block control
    days_per_block: Fraction | int | Decimal = 0
    increment_days: Fraction | int | Decimal = 0

    def __post_init__(self) -> None:
        for name in ("base_days", "days_per_block", "increment_days"):
            object.__setattr__(self, name, _fraction(getattr(self, name), f"time_control.{name}"))
        if self.block_moves < 0 or (self.block_moves == 0 and self.days_per_block):
            raise EngineInputError("time_control.block_moves", "days_per_block needs block_moves")


def reflection_days(tc: IccfTimeControl, moves: int) -> Fraction:
    """Days a player has for his first ``moves`` moves.

    [P] (RULES §6.1): base + moves x increment + the block time pro rata
    (days_per_block x moves / block_moves): the saved time carries over, so a block control is a
    rate. One increment is counted per move made.
    """
    block = tc.days_per_block * moves / tc.block_moves if tc.block_moves else Fraction(0)
    return tc.base_days + tc.increment_days * moves + block


def _days_text(x: Fraction) -> str:
    return str(int(x)) if x.denominator == 1 else f"{float(x):.2f}"


def reflection_rule(transmission: str, tc: IccfTimeControl) -> RuleResult:
    moves, need = MIN_REFLECTION[transmission]
    have = reflection_days(tc, moves)
    ok = have >= need
    return result(
        "ICCF-1.3-TIME",
        "Minimum reflection time",
        Status.PASS if ok else Status.FAIL,
        f"{_days_text(have)} days for the first {moves} moves ({transmission})"
        + ("" if ok else f"; at least {need} are required"),
        transmission=transmission,
        moves=moves,
        days=have,
        required_days=need,
    )


def webserver_rule(transmission: str, administered_on_webserver: bool | None) -> RuleResult:
    rid, title = "ICCF-1.3-WEBSERVER", "Postal event administered on the ICCF webserver"
    if transmission != "postal":
        return result(rid, title, Status.NOT_APPLICABLE, "electronic event (played on the server)")
    if administered_on_webserver is None:
        return result(
            rid,
            title,
            Status.NEEDS_ATTESTATION,
            "the TD or national delegate must confirm that the postal event is administered "
            "on the webserver",
        )
    if administered_on_webserver:
        return result(rid, title, Status.PASS, "postal event administered on the webserver")
    return result(
        rid,
        title,
        Status.FAIL,
        "postal event not administered on the webserver; it cannot be rated",
    )


# --- reporting deadline (rules 3 and 4) -------------------------------------------------------


def list_for_report(reported_on: date) -> date:
    """Validity start of the list a result finished and reported on ``reported_on`` goes into."""
    return iccf_calendar.CALENDAR.period_for(reported_on).valid_from


def reporting_deadline(list_valid_from: date) -> date:
    """Last reporting day for the list valid from ``list_valid_from`` (1 Jan/Apr/Jul/Oct)."""
    if list_valid_from.day != 1 or list_valid_from.month not in (1, 4, 7, 10):
        raise EngineInputError("list_valid_from", f"{list_valid_from} is not a quarter start")
    code = f"{list_valid_from.year}Q{(list_valid_from.month - 1) // 3 + 1}"
    return iccf_calendar.CALENDAR.period_by_code(code).report_deadline


@dataclass(frozen=True)
class Placement:
    list_valid_from: date  # the list the result goes into
    due_list_valid_from: date  # the list it would have gone into if reported on finishing
    late: bool
    message: str


@lru_cache(maxsize=65536)  # pure; events repeat the same (finish, report) pairs many times
def place_result(finished_on: date, reported_on: date) -> Placement:
    """Which list a result finished on one day and reported on another falls into."""
    if reported_on < finished_on:
        raise EngineInputError("reported_on", f"{reported_on} is before the finish {finished_on}")
    due = iccf_calendar.CALENDAR.period_for(finished_on)
    placed = iccf_calendar.period_for_report(reported_on, finished_on=finished_on)
    actual = placed.period.valid_from
    if not placed.late:
        msg = f"reported on {reported_on}: in the list valid from {actual}"
        return Placement(actual, due.valid_from, False, msg)
    msg = (
        f"finished {finished_on}, reported {reported_on}, after the deadline "
        f"{due.report_deadline} for the list valid from {due.valid_from}; rolls over to the list "
        f"valid from {actual}"
    )
    return Placement(actual, due.valid_from, True, msg)


@dataclass(frozen=True)
class IccfGameFacts:
    id: str | int
    finished_on: date | None = None  # None: still in play
    reported_on: date | None = None  # result reported (postal: registered by the TD)


@dataclass(frozen=True)
class IccfEventFacts:
    transmission: str  # "postal" | "electronic"
    time_control: IccfTimeControl
    administered_on_webserver: bool | None = None  # None: not yet confirmed [A]
    games: tuple[IccfGameFacts, ...] = ()

    def __post_init__(self) -> None:
        if self.transmission not in TRANSMISSIONS:
            raise EngineInputError(
                "transmission", f"must be postal or electronic, not {self.transmission!r}"
            )
        object.__setattr__(self, "games", tuple(self.games))
        for i, g in enumerate(self.games):
            if g.reported_on is not None and g.finished_on is None:
                raise EngineInputError(f"games[{i}].finished_on", "a reported game has finished")
            if g.reported_on is not None and g.reported_on < g.finished_on:
                raise EngineInputError(
                    f"games[{i}].reported_on",
                    f"{g.reported_on} is before the finish {g.finished_on}",
                )


def reporting_rule(games: tuple[IccfGameFacts, ...]) -> RuleResult:
    rid, title = "ICCF-3", "Results reported one month before the list (rules 3, 4)"
    reported = [g for g in games if g.reported_on is not None]
    if not reported:
        return result(rid, title, Status.NOT_APPLICABLE, "no results reported yet", lists={})
    late: list[str] = []
    late_count = 0
    counts: dict[date, int] = {}
    for g in reported:
        placement = place_result(g.finished_on, g.reported_on)
        actual = placement.list_valid_from
        counts[actual] = counts.get(actual, 0) + 1
        if placement.late:
            late_count += 1
            if len(late) < MAX_LATE_LISTED:
                late.append(f"game {g.id}: {placement.message}")
    lists = {k.isoformat(): n for k, n in sorted(counts.items())}
    summary = ", ".join(f"{n} in the list valid from {k}" for k, n in sorted(lists.items()))
    if late:
        shown = "; ".join(late[:5]) + (" ..." if len(late) > 5 else "")
        return result(
            rid,
            title,
            Status.WARNING,
            f"{late_count} of {len(reported)} results reported late ({shown}); {summary}",
            lists=lists,
            late=late,
            late_count=late_count,
        )
    return result(
        rid,
        title,
        Status.PASS,
        f"{len(reported)} results reported in time: {summary}",
        lists=lists,
        late=[],
        late_count=0,
    )


def check(f: IccfEventFacts, today: date) -> list[RuleResult]:
    del today  # the ICCF rules here depend only on recorded dates
    return [
        reflection_rule(f.transmission, f.time_control),
        webserver_rule(f.transmission, f.administered_on_webserver),
        reporting_rule(f.games),
    ]


# What the dispatch (tournaments.acceptability) reads. ICCF's webserver confirmation is the
# ``administered_on_webserver`` flag, not an attestation.
FACTS_TYPE = IccfEventFacts
ATTESTATIONS: dict[str, str] = {}
