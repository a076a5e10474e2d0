"""Acceptability checks on large synthetic events, timed next to building their facts.

The comparison is the cost the Django selector pays anyway (constructing the frozen facts from
plain rows): the checks should be of the same order or cheaper, so the panel and `check_event`
never need caching. Seeded, so every run measures the same inputs.
"""

from __future__ import annotations

import random
import time
from datetime import date, timedelta
from decimal import Decimal

from tests.benchmarks.report import emit
from tournaments.acceptability import check_event
from tournaments.acceptability.iccf import IccfEventFacts, IccfGameFacts, IccfTimeControl
from tournaments.acceptability.playchess import PlaychessEventFacts, PlaychessGameFacts
from tournaments.acceptability.wfcc import (
    GROUPS,
    ProblemFacts,
    RoundFacts,
    ScoreFacts,
    SolverFacts,
    WfccEventFacts,
)

TODAY = date(2027, 1, 10)


def _best_of(fn, repeats=5):
    best = float("inf")
    value = None
    for _ in range(repeats):
        t0 = time.perf_counter()
        value = fn()
        best = min(best, time.perf_counter() - t0)
    return best, value


def _wfcc_rows(rng, n_solvers=500, n_rounds=6, per_round=6):
    start = date(2026, 5, 16)
    problems = [
        (r, n, GROUPS[(r * per_round + n) % 7]) for r in range(1, n_rounds + 1)
        for n in range(1, per_round + 1)
    ]  # fmt: skip
    solvers = [
        (i, f"C{i % 20}", rng.choice([None, rng.uniform(1500, 2700)])) for i in range(n_solvers)
    ]
    scores = [
        (s, r, n, f"{rng.randrange(0, 501) / 100:.2f}") for s in range(n_solvers)
        for r, n, _ in problems
    ]  # fmt: skip
    return start, n_rounds, problems, solvers, scores


def _wfcc_facts(rows):
    start, n_rounds, problems, solvers, scores = rows
    return WfccEventFacts(
        start=start,
        end=start + timedelta(days=1),
        rules="W",
        announced_on=start - timedelta(days=70),
        documentation_sent_on=start + timedelta(days=3),
        rounds=[RoundFacts(r, start + timedelta(days=r % 2)) for r in range(1, n_rounds + 1)],
        problems=[ProblemFacts(r, n, g, True) for r, n, g in problems],
        solvers=[SolverFacts(i, c, rt) for i, c, rt in solvers],
        scores=[ScoreFacts(s, r, n, Decimal(p)) for s, r, n, p in scores],
        attestations={"WFCC-R3Q", "WFCC-R12", "WFCC-KT"},
    )


def _iccf_facts(rows):
    return IccfEventFacts(
        "electronic",
        IccfTimeControl(block_moves=10, days_per_block=50),
        games=[IccfGameFacts(i, f, r) for i, f, r in rows],
    )


def _playchess_facts(rows):
    return PlaychessEventFacts([PlaychessGameFacts(*row) for row in rows])


def _report(name, size, build, check):
    ratio = check / build if build else float("nan")
    emit(f"acceptability_{name}_check", check * 1e3, "ms", "building_the_facts", build * 1e3)
    print(
        f"{name:<10} {size:>8} rows   check_event {check * 1e3:8.2f} ms   "
        f"building the facts {build * 1e3:8.2f} ms   ratio check/build {ratio:5.2f}"
    )


def main() -> None:
    rng = random.Random(20261121)

    rows = _wfcc_rows(rng)
    build, facts = _best_of(lambda: _wfcc_facts(rows))
    check, _ = _best_of(lambda: check_event("wfcc", facts, TODAY))
    _report("wfcc", len(rows[4]), build, check)

    base = date(2024, 1, 1)
    iccf_rows = []
    for i in range(50_000):
        finished = base + timedelta(days=rng.randrange(0, 900))
        iccf_rows.append((i, finished, finished + timedelta(days=rng.randrange(0, 40))))
    build, facts = _best_of(lambda: _iccf_facts(iccf_rows))
    check, _ = _best_of(lambda: check_event("iccf", facts, TODAY))
    _report("iccf", len(iccf_rows), build, check)

    results = ["1-0", "0-1", "1/2-1/2"]
    pc_rows = [
        (i, rng.randrange(5000), rng.randrange(5000), rng.choice(results)) for i in range(100_000)
    ]
    build, facts = _best_of(lambda: _playchess_facts(pc_rows))
    check, _ = _best_of(lambda: check_event("playchess", facts, TODAY))
    _report("playchess", len(pc_rows), build, check)


if __name__ == "__main__":
    main()
