"""Tournament categories and their coefficient KT (RULES §4.4, Annex): the one home of the
thresholds. The acceptability check (which phrases the proposal for the representative) and the
engine (which suggests a category with its result) both call ``propose_category``; the
representative decides [A].
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal

from ratings.engines.wfcc.norms import n1_holds, rated_countries

CATEGORY_KT: Mapping[str, Decimal] = {
    "W40": Decimal("4"),
    "W30": Decimal("3"),
    "W25": Decimal("2.5"),
    "W20": Decimal("2"),
    "W15": Decimal("1.5"),
    "W10": Decimal("1"),
    "O20": Decimal("2"),
    "O15": Decimal("1.5"),
    "O10": Decimal("1"),
}
# The coefficients the representative may choose.
KT_VALUES = tuple(sorted({float(kt) for kt in CATEGORY_KT.values()}))
RULES = ("W", "O")  # organised under WCSC rules, or other rules
CHAMPIONSHIPS_W = ("WCSC", "ECSC", "WCSC_TYPE_NORMS")  # organised under WCSC rules
CHAMPIONSHIPS_O = ("WCCC_OPEN", "ECSC_OPEN")  # open tournaments: other rules
# W25/W20/W15: at least W_MIN_STRONG solvers rated at least the threshold, strongest first.
W_THRESHOLDS = (("W25", 2300.0), ("W20", 2200.0), ("W15", 2100.0))
W_MIN_STRONG = 5
# O15: N1 (15 fully rated solvers from 3 countries) and O15_MIN_STRONG rated O15_RATING or more.
O15_RATING = 2350.0
O15_MIN_STRONG = 5


@dataclass(frozen=True)
class CategoryProposal:
    """The suggested category and the counts it rests on (full ratings of the list at the
    start; half-rated solvers count as unrated, RULES §4.1)."""

    code: str
    rated: int
    countries: int
    at_least: Mapping[float, int]  # threshold -> solvers rated at least that

    @property
    def kt(self) -> Decimal:
        return CATEGORY_KT[self.code]


def _at_least(ratings: Sequence[float], threshold: float) -> int:
    return sum(1 for r in ratings if r >= threshold)


def propose_category(
    rules: str, championship: str | None, full_rated: Sequence[tuple[float, str | None]]
) -> CategoryProposal:
    """The category the facts suggest. ``full_rated``: (full rating, country or None) of each
    solver with a full rating."""
    ratings = [float(r) for r, _ in full_rated]
    thresholds = [t for _, t in W_THRESHOLDS] + [O15_RATING]
    counts = {t: _at_least(ratings, t) for t in thresholds}
    countries = rated_countries(c for _, c in full_rated)

    def proposal(code: str) -> CategoryProposal:
        return CategoryProposal(code, len(ratings), countries, counts)

    if rules == "W":
        if championship in ("WCSC", "ECSC"):
            return proposal("W40")
        if championship == "WCSC_TYPE_NORMS":
            return proposal("W30")
        for code, threshold in W_THRESHOLDS:
            if counts[threshold] >= W_MIN_STRONG:
                return proposal(code)
        return proposal("W10")
    if championship in CHAMPIONSHIPS_O:
        return proposal("O20")
    if n1_holds(len(ratings), countries) and counts[O15_RATING] >= O15_MIN_STRONG:
        return proposal("O15")
    return proposal("O10")
