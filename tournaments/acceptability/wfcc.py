"""WFCC solving tournaments: acceptability R1-R12, the KT category proposal and norms N1-N3.

RULES.md §6.3 (R1-R12), §4.4 (KT), §4.5 (N1-N3). Plain facts in, ``RuleResult`` list out.

Attestation keys (recorded by an official; the selector puts them in ``attestations``):
``WFCC-R3Q`` problem quality/theme/difficulty/styles, ``WFCC-R12`` sheets kept 4 weeks,
``WFCC-KT`` the representative confirmed the tournament coefficient.

Dates that the representative records (announcement, fairy announcement, documentation
received) are the "+ [A]" part of R1, R10, R11: while a date is missing and its deadline has not
passed the rule NEEDS_ATTESTATION; once the deadline has passed it FAILs.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal

from ratings.engines.core.errors import EngineInputError
from ratings.engines.core.months import add_months
from ratings.engines.wfcc.categories import (
    CHAMPIONSHIPS_O,
    CHAMPIONSHIPS_W,
    O15_RATING,
    W_THRESHOLDS,
)
from ratings.engines.wfcc.categories import propose_category as engine_proposal
from ratings.engines.wfcc.norms import (
    n1_holds,
    n2_levels,
    qualified_counts,
    rated_countries,
)
from ratings.engines.wfcc.types import N1_MIN_COUNTRIES, N1_MIN_RATED, NORM_LEVELS
from tournaments.acceptability.types import RuleResult, Status, plural, result

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


# --- R1-R12 -----------------------------------------------------------------------------------


def _dated_deadline(
    rule_id: str,
    title: str,
    what: str,
    on: date | None,
    deadline: date,
    today: date,
    *,
    relation: str,
) -> RuleResult | None:
    """The common "date + [A]" part: None when the date is present (the caller judges it)."""
    if on is not None:
        return None
    if today <= deadline:
        return result(
            rule_id,
            title,
            Status.NEEDS_ATTESTATION,
            f"{what} not yet recorded; it is due by {deadline} ({relation})",
            deadline=deadline,
            today=today,
        )
    return result(
        rule_id,
        title,
        Status.FAIL,
        f"{what} not recorded and the deadline {deadline} ({relation}) has passed",
        deadline=deadline,
        today=today,
    )


def r1_announcement(f: WfccEventFacts, today: date) -> RuleResult:
    rid, title = "WFCC-R1", "Announced to the WFCC representative in time"
    hard = f.start - timedelta(days=ANNOUNCE_HARD_DAYS)
    soft = add_months(f.start, -ANNOUNCE_MONTHS)
    missing = _dated_deadline(
        rid,
        title,
        "the announcement",
        f.announced_on,
        hard,
        today,
        relation=f"{ANNOUNCE_HARD_DAYS} days before the start on {f.start}",
    )
    if missing:
        return missing
    days = (f.start - f.announced_on).days
    facts = dict(announced_on=f.announced_on, start=f.start, days_before=days, two_months=soft)
    if f.announced_on > hard:
        return result(
            rid,
            title,
            Status.FAIL,
            f"announced {plural(days, 'day')} before the start on {f.start}; "
            f"at least {ANNOUNCE_HARD_DAYS} are required",
            **facts,
        )
    if f.announced_on > soft:
        return result(
            rid,
            title,
            Status.WARNING,
            f"announced {plural(days, 'day')} before the start on {f.start}, after {soft}; "
            f"the rules ask for at least two months",
            **facts,
        )
    return result(
        rid,
        title,
        Status.PASS,
        f"announced {plural(days, 'day')} before the start on {f.start}",
        **facts,
    )


def r2_full_rated(f: WfccEventFacts) -> RuleResult:
    n = len(f.full_ratings())
    ok = n >= MIN_FULL_RATED
    return result(
        "WFCC-R2",
        "Solvers with a full rating",
        Status.PASS if ok else Status.FAIL,
        f"{n} solvers with a full rating"
        + ("" if ok else f"; at least {MIN_FULL_RATED} are required"),
        full_rated=n,
        solvers=len(f.solvers),
    )


def r3_publication(f: WfccEventFacts) -> RuleResult:
    year = f.start.year
    too_recent = [
        p
        for p in f.problems
        if not p.original and year - p.first_published_year <= ORIGINAL_AFTER_YEARS
    ]
    labels = [f"{p.round}.{p.number} ({p.first_published_year})" for p in too_recent]
    facts = dict(tournament_year=year, too_recent=labels, problems=len(f.problems))
    if too_recent:
        return result(
            "WFCC-R3",
            "Problems original or published more than 5 years before",
            Status.FAIL,
            f"{plural(len(too_recent), 'problem')} first published {ORIGINAL_AFTER_YEARS} or fewer "
            f"calendar years before {year}: {', '.join(labels)}; they must be originals or "
            f"published in {year - ORIGINAL_AFTER_YEARS - 1} or earlier",
            **facts,
        )
    return result(
        "WFCC-R3",
        "Problems original or published more than 5 years before",
        Status.PASS,
        f"all {len(f.problems)} problems are originals or published in "
        f"{year - ORIGINAL_AFTER_YEARS - 1} or earlier",
        **facts,
    )


def _attested(rule_id: str, title: str, key: str, f_attest: frozenset[str], what: str):
    if key in f_attest:
        return result(rule_id, title, Status.PASS, f"attested: {what}", attestation=key)
    return result(
        rule_id,
        title,
        Status.NEEDS_ATTESTATION,
        f"an official must attest that {what}",
        attestation=key,
    )


def r3_quality(f: WfccEventFacts) -> RuleResult:
    return _attested(
        "WFCC-R3Q",
        "Problem selection: theme, quality, difficulty, styles",
        ATTEST_R3Q,
        f.attestations,
        "the problems show a clear theme, good quality and difficulty, and different styles",
    )


def r4_problem_count(f: WfccEventFacts) -> RuleResult:
    n = len(f.problems)
    ok = n >= MIN_PROBLEMS
    return result(
        "WFCC-R4",
        "Number of problems",
        Status.PASS if ok else Status.FAIL,
        f"{n} problems" + ("" if ok else f"; at least {MIN_PROBLEMS} are required"),
        problems=n,
    )


def r5_groups_known(f: WfccEventFacts) -> RuleResult:
    bad = [f"{p.round}.{p.number} ({p.group})" for p in f.problems if p.group not in GROUPS]
    if bad:
        return result(
            "WFCC-R5",
            "Problems from the seven groups",
            Status.FAIL,
            f"{plural(len(bad), 'problem')} outside the seven groups: {', '.join(bad)}; "
            f"allowed: {', '.join(GROUPS)}",
            outside=bad,
        )
    return result(
        "WFCC-R5",
        "Problems from the seven groups",
        Status.PASS,
        f"all {len(f.problems)} problems belong to the seven groups",
        outside=[],
    )


def _group_counts(f: WfccEventFacts) -> Counter[str]:
    return Counter(p.group for p in f.problems if p.group in GROUPS)


def r6_groups_represented(f: WfccEventFacts) -> RuleResult:
    counts = _group_counts(f)
    n = len(counts)
    ok = n >= MIN_GROUPS
    return result(
        "WFCC-R6",
        "Groups represented",
        Status.PASS if ok else Status.FAIL,
        f"{n} groups represented ({', '.join(g for g in GROUPS if g in counts) or 'none'})"
        + ("" if ok else f"; at least {MIN_GROUPS} are required"),
        groups=dict(counts),
    )


def _group_plural(group: str) -> str:
    return "fairy problems" if group == "fairy" else group + "s"


def r7_per_group(f: WfccEventFacts) -> RuleResult:
    counts = _group_counts(f)
    over = {g: n for g, n in counts.items() if n > MAX_PER_GROUP}
    if over:
        worst = "; ".join(f"{n} {_group_plural(g)}" for g, n in sorted(over.items()))
        return result(
            "WFCC-R7",
            "At most 3 problems per group",
            Status.FAIL,
            f"{worst}; at most {MAX_PER_GROUP} problems per group are allowed",
            groups=dict(counts),
        )
    most = max(counts.values(), default=0)
    return result(
        "WFCC-R7",
        "At most 3 problems per group",
        Status.PASS,
        f"at most {most} problems in any group",
        groups=dict(counts),
    )


def r8_rounds(f: WfccEventFacts) -> RuleResult:
    """Rounds and days: dated within the event, each with problems and recorded scores (RMAS).

    Also checks that every score names a known problem and solver, since RMAS and the engine's
    totals are built from them.
    """
    problems: list[str] = []
    numbers = [r.number for r in f.rounds]
    if not f.rounds:
        problems.append("no rounds recorded")
    dupes = sorted(n for n, c in Counter(numbers).items() if c > 1)
    if dupes:
        problems.append(f"round numbers used twice: {dupes}")
    for r in f.rounds:
        if not f.start <= r.held_on <= f.end:
            problems.append(f"round {r.number} on {r.held_on} is outside {f.start}..{f.end}")
    declared = set(numbers)
    orphan = sorted({p.round for p in f.problems} - declared)
    if orphan:
        problems.append(f"problems in undeclared rounds {orphan}")
    no_problems = sorted(declared - {p.round for p in f.problems})
    if no_problems:
        problems.append(f"rounds without problems {no_problems}")
    no_scores = sorted(declared - {s.round for s in f.scores})
    if no_scores:
        problems.append(f"rounds without recorded scores {no_scores}")
    known_problems = {(p.round, p.number) for p in f.problems}
    stray = sorted({(s.round, s.problem_number) for s in f.scores} - known_problems)
    if stray:
        problems.append(f"scores for unknown problems {[f'{r}.{n}' for r, n in stray]}")
    known_solvers = {s.id for s in f.solvers}
    strangers = sorted({str(s.solver_id) for s in f.scores if s.solver_id not in known_solvers})
    if strangers:
        problems.append(f"scores for unknown solvers {strangers}")
    days = len({r.held_on for r in f.rounds})
    facts = dict(rounds=sorted(declared), days=days)
    if problems:
        return result(
            "WFCC-R8", "Rounds and days", Status.FAIL, "; ".join(problems), issues=problems, **facts
        )
    return result(
        "WFCC-R8",
        "Rounds and days",
        Status.PASS,
        f"{plural(len(f.rounds), 'round')} on {plural(days, 'day')}, each with problems and per-round scores",
        **facts,
    )


def _two_decimals(x: Decimal) -> bool:
    return x == x.quantize(Decimal("0.01"))


def r9_points(f: WfccEventFacts) -> RuleResult:
    bad_max = [
        f"{p.round}.{p.number} worth {p.max_points}"
        for p in f.problems
        if p.max_points != FULL_POINTS
    ]
    bad_scores = [
        f"{s.points} for solver {s.solver_id} on {s.round}.{s.problem_number}"
        for s in f.scores
        if not (0 <= s.points <= FULL_POINTS and _two_decimals(s.points))
    ]
    issues = []
    if bad_max:
        issues.append(f"a full solution must score 5 points: {', '.join(bad_max)}")
    if bad_scores:
        shown = ", ".join(bad_scores[:5]) + (" ..." if len(bad_scores) > 5 else "")
        issues.append(
            f"{plural(len(bad_scores), 'score')} outside 0..5 points or with more than two decimals: {shown}"
        )
    facts = dict(bad_problems=bad_max, bad_scores=bad_scores[:20], scores=len(f.scores))
    if issues:
        return result("WFCC-R9", "Points per problem", Status.FAIL, "; ".join(issues), **facts)
    return result(
        "WFCC-R9",
        "Points per problem",
        Status.PASS,
        f"every problem scores 5 points; all {len(f.scores)} scores in 0..5 with at most two "
        "decimals",
        **facts,
    )


def r10_fairy(f: WfccEventFacts, today: date) -> RuleResult:
    rid, title = "WFCC-R10", "Fairy elements announced two months before"
    fairy = [f"{p.round}.{p.number}" for p in f.problems if p.group == "fairy"]
    if not fairy:
        return result(rid, title, Status.NOT_APPLICABLE, "no fairy problems", fairy=[])
    deadline = add_months(f.start, -ANNOUNCE_MONTHS)
    missing = _dated_deadline(
        rid,
        title,
        "the announcement of the fairy elements",
        f.fairy_announced_on,
        deadline,
        today,
        relation=f"two months before the start on {f.start}",
    )
    if missing:
        return missing
    facts = dict(fairy=fairy, fairy_announced_on=f.fairy_announced_on, deadline=deadline)
    if f.fairy_announced_on > deadline:
        return result(
            rid,
            title,
            Status.FAIL,
            f"fairy elements announced on {f.fairy_announced_on}, after {deadline} "
            f"(two months before the start on {f.start})",
            **facts,
        )
    return result(
        rid,
        title,
        Status.PASS,
        f"fairy elements announced on {f.fairy_announced_on}, by {deadline}",
        **facts,
    )


def r11_documentation(f: WfccEventFacts, today: date) -> RuleResult:
    rid, title = "WFCC-R11", "Documentation sent in time"
    allowed = DOC_DAYS_MULTI if f.multi_location else DOC_DAYS
    deadline = f.end + timedelta(days=allowed)
    kind = "multi-location tournament" if f.multi_location else "tournament"
    relation = f"{allowed} days after the end on {f.end} for a {kind}"
    missing = _dated_deadline(
        rid, title, "the documentation", f.documentation_sent_on, deadline, today, relation=relation
    )
    if missing:
        return missing
    days = (f.documentation_sent_on - f.end).days
    facts = dict(sent_on=f.documentation_sent_on, end=f.end, days_after=days, allowed=allowed)
    if f.documentation_sent_on > deadline:
        return result(
            rid,
            title,
            Status.FAIL,
            f"documentation sent {plural(days, 'day')} after the end; at most {allowed} are allowed "
            f"for a {kind}",
            **facts,
        )
    return result(
        rid,
        title,
        Status.PASS,
        f"documentation sent {plural(days, 'day')} after the end (at most {allowed} for a {kind})",
        **facts,
    )


def r12_sheets(f: WfccEventFacts) -> RuleResult:
    return _attested(
        "WFCC-R12",
        "Solving sheets kept 4 weeks",
        ATTEST_R12,
        f.attestations,
        "the tournament director keeps the solving sheets for at least 4 weeks",
    )


# --- KT category (§4.4): the thresholds live in the engine's categories module ---------------


def propose_category(f: WfccEventFacts) -> tuple[str, Decimal, str]:
    """(category, KT, reason) suggested from the facts; the representative decides [A].

    Counts use full ratings from the list valid at the start (half-rated solvers count as
    unrated, RULES §4.1); countries are those of the full-rated solvers.
    """
    p = engine_proposal(f.rules, f.championship, _full_rated(f))
    if p.code in ("W40", "W30", "O20"):
        names = {"W30": "WCSC-type tournament for norms", "O20": _open_name(f.championship)}
        return p.code, p.kt, names.get(p.code, f.championship or "")
    if f.rules == "W":
        for code, threshold in W_THRESHOLDS:
            if code == p.code:
                n = p.at_least[threshold]
                return code, p.kt, f"{n} solvers rated {threshold:g} or higher (at least 5)"
        best = p.at_least[W_THRESHOLDS[-1][1]]
        return p.code, p.kt, f"under WCSC rules; {best} solvers rated 2100 or higher (W15 needs 5)"
    strong = p.at_least[O15_RATING]
    numbers = (
        f"{p.rated} rated solvers from {p.countries} countries, {strong} rated "
        f"{O15_RATING:g} or higher"
    )
    if p.code == "O15":
        return p.code, p.kt, numbers
    return p.code, p.kt, numbers + " (O15 needs 15 from 3 countries and 5)"


def _open_name(championship: str | None) -> str:
    return "WCCC Open" if championship == "WCCC_OPEN" else "ECSC Open"


def _full_rated(f: WfccEventFacts) -> list[tuple[float, str | None]]:
    return [(float(s.full_rating), s.country) for s in f.solvers if s.full_rating is not None]


def kt_rule(f: WfccEventFacts) -> RuleResult:
    code, kt, reason = propose_category(f)
    facts = dict(category=code, kt=kt, reason=reason, attestation=ATTEST_KT)
    if ATTEST_KT in f.attestations:
        return result(
            "WFCC-KT",
            "Tournament coefficient",
            Status.PASS,
            f"proposed {code} (KT {kt}): {reason}; confirmed by the representative",
            **facts,
        )
    return result(
        "WFCC-KT",
        "Tournament coefficient",
        Status.NEEDS_ATTESTATION,
        f"proposed {code} (KT {kt}): {reason}; the representative must confirm the category",
        **facts,
    )


# --- Norm conditions N1-N3 (§4.5): never block acceptance, only say whether norms are possible --


def n1_rated_countries(f: WfccEventFacts) -> RuleResult:
    full_rated = _full_rated(f)
    rated, countries = len(full_rated), rated_countries(c for _, c in full_rated)
    ok = n1_holds(rated, countries)
    msg = f"{rated} solvers with a full rating from {countries} countries"
    if not ok:
        msg += f"; norms need at least {N1_MIN_RATED} from at least {N1_MIN_COUNTRIES} countries"
    return result(
        "WFCC-N1",
        "Norms: full-rated solvers and countries",
        Status.PASS if ok else Status.WARNING,
        msg,
        full_rated=rated,
        countries=countries,
    )


def norm_levels_by_rating(f: WfccEventFacts) -> list[str]:
    """Titles whose N2 condition holds: at least 5 participants at the qualifying rating."""
    n2 = n2_levels(qualified_counts(f.full_ratings()))
    return [level for level, _, _ in NORM_LEVELS if n2[level]]


def n2_strong_participants(f: WfccEventFacts) -> RuleResult:
    counts = qualified_counts(f.full_ratings())
    levels = norm_levels_by_rating(f)
    parts = ", ".join(f"{counts[t]} rated {q:g}+ ({t})" for t, q, _ in NORM_LEVELS)
    msg = f"{parts}; " + (
        f"{'/'.join(levels)} norms possible" if levels else "no norm level has 5 such solvers"
    )
    return result(
        "WFCC-N2",
        "Norms: participants at the qualifying rating",
        Status.PASS if levels else Status.WARNING,
        msg,
        counts=counts,
        levels=levels,
    )


def n3_single_location(f: WfccEventFacts) -> RuleResult:
    if f.multi_location:
        return result(
            "WFCC-N3",
            "Norms: single location",
            Status.WARNING,
            "multi-location tournament: no norms can be gained",
            multi_location=True,
        )
    return result(
        "WFCC-N3", "Norms: single location", Status.PASS, "single location", multi_location=False
    )


def norms_possible(f: WfccEventFacts) -> list[str]:
    """Titles (GM/IM/FM) for which N1-N3 all hold; N4 is per solver, after rating."""
    if any(r.status is not Status.PASS for r in (n1_rated_countries(f), n3_single_location(f))):
        return []
    return norm_levels_by_rating(f)


def check(f: WfccEventFacts, today: date) -> list[RuleResult]:
    return [
        r1_announcement(f, today),
        r2_full_rated(f),
        r3_publication(f),
        r3_quality(f),
        r4_problem_count(f),
        r5_groups_known(f),
        r6_groups_represented(f),
        r7_per_group(f),
        r8_rounds(f),
        r9_points(f),
        r10_fairy(f, today),
        r11_documentation(f, today),
        r12_sheets(f),
        kt_rule(f),
        n1_rated_countries(f),
        n2_strong_participants(f),
        n3_single_location(f),
    ]


# What the dispatch (tournaments.acceptability) reads: the facts this module's rules take, and
# what an official can attest (key -> what he confirms; a missing key gives NEEDS_ATTESTATION).
FACTS_TYPE = WfccEventFacts
ATTESTATIONS: dict[str, str] = {
    ATTEST_R3Q: "problems show a clear theme, good quality and difficulty, different styles",
    ATTEST_R12: "the tournament director keeps the solving sheets for at least 4 weeks",
    ATTEST_KT: "the representative confirmed the tournament category and KT",
}
