"""The KT category (RULES §4.4) proposed from the facts; the representative confirms it. The
thresholds live in the engine's categories module."""

from __future__ import annotations

from decimal import Decimal

from ratings.engines.wfcc.categories import O15_RATING, W_THRESHOLDS
from ratings.engines.wfcc.categories import propose_category as engine_proposal
from tournaments.acceptability.types import RuleResult, Status, result
from tournaments.acceptability.wfcc.facts import ATTEST_KT, WfccEventFacts


def propose_category(f: WfccEventFacts) -> tuple[str, Decimal, str]:
    """(category, KT, reason) suggested from the facts; the representative decides [A].

    Counts use full ratings from the list valid at the start (half-rated solvers count as
    unrated, RULES §4.1); countries are those of the full-rated solvers.
    """
    p = engine_proposal(f.rules, f.championship, full_rated_solvers(f))
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


def full_rated_solvers(f: WfccEventFacts) -> list[tuple[float, str | None]]:
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
