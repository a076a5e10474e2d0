"""ICCF: the array engine against the scalar reference loop on the same seeded period.

Run: ``make bench`` or ``python -m tests.benchmarks.run iccf``.
"""

from __future__ import annotations

import importlib
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

import numpy as np

from ratings.engines.iccf import Game, Params, Player, Substitution, rate_arrays, to_arrays
from ratings.engines.iccf import rate_period as engine_rate_period
from ratings.engines.iccf.reference import rate_period_reference
from tests.benchmarks.report import emit

# The module itself, not a name the package may re-export: the benchmark swaps its sum.
iccf_rate = importlib.import_module("ratings.engines.iccf.rate")

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


def _best_alternated(fns, repeat: int) -> list[float]:
    """The least time of each function over `repeat` rounds, the functions taking turns within
    each round: a figure and its comparison are then timed under the same conditions. Timed in
    blocks, one after the other, they were not on a VM whose speed drifted: the core against
    the plain bincount came out between 0.87 and 1.55 over five runs of one tree."""
    times = [[] for _ in fns]
    for _ in range(repeat):
        for fn, taken in zip(fns, times, strict=True):
            started = time.perf_counter()
            fn()
            taken.append(time.perf_counter() - started)
    return [min(taken) for taken in times]


def _peak_bytes(fn) -> int:
    tracemalloc.start()
    fn()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak


def _plain_bincount(player, values, games):
    """The order-dependent sum: what the core would cost without its bit-for-bit guarantee."""
    return np.bincount(player, weights=values, minlength=len(games))


def _plain_core(arrays, params) -> None:
    """The core with the plain, order-dependent bincount in place of its exact sum."""
    exact = iccf_rate._sum_by_player
    iccf_rate._sum_by_player = _plain_bincount
    try:
        rate_arrays(arrays, params)
    finally:
        iccf_rate._sum_by_player = exact


def _per_game_scaling(params: Params) -> None:
    """Cost per game of the core at 50k and at 800k games (players in proportion), the two
    sizes taking turns."""
    sizes = (50_000, 800_000)
    inputs = []
    for games in sizes:
        people, played, subs = synthetic_period(games // 10, games, seed=games)
        inputs.append(to_arrays(people, played, subs, params))
    best = _best_alternated(
        [lambda arrays=arrays: rate_arrays(arrays, params) for arrays in inputs], repeat=5
    )
    per_game = {games: seconds / games * 1e9 for games, seconds in zip(sizes, best, strict=True)}
    emit(
        "iccf_core_800k_per_game",
        per_game[800_000],
        "ns",
        "iccf_core_50k_per_game",
        per_game[50_000],
    )


# A plain program on the same graph: PyPI's glicko2, one player at a time, as a whole process.
GLICKO2_CLI = """
import json, sys
from collections import defaultdict
import glicko2

data = json.load(open(sys.argv[1]))
start = {}
for p in data["players"]:
    if p.get("unrated"):
        start[p["id"]] = (p.get("fide") or 1800.0, 250.0)
    else:
        start[p["id"]] = (p["rating"], p["rd"])
seen = defaultdict(lambda: ([], [], []))
for g in data["games"]:
    for me, other, score in ((g["white"], g["black"], g["result"]), (g["black"], g["white"], 1 - g["result"])):
        ratings, rds, scores = seen[me]
        ratings.append(start[other][0])
        rds.append(start[other][1])
        scores.append(score)
out = []
for pid, (rating, rd) in start.items():
    player = glicko2.Player(rating=rating, rd=rd)
    if pid in seen:
        player.update_player(*seen[pid])
    out.append({"id": pid, "rating": player.rating, "rd": player.rd})
json.dump({"players": out}, sys.stdout)
"""


def _contract_json(players, games, subs) -> dict:
    def player(p):
        if p.rating is None:
            return {"id": p.id, "unrated": True} | ({} if p.fide is None else {"fide": p.fide})
        return {"id": p.id, "rating": p.rating, "rd": p.rd}

    def game(g):
        row = {"white": g.white, "black": g.black, "result": g.result}
        return row if g.white_start is None else row | {"white_start": g.white_start}

    return {
        "players": [player(p) for p in players],
        "games": [game(g) for g in games],
        "substitutions": [{"game": s.game, "side": s.side, "replaces": s.replaces} for s in subs],
    }


def _process_seconds(argv: list[str], repeat: int = 5) -> float:
    """Median wall time of the whole process (start-up, reading, rating, writing)."""
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, cwd=ROOT)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def _command_lines(players, games, subs) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "period.json"
        data.write_text(json.dumps(_contract_json(players, games, subs)))
        plain = Path(tmp) / "glicko2_cli.py"
        plain.write_text(GLICKO2_CLI)
        print(f"command lines on {data.stat().st_size / 2**20:.1f} MiB of JSON (median of 5)")
        ours = _process_seconds([sys.executable, "-m", "ratings.engines", "iccf", str(data)])
        theirs = _process_seconds([sys.executable, str(plain), str(data)])
        emit("iccf_cli", ours, "s", "glicko2_cli", theirs)


ROOT = Path(__file__).resolve().parents[2]


def main() -> None:
    params = Params()
    players, games, subs = synthetic_period(PLAYERS, GAMES)
    print(f"period: {PLAYERS:,} players, {GAMES:,} games, {len(subs):,} substitutions")

    started = time.perf_counter()
    arrays = to_arrays(players, games, subs, params)
    convert = time.perf_counter() - started
    engine, plain = _best_alternated(
        [lambda: rate_arrays(arrays, params), lambda: _plain_core(arrays, params)], repeat=7
    )
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

    emit(
        "iccf_core",
        engine * 1e3,
        "ms",
        "bincount_core",
        plain * 1e3,
    )
    emit("iccf_core_vs_reference", engine * 1e3, "ms", "reference_loop", reference * 1e3)
    _per_game_scaling(params)
    _command_lines(players, games, subs)

    for count in (GAMES // 4, GAMES // 2, GAMES):
        part = to_arrays(players, games[:count], [s for s in subs if s.game < count], params)
        peak = _peak_bytes(lambda part=part: rate_arrays(part, params))
        print(f"peak memory of rate_arrays, {count:>7,} games: {peak / 2**20:6.1f} MiB")


if __name__ == "__main__":
    main()
