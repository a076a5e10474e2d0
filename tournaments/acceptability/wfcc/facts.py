"""What the WFCC rules read about one solving tournament: frozen facts, checked on construction,
and the rulebook's numbers (RULES.md §6.3)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from ratings.engines.core.errors import EngineInputError
from ratings.engines.wfcc.categories import CHAMPIONSHIPS_O, CHAMPIONSHIPS_W

GROUPS = ("twomover", "threemover", "moremover", "endgame", "helpmate", "selfmate", "fairy")

FULL_POINTS = Decimal(5)
MIN_FULL_RATED = 10  # R2
MIN_PROBLEMS = 12  # R4
MIN_GROUPS = 5  # R6
MAX_PER_GROUP = 3  # R7
ANNOUNCE_HARD_DAYS = 7  # R1
ANNOUNCE_MONTHS = 2  # R1 warning, R10
DOC_DAYS, DOC_DAYS_MULTI = 5, 10  # R11
ORIGINAL_AFTER_YEARS = 5  # R3: tournament year - publication year > 5

ATTEST_R3Q, ATTEST_R12, ATTEST_KT = "WFCC-R3Q", "WFCC-R12", "WFCC-KT"


def _decimal(value: object, where: str) -> Decimal:
    # Floats cannot say how many decimals were entered: points must come as Decimal/int/str.
    if isinstance(value, bool | float):
        raise EngineInputError(where, f"must be a Decimal, int or str, not {value!r}")
    try:
        number = Decimal(value) if not isinstance(value, Decimal) else value
    except Exception:
        raise EngineInputError(where, f"not a number: {value!r}") from None
    if not number.is_finite():
        raise EngineInputError(where, f"must be finite, not {value!r}")
    return number


@dataclass(frozen=True)
class ProblemFacts:
    round: int
    number: int  # as printed in its round
    group: str  # one of GROUPS (R5); anything else fails R5
    original: bool
    first_published_year: int | None = None  # None for originals
    max_points: Decimal = FULL_POINTS  # what a full solution scores (R9: must be 5)

    def __post_init__(self) -> None:
        object.__setattr__(self, "max_points", _decimal(self.max_points, "problem.max_points"))
        if not self.original and self.first_published_year is None:
            raise EngineInputError(
                f"problems[{self.round}.{self.number}]",
                "a problem that is not original needs first_published_year",
            )


@dataclass(frozen=True)
class SolverFacts:
    id: str | int
    country: str  # ISO code; counts countries for O15 and N1
    full_rating: float | int | Decimal | None = None  # list valid at start; None = unrated/half


@dataclass(frozen=True)
class RoundFacts:
    number: int
    held_on: date


@dataclass(frozen=True)
class ScoreFacts:
    solver_id: str | int
    round: int
    problem_number: int
    points: Decimal

    def __post_init__(self) -> None:
        object.__setattr__(self, "points", _decimal(self.points, "score.points"))


@dataclass(frozen=True)
class WfccEventFacts:
    """What the WFCC rules need to know about one solving tournament (main table only).

    ``championship`` is one of CHAMPIONSHIPS_W (rules must be "W") or CHAMPIONSHIPS_O (rules "O"),
    or None. ``rules`` is "W" (organised under WCSC rules) or "O" (other rules).
    """

    start: date
    end: date
    rules: str
    announced_on: date | None = None  # reported to the WFCC representative (R1)
    documentation_sent_on: date | None = None  # full documentation received (R11)
    fairy_announced_on: date | None = None  # fairy elements announced (R10)
    multi_location: bool = False
    championship: str | None = None
    rounds: tuple[RoundFacts, ...] = ()
    problems: tuple[ProblemFacts, ...] = ()
    solvers: tuple[SolverFacts, ...] = ()
    scores: tuple[ScoreFacts, ...] = ()
    attestations: frozenset[str] = field(default_factory=frozenset)

    def __post_init__(self) -> None:
        for name in ("rounds", "problems", "solvers", "scores"):
            object.__setattr__(self, name, tuple(getattr(self, name)))
        object.__setattr__(self, "attestations", frozenset(self.attestations))
        if self.end < self.start:
            raise EngineInputError("end", f"{self.end} is before the start {self.start}")
        if self.rules not in ("W", "O"):
            raise EngineInputError("rules", f"must be 'W' or 'O', not {self.rules!r}")
        if self.championship is not None:
            expected = "W" if self.championship in CHAMPIONSHIPS_W else "O"
            if self.championship not in CHAMPIONSHIPS_W + CHAMPIONSHIPS_O:
                raise EngineInputError("championship", f"unknown: {self.championship!r}")
            if self.rules != expected:
                raise EngineInputError(
                    "championship", f"{self.championship} is held under rules {expected!r}"
                )

    def full_ratings(self) -> list[float]:
        return [float(s.full_rating) for s in self.solvers if s.full_rating is not None]
