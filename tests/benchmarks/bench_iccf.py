"""ICCF: the array engine against the scalar reference loop on the same seeded period.

Run: ``make bench`` or ``python -m tests.benchmarks.run iccf``.
"""

from __future__ import annotations

import random
import time
import tracemalloc

from ratings.engines.iccf import Game, Params, Player, Substitution, rate_arrays, to_arrays
from ratings.engines.iccf import rate_period as engine_rate_period
from ratings.engines.iccf.reference import rate_period_reference

PLAYERS = 20_000
GAMES = 200_000


def synthetic_period(players: int, games: int, seed: int = 2026):
    """Mostly rated players, some unrated (some with FIDE), a few start ratings and substitutes."""
    rng = random.Random(seed)
    people = []
    for i in range(players):
        kind = rng.random()
        if kind < 0.05:
            people.append(Player(str(i), fide=rng.choice([None, rng.uniform(1800, 2500)])))
        else:
            people.append(Player(str(i), rng.gauss(2000, 250), rng.uniform(30, 250)))
    played = []
    for _ in range(games):
        white, black = rng.sample(range(players), 2)
        start = rng.uniform(1700, 2300) if rng.random() < 0.1 else None
        played.append(Game(str(white), str(black), rng.choice((1.0, 0.5, 0.5, 0.0)), start, None))
    subs = []
    for g in rng.sample(range(games), games // 100):
        side = rng.choice(("white", "black"))
        taken = {played[g].white, played[g].black}
        replaces = str(rng.randrange(players))
        if replaces not in taken:
            subs.append(Substitution(g, side, replaces))
    return people, played, subs


def _best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return min(times)


def _peak_bytes(fn) -> int:
    tracemalloc.start()
    fn()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak


def main() -> None:
    params = Params()
    players, games, subs = synthetic_period(PLAYERS, GAMES)
    print(f"period: {PLAYERS:,} players, {GAMES:,} games, {len(subs):,} substitutions")

    started = time.perf_counter()
    arrays = to_arrays(players, games, subs, params)
    convert = time.perf_counter() - started
    engine = _best(lambda: rate_arrays(arrays, params), repeat=7)
    started = time.perf_counter()
    engine_rate_period(players, games, subs, params)
    whole = time.perf_counter() - started
    started = time.perf_counter()
    rate_period_reference(players, games, subs, params)
    reference = time.perf_counter() - started

    target = "meets" if engine < 0.1 else "MISSES"
    print(f"engine  rate_arrays (best of 7): {engine * 1e3:8.1f} ms   ({target} target 100 ms)")
    print(f"reference loop (scalar)        : {reference * 1e3:8.1f} ms")
    print(f"speed-up engine vs reference   : {reference / engine:8.1f} x   (target >= 30 x)")
    print(
        f"rate_period incl. validation + dataclasses->arrays: {whole * 1e3:.1f} ms "
        f"(to_arrays alone {convert * 1e3:.1f} ms); vs reference {reference / whole:.1f} x"
    )

    for count in (GAMES // 4, GAMES // 2, GAMES):
        part = to_arrays(players, games[:count], [s for s in subs if s.game < count], params)
        peak = _peak_bytes(lambda part=part: rate_arrays(part, params))
        print(f"peak memory of rate_arrays, {count:>7,} games: {peak / 2**20:6.1f} MiB")


if __name__ == "__main__":
    main()
