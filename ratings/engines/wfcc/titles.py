"""Solving title proposals (RULES §4.6, T1–T4). Awarding is confirmed by the WFCC [A].

GM: 3 norms, at least one at the WCSC or ECSC, and rating 2550; IM: 2 norms and 2450;
FM: 2 norms and 2350. The rating may be reached at any time (any official list, or the current
rating after a tournament); it is compared as the published integer ([P], half-up).

[P] A norm of a higher level counts for a lower title too: its conditions (N2 count, N4
performance and place) imply those of the lower levels.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ratings.engines.core.errors import EngineInputError
from ratings.engines.core.rounding import half_up_int

LEVELS = ("GM", "IM", "FM")  # highest first


@dataclass(frozen=True)
class TitleRule:
    title: str
    norms: int
    rating: int
    needs_wcsc_or_ecsc: bool


TITLE_RULES = (
    TitleRule("GM", 3, 2550, True),
    TitleRule("IM", 2, 2450, False),
    TitleRule("FM", 2, 2350, False),
)
TITLE_NAMES = {
    "GM": "International Solving Grandmaster of the FIDE",
    "IM": "International Solving Master of the FIDE",
    "FM": "FIDE Solving Master",
}


@dataclass(frozen=True)
class NormRecord:
    """One norm the solver gained: its level and whether it was at a WCSC or ECSC."""

    level: str
    at_wcsc_or_ecsc: bool = False


@dataclass(frozen=True)
class TitleProposal:
    title: str | None  # "GM", "IM", "FM" or None
    reason: str


def propose_title(
    norms: Iterable[NormRecord], best_rating: float, held: str | None = None
) -> TitleProposal:
    """The highest title the norms and the best rating ever reached qualify for.

    ``best_rating``: the best published or current rating (rounded half-up to the integer
    before comparing). ``held``: a title the solver already holds; only a higher one is proposed.
    """
    norms = tuple(norms)
    for i, norm in enumerate(norms):
        if norm.level not in LEVELS:
            raise EngineInputError(f"norms[{i}].level", f"must be GM, IM or FM, not {norm.level!r}")
    if held is not None and held not in LEVELS:
        raise EngineInputError("held", f"must be GM, IM, FM or None, not {held!r}")
    rating = half_up_int(best_rating)
    misses = []
    for rule in TITLE_RULES:
        if held is not None and LEVELS.index(rule.title) >= LEVELS.index(held):
            break
        counted = [n for n in norms if LEVELS.index(n.level) <= LEVELS.index(rule.title)]
        at_championship = sum(1 for n in counted if n.at_wcsc_or_ecsc)
        lacking = []
        if len(counted) < rule.norms:
            lacking.append(f"{rule.norms} {rule.title} norms (has {len(counted)})")
        if rule.needs_wcsc_or_ecsc and at_championship < 1:
            lacking.append("a norm at the WCSC or ECSC (has none)")
        if rating < rule.rating:
            lacking.append(f"rating {rule.rating} (best {rating})")
        if not lacking:
            where = f", {at_championship} at the WCSC or ECSC" if rule.needs_wcsc_or_ecsc else ""
            return TitleProposal(
                rule.title,
                f"{TITLE_NAMES[rule.title]}: {len(counted)} norms of {rule.title} level or "
                f"higher{where} (needs {rule.norms}) and best rating {rating} ≥ {rule.rating}",
            )
        misses.append(f"{rule.title} needs " + " and ".join(lacking))
    if held is not None and not misses:
        return TitleProposal(None, f"already holds {held}, the highest title")
    return TitleProposal(None, "no title: " + "; ".join(misses))
