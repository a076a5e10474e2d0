"""A WFCC tournament that satisfies every rule, to be varied one fact at a time by the tests."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from decimal import Decimal

from tournaments.acceptability.wfcc import (
    ProblemFacts,
    RoundFacts,
    ScoreFacts,
    SolverFacts,
    WfccEventFacts,
)

START = date(2026, 5, 16)
TODAY = date(2026, 6, 30)
SIX_GROUPS = ("twomover", "threemover", "moremover", "endgame", "helpmate", "selfmate")


def problems(groups: list[str], *, per_round: int = 6) -> list[ProblemFacts]:
    return [
        ProblemFacts(round=1 + i // per_round, number=1 + i % per_round, group=g, original=True)
        for i, g in enumerate(groups)
    ]


def solvers(ratings: list[float | None], countries: list[str] | None = None) -> list[SolverFacts]:
    countries = countries or ["CZ", "DE", "SRB", "GB"]
    return [
        SolverFacts(id=i + 1, country=countries[i % len(countries)], full_rating=r)
        for i, r in enumerate(ratings)
    ]


def scores(probs: list[ProblemFacts], n_solvers: int) -> list[ScoreFacts]:
    return [
        ScoreFacts(s + 1, p.round, p.number, Decimal("5") if (s + p.number) % 2 else Decimal("2.5"))
        for s in range(n_solvers)
        for p in probs
    ]


def passing_event(**changes) -> WfccEventFacts:
    probs = problems([g for g in SIX_GROUPS for _ in range(2)])  # 12 problems, 6 groups x 2
    event = WfccEventFacts(
        start=START,
        end=START,
        rules="W",
        announced_on=date(2026, 3, 1),
        documentation_sent_on=date(2026, 5, 18),
        rounds=(RoundFacts(1, START), RoundFacts(2, START)),
        problems=tuple(probs),
        solvers=tuple(solvers([2000 + 10 * i for i in range(12)])),
        scores=tuple(scores(probs, 12)),
        attestations=frozenset({"WFCC-R3Q", "WFCC-R12", "WFCC-KT"}),
    )
    return replace(event, **changes)
