"""Solving norms of one rated tournament (RULES §4.5, N1–N4).

N1–N3 are facts of the tournament; N4 is per solver (performance and place). The levels nest
(a GM norm's conditions imply the IM and FM ones), so a solver is credited with his highest level.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from ratings.engines.wfcc.types import (
    N1_MIN_COUNTRIES,
    N1_MIN_RATED,
    N2_MIN_QUALIFIED,
    NORM_LEVELS,
    NormConditions,
    Tournament,
)


def norm_conditions(tournament: Tournament) -> NormConditions:
    """N1 (≥ 15 fully rated solvers from ≥ 3 countries), N2 counts per level, N3 (one location).

    Ratings are those of the list used for the tournament; half-rated solvers count as unrated
    ([P], as in R2). Countries are counted among the fully rated solvers.
    """
    rated = [s for s in tournament.solvers if s.rating is not None]
    countries = rated_countries(s.country for s in rated)
    qualified = qualified_counts([s.rating for s in rated])
    return NormConditions(
        rated_solvers=len(rated),
        countries=countries,
        n1=n1_holds(len(rated), countries),
        n3=not tournament.multi_location,
        qualified=qualified,
        n2=n2_levels(qualified),
    )


def rated_countries(countries: Iterable[str | None]) -> int:
    """How many countries the fully rated solvers come from (N1, O15). A solver whose country is
    unknown (None or empty) is counted as a rated solver but adds no country: RULES §4.5 asks
    for solvers "from >= 3 countries", and an unknown country cannot be shown to be a new one."""
    return len({c for c in countries if c})


def n1_holds(rated_solvers: int, countries: int) -> bool:
    """N1: at least 15 solvers with a full rating, from at least 3 countries."""
    return rated_solvers >= N1_MIN_RATED and countries >= N1_MIN_COUNTRIES


def qualified_counts(full_ratings: Iterable[float]) -> dict[str, int]:
    """N2: per level, the participants rated at least its qualifying rating."""
    ratings = list(full_ratings)
    return {level: sum(1 for r in ratings if r >= q) for level, q, _ in NORM_LEVELS}


def n2_levels(qualified: dict[str, int]) -> dict[str, bool]:
    """N2 per level: at least 5 participants with the qualifying rating."""
    return {level: count >= N2_MIN_QUALIFIED for level, count in qualified.items()}


def norms(
    conditions: NormConditions, performance: np.ndarray, place: np.ndarray
) -> list[tuple[str, ...]]:
    """N4 for every solver: performance ≥ 2650/2550/2450 and place ≤ the qualified count."""
    gained = np.full(len(performance), "", dtype=object)
    if conditions.n1 and conditions.n3:
        # Lowest level first, so a higher level overwrites it.
        for level, _, min_performance in reversed(NORM_LEVELS):
            if not conditions.n2[level]:
                continue
            ok = (performance >= min_performance) & (place <= conditions.qualified[level])
            gained[ok] = level
    return [(level,) if level else () for level in gained]
