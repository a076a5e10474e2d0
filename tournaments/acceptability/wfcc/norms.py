"""Norm conditions N1-N3 (RULES §4.5): they never block acceptance, they only say whether norms
can be gained."""

from __future__ import annotations

from ratings.engines.wfcc.norms import n1_holds, n2_levels, qualified_counts, rated_countries
from ratings.engines.wfcc.types import N1_MIN_COUNTRIES, N1_MIN_RATED, NORM_LEVELS
from tournaments.acceptability.types import RuleResult, Status, result
from tournaments.acceptability.wfcc.category import full_rated_solvers
from tournaments.acceptability.wfcc.facts import WfccEventFacts


def n1_rated_countries(f: WfccEventFacts) -> RuleResult:
    full_rated = full_rated_solvers(f)
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
