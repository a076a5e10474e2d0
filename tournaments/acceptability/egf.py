"""EGF go tournaments: date, minimum time, class from the time control, recognition.

RULES.md §6.2. Adjusted time TA (minutes):
  sudden death      TA = BT
  standard byo-yomi TA = BT + time for 45 moves     (s seconds per move -> 45 s / 60 = 0.75 s)
  Canadian          TA = BT + time for 60 moves     (T minutes for M stones -> 60 T / M)
  Fischer           TA = BT + bonus x 120 moves     (b seconds -> 2 b minutes)
All arithmetic in exact fractions so the boundaries (75, 50, 30 minutes) are exact.

Attestation key: ``EGF-RECOGNIZED`` (recognized as an EGF classified event by an EGF member;
class A: no handicaps in the top group; class D: held by an EGF member organisation on the
Internet with fair play ensured).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from fractions import Fraction

from ratings.engines.core.errors import EngineInputError
from tournaments.acceptability.types import RuleResult, Status, result

SYSTEMS = ("sudden_death", "byoyomi", "canadian", "fischer")
CLASSES = ("A", "B", "C", "D")
OFFLINE_ORDER = ("A", "B", "C")  # best first; D (Internet) is its own kind
# class: (BT minimum, Fischer BT minimum, TA minimum), minutes
MINIMUMS = {"A": (60, 45, 75), "B": (40, 30, 50), "C": (25, 20, 30), "D": (40, 30, 50)}
MIN_RATED_TA = 30  # games with adjusted time under 30 minutes are not rated
FIRST_RATED_DAY = date(1996, 1, 1)
FIRST_INTERNET_DAY = date(2015, 1, 1)  # class D exists since 2015
ATTEST_RECOGNIZED = "EGF-RECOGNIZED"


def _minutes(value: object, where: str) -> Fraction:
    if value is None:
        raise EngineInputError(where, "required for this time system")
    if isinstance(value, bool):
        raise EngineInputError(where, f"must be a number, not {value!r}")
    try:
        x = Fraction(Decimal(repr(value))) if isinstance(value, float) else Fraction(value)
    except (TypeError, ValueError, ArithmeticError):
        raise EngineInputError(where, f"must be a number, not {value!r}") from None
    if x < 0:
        raise EngineInputError(where, f"must not be negative, not {value!r}")
    return x


@dataclass(frozen=True)
class EgfTimeControl:
    system: str  # one of SYSTEMS
    basic_minutes: int | Decimal | Fraction  # BT
    byoyomi_seconds: int | Decimal | Fraction | None = None  # standard: seconds per move
    canadian_minutes: int | Decimal | Fraction | None = None  # Canadian: T minutes ...
    canadian_stones: int | None = None  # ... for M stones
    fischer_bonus_seconds: int | Decimal | Fraction | None = None

    def __post_init__(self) -> None:
        if self.system not in SYSTEMS:
            raise EngineInputError("time_control.system", f"must be one of {SYSTEMS}")
        _minutes(self.basic_minutes, "time_control.basic_minutes")
        if self.system == "byoyomi":
            _minutes(self.byoyomi_seconds, "time_control.byoyomi_seconds")
        elif self.system == "canadian":
            _minutes(self.canadian_minutes, "time_control.canadian_minutes")
            if not isinstance(self.canadian_stones, int) or self.canadian_stones <= 0:
                raise EngineInputError("time_control.canadian_stones", "must be a positive int")
        elif self.system == "fischer":
            _minutes(self.fischer_bonus_seconds, "time_control.fischer_bonus_seconds")


def adjusted_time_minutes(tc: EgfTimeControl) -> Fraction:
    """TA in minutes (exact)."""
    bt = _minutes(tc.basic_minutes, "time_control.basic_minutes")
    if tc.system == "byoyomi":
        return bt + _minutes(tc.byoyomi_seconds, "byoyomi_seconds") * 45 / 60
    if tc.system == "canadian":
        return bt + 60 * _minutes(tc.canadian_minutes, "canadian_minutes") / tc.canadian_stones
    if tc.system == "fischer":
        return bt + _minutes(tc.fischer_bonus_seconds, "fischer_bonus_seconds") * 120 / 60
    return bt


def class_allowed(event_class: str, tc: EgfTimeControl) -> bool:
    """Whether basic and adjusted time reach the minimums of ``event_class``."""
    if event_class not in CLASSES:
        raise EngineInputError("class", f"must be one of {CLASSES}, not {event_class!r}")
    bt_min, fischer_bt_min, ta_min = MINIMUMS[event_class]
    bt = _minutes(tc.basic_minutes, "time_control.basic_minutes")
    need_bt = fischer_bt_min if tc.system == "fischer" else bt_min
    return bt >= need_bt and adjusted_time_minutes(tc) >= ta_min


def highest_offline_class(tc: EgfTimeControl) -> str | None:
    """The best of A, B, C the time control permits, None if none."""
    return next((c for c in OFFLINE_ORDER if class_allowed(c, tc)), None)


def _min_text(x: Fraction) -> str:
    return str(int(x)) if x.denominator == 1 else f"{float(x):.2f}"


@dataclass(frozen=True)
class EgfEventFacts:
    start: date
    end: date
    declared_class: str | None  # CL[...]; None = not declared
    time_control: EgfTimeControl
    attestations: frozenset[str] = field(default_factory=frozenset)

    def __post_init__(self) -> None:
        if self.end < self.start:
            raise EngineInputError("end", f"{self.end} is before the start {self.start}")
        if self.declared_class is not None and self.declared_class not in CLASSES:
            raise EngineInputError("declared_class", f"must be one of {CLASSES} or None")
        object.__setattr__(self, "attestations", frozenset(self.attestations))


def date_rule(f: EgfEventFacts) -> RuleResult:
    ok = f.start >= FIRST_RATED_DAY
    return result(
        "EGF-DATE",
        "Held on or after 1996-01-01",
        Status.PASS if ok else Status.FAIL,
        f"started on {f.start}"
        + ("" if ok else f"; events before {FIRST_RATED_DAY} are not rated"),
        start=f.start,
    )


def time_rule(f: EgfEventFacts) -> RuleResult:
    ta = adjusted_time_minutes(f.time_control)
    ok = ta >= MIN_RATED_TA
    return result(
        "EGF-TIME",
        "Adjusted time at least 30 minutes",
        Status.PASS if ok else Status.FAIL,
        f"adjusted time {_min_text(ta)} minutes"
        + ("" if ok else f"; games under {MIN_RATED_TA} minutes are not rated"),
        adjusted_minutes=ta,
        system=f.time_control.system,
    )


def class_rule(f: EgfEventFacts) -> RuleResult:
    rid, title = "EGF-CLASS", "Declared class permitted by the time control"
    tc = f.time_control
    bt = _minutes(tc.basic_minutes, "time_control.basic_minutes")
    ta = adjusted_time_minutes(tc)
    best = highest_offline_class(tc)
    facts = dict(
        declared=f.declared_class,
        basic_minutes=bt,
        adjusted_minutes=ta,
        system=tc.system,
        highest_offline=best,
        internet_allowed=class_allowed("D", tc),
    )
    times = f"basic time {_min_text(bt)} min, adjusted time {_min_text(ta)} min ({tc.system})"
    permits = f"at most class {best}" if best else "no class"
    if f.declared_class is None:
        return result(
            rid,
            title,
            Status.FAIL,
            f"no class declared; it must be known before the event ({times}: {permits})",
            **facts,
        )
    cls = f.declared_class
    bt_min, fischer_bt_min, ta_min = MINIMUMS[cls]
    need_bt = fischer_bt_min if tc.system == "fischer" else bt_min
    if cls == "D" and f.start < FIRST_INTERNET_DAY:
        return result(
            rid,
            title,
            Status.FAIL,
            f"class D (Internet) exists since {FIRST_INTERNET_DAY}; the event started {f.start}",
            **facts,
        )
    if not class_allowed(cls, tc):
        return result(
            rid,
            title,
            Status.FAIL,
            f"declared class {cls} needs basic time at least {need_bt} min and adjusted time at "
            f"least {ta_min} min; {times} permits "
            + (permits if cls != "D" else "no Internet class"),
            **facts,
        )
    return result(
        rid,
        title,
        Status.PASS,
        f"class {cls}: {times} meets {need_bt} / {ta_min} min",
        **facts,
    )


def recognition_rule(f: EgfEventFacts) -> RuleResult:
    what = "the event is recognized as an EGF classified event by an EGF member"
    if f.declared_class == "A":
        what += ", with no handicaps in the top group"
    elif f.declared_class == "D":
        what += ", held on the Internet by an EGF member organisation with fair play ensured"
    if ATTEST_RECOGNIZED in f.attestations:
        return result(
            "EGF-RECOGNIZED",
            "Recognized EGF classified event",
            Status.PASS,
            f"attested: {what}",
            attestation=ATTEST_RECOGNIZED,
        )
    return result(
        "EGF-RECOGNIZED",
        "Recognized EGF classified event",
        Status.NEEDS_ATTESTATION,
        f"an official must attest that {what}",
        attestation=ATTEST_RECOGNIZED,
    )


def check(f: EgfEventFacts, today: date) -> list[RuleResult]:
    del today  # nothing here depends on the clock
    return [date_rule(f), time_rule(f), class_rule(f), recognition_rule(f)]


# What the dispatch (tournaments.acceptability) reads: the facts this module's rules take, and
# what an official can attest (key -> what he confirms; a missing key gives NEEDS_ATTESTATION).
FACTS_TYPE = EgfEventFacts
ATTESTATIONS: dict[str, str] = {
    ATTEST_RECOGNIZED: "recognized EGF classified event (class conditions met)"
}
