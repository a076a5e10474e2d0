"""Plain data of the WFCC solvers' engine (RULES §4): what goes in, what comes out.

The Django side builds these directly; ``python -m ratings.engines wfcc`` builds them from JSON.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# A problem scores at most 5 points (R9); partial points have at most two decimals.
MAX_POINTS_PER_PROBLEM = 5
# Below this correlation the regression is recomputed on independently sorted columns (§4.1).
RESORT_BELOW_CORRELATION = 0.6
# Norm levels, highest first: (level, participants' qualifying rating N2/N4, performance N4).
NORM_LEVELS = (("GM", 2550.0, 2650.0), ("IM", 2450.0, 2550.0), ("FM", 2350.0, 2450.0))
# N1: at least this many fully rated solvers from at least this many countries.
N1_MIN_RATED = 15
N1_MIN_COUNTRIES = 3
# N2: at least this many participants with the qualifying rating.
N2_MIN_QUALIFIED = 5


@dataclass(frozen=True)
class WfccParams:
    """Settings of the engine. ``floor`` is WFCC_RATING_FLOOR (§4.3, [P]); None disables it."""

    floor: float | None = 0.0


@dataclass(frozen=True)
class Solver:
    """One participant of the main table.

    ``rating`` is the full rating on the list valid at the tournament start (None: no full
    rating); ``half_ratings`` are the half-ratings of a solver without one (at most one, since
    two make a full rating). ``rounds`` are the round totals in points, ``time`` the time used.
    """

    id: str
    rounds: tuple[float, ...]
    rating: float | None = None
    half_ratings: tuple[float, ...] = ()
    country: str | None = None
    time: float | None = None


@dataclass(frozen=True)
class Tournament:
    """One rated tournament. ``problems``: problems per round (optional; bounds the round scores)."""

    id: str
    kt: float
    solvers: tuple[Solver, ...]
    multi_location: bool = False
    problems: tuple[int, ...] | None = None
    rules: str | None = None  # "W" (WCSC rules) or "O"; known: the result suggests a category
    championship: str | None = None  # WCSC, ECSC, WCSC_TYPE_NORMS, WCCC_OPEN, ECSC_OPEN


@dataclass(frozen=True)
class Line:
    """The regression line of one tournament and how it was reached (§4.1)."""

    rated_solvers: int
    average_rating: float
    average_result: float
    max_rating: float
    correlation: float
    sorted: bool  # CorrCoeff < 0.6: recomputed on sorted columns
    regression_slope: float  # after the re-sort, before the RMAS correction
    regression_intercept: float
    rmas: float
    corrected: bool  # ExpRes(MaxRat) > RMAS: CorrSlope/CorrIntercept used
    slope: float  # the slope used for ExpRes and PerfRat
    intercept: float


@dataclass(frozen=True)
class NormConditions:
    """The tournament's facts for norms (§4.5): N1, N3, and per level the N2 count."""

    rated_solvers: int
    countries: int
    n1: bool
    n3: bool
    qualified: dict[str, int]  # level -> participants with the qualifying rating
    n2: dict[str, bool]


@dataclass(frozen=True)
class SolverResult:
    """One solver after the tournament.

    Rated solver: ``expected``, ``change`` and the new ``rating``. Solver without a full rating:
    ``half_ratings`` including this tournament's, and ``rating`` once two make a full rating.
    ``published_rating`` is the list value (integer, half-up). ``floored`` says that the
    negative-rating floor (§4.3) replaced a value.
    """

    id: str
    place: int
    result: float
    performance: float
    published_rating: int
    norms: tuple[str, ...] = ()
    expected: float | None = None
    change: float | None = None
    rating: float | None = None
    half_ratings: tuple[float, ...] | None = None
    floored: bool = False


@dataclass(frozen=True)
class TournamentResult:
    id: str
    kt: float
    line: Line
    norm_conditions: NormConditions
    solvers: tuple[SolverResult, ...] = field(default_factory=tuple)
    category: str | None = None  # the category the ratings suggest (§4.4), when rules are known


@dataclass(frozen=True)
class SolverExplanation:
    """Everything the "explain my change" page and the what-if calculator show for one solver."""

    id: str
    kt: float
    line: Line
    result: float
    rating: float | None  # the rating used (full rating at the start), None without one
    expected: float | None
    change: float | None
    new_rating: float | None  # NewRat of a rated solver; the full rating two half-ratings make
    performance: float
    floored: bool
    half_ratings: tuple[float, ...] | None = None  # without a full rating: including this one
