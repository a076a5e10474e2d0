"""WFCC: one tournament of 500 solvers (400 fully rated), fast engine against the scalar
reference in the same run. Prints each figure next to its comparison and the ratio."""

from __future__ import annotations

import random
import time

from ratings.engines.wfcc import explain_solver, rate_tournament
from ratings.engines.wfcc.reference import rate_tournament_reference
from ratings.engines.wfcc.types import Solver, Tournament, WfccParams
from ratings.engines.wfcc.validate import validate
from tests.benchmarks.report import emit

SOLVERS = 500
RATED = 400
PROBLEMS = (6, 6, 6)
REPEATS = 5


def build(seed: int = 2026) -> Tournament:
    rng = random.Random(seed)
    solvers = []
    for i in range(SOLVERS):
        rating = rng.randint(150_000, 280_000) / 100 if i < RATED else None
        strength = ((rating or 2000.0) - 1400) / 1500  # stronger solvers score more, noisily
        rounds = tuple(
            min(5 * p * 100, max(0, int(rng.gauss(strength * 5 * p * 100, 600)))) / 100
            for p in PROBLEMS
        )
        solvers.append(
            Solver(
                id=f"s{i:03d}",
                rounds=rounds,
                rating=rating,
                half_ratings=() if rating or rng.random() < 0.5 else (rng.randint(1500, 2500),),
                country=rng.choice(["SRB", "POL", "GER", "FIN", "GBR", "UKR"]),
                time=float(rng.randint(200, 600)),
            )
        )
    return Tournament(id="bench", kt=2.5, solvers=tuple(solvers), problems=PROBLEMS)


def best_of(fn, repeats: int = REPEATS) -> tuple[float, object]:
    best, value = float("inf"), None
    for _ in range(repeats):
        started = time.perf_counter()
        value = fn()
        best = min(best, time.perf_counter() - started)
    return best, value


def main() -> None:
    tournament = build()
    fast_s, fast = best_of(lambda: rate_tournament(tournament))
    ref_s, ref = best_of(lambda: rate_tournament_reference(tournament))
    assert fast == ref, "fast engine and reference disagree"
    line = fast.line
    print(
        f"tournament of {SOLVERS} solvers ({RATED} fully rated), {len(PROBLEMS)} rounds: "
        f"sorted={line.sorted} corrected={line.corrected} r={line.correlation:.3f}"
    )
    print(
        f"rate_tournament   {fast_s * 1000:8.2f} ms   reference loop {ref_s * 1000:8.2f} ms   "
        f"ratio {ref_s / fast_s:5.1f}x   (best of {REPEATS})"
    )
    check_s, _ = best_of(lambda: validate(tournament, WfccParams()))
    print(
        f"  of which input checks (shared by both) {check_s * 1000:.2f} ms: "
        f"engine alone {(fast_s - check_s) * 1000:.2f} ms vs reference alone "
        f"{(ref_s - check_s) * 1000:.2f} ms, ratio {(ref_s - check_s) / (fast_s - check_s):.1f}x"
    )
    emit("wfcc_tournament", fast_s * 1e3, "ms", "reference_loop", ref_s * 1e3)
    one_s, _ = best_of(lambda: explain_solver(tournament, "s250"))
    print(
        f"explain_solver    {one_s * 1000:8.2f} ms   (one solver, line recomputed; "
        f"{one_s / fast_s:.2f} of a full run)"
    )


if __name__ == "__main__":
    main()
