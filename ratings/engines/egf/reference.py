"""Scalar EGF GoR, written straight from RULES §2 one game at a time: the yardstick for the tests.

Slow on purpose: plain floats, dicts and loops, no NumPy. Takes the same dataclasses as
``ratings.engines.egf`` and returns the same result types.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ratings.engines.core.grades import FLOOR, Grade, parse_grade
from ratings.engines.egf.rate import CLASS_WEIGHTS, MAX_DROP, is_reset
from ratings.engines.egf.types import (
    DEFAULT_PARAMS,
    Params,
    PlayerChange,
    Tournament,
    TournamentChange,
)

# Table II as printed: GoR -> con.
CON_TABLE = {
    100: 116, 200: 110, 300: 105, 400: 100, 500: 95, 600: 90, 700: 85, 800: 80, 900: 75,
    1000: 70, 1100: 65, 1200: 60, 1300: 55, 1400: 51, 1500: 47, 1600: 43, 1700: 39, 1800: 35,
    1900: 31, 2000: 27, 2100: 24, 2200: 21, 2300: 18, 2400: 15, 2500: 13, 2600: 11, 2700: 10,
}  # fmt: skip


def a_of(r: float) -> float:
    if r < 100:
        return 200.0
    if r > 2700:
        return 70.0
    return 205.0 - r / 20.0


def con_of(r: float) -> float:
    if r <= 100:
        return 116.0
    if r >= 2700:
        return 10.0
    low = int(r // 100) * 100
    high = low + 100
    fraction = (r - low) / 100.0
    return CON_TABLE[low] + (CON_TABLE[high] - CON_TABLE[low]) * fraction


def adjusted(r: float, stones_received: int) -> float:
    return r + 100.0 * (stones_received - 0.5) if stones_received >= 1 else r


def expectancy(own: float, opp: float, own_stones: int, opp_stones: int, eps: float) -> float:
    """SE of the player with pre-tournament rating ``own`` (stones = handicap he received)."""
    eff_own = adjusted(own, own_stones)
    eff_opp = adjusted(opp, opp_stones)
    d = eff_opp - eff_own
    a = a_of(min(eff_own, eff_opp))
    return 1.0 / (math.exp(d / a) + 1.0) - eps / 2.0


def game_change(own: float, opp: float, score: float, own_stones: int, opp_stones: int, eps):
    return con_of(own) * (score - expectancy(own, opp, own_stones, opp_stones, eps))


def _raise(highest: dict[str, Grade], pid: str, grade: Grade) -> None:
    old = highest.get(pid)
    if old is None or (grade.nominal, grade.kind == "p") > (old.nominal, old.kind == "p"):
        highest[pid] = grade


def rate_history(tournaments: Sequence[Tournament], params: Params = DEFAULT_PARAMS):
    current: dict[str, float] = {}
    highest: dict[str, Grade] = {}
    out = []
    for tour in tournaments:
        weight = CLASS_WEIGHTS[tour.tournament_class]
        before: dict[str, float] = {}
        start: dict[str, str] = {}
        for entry in tour.players:
            grade = parse_grade(entry.grade)
            if entry.highest_grade is not None:
                _raise(highest, entry.id, parse_grade(entry.highest_grade))
            if is_reset(grade, highest.get(entry.id)):
                before[entry.id], start[entry.id] = grade.rating, "reset"
            elif entry.rating is not None:
                before[entry.id], start[entry.id] = float(entry.rating), "given"
            elif entry.id not in current:
                before[entry.id], start[entry.id] = grade.rating, "grade"
            else:
                before[entry.id], start[entry.id] = current[entry.id], "carried"
            _raise(highest, entry.id, grade)
        changes: dict[str, list[float]] = {entry.id: [] for entry in tour.players}
        for game in tour.games:
            w, b = before[game.white], before[game.black]
            h = game.handicap
            changes[game.white].append(game_change(w, b, game.result, 0, h, params.epsilon))
            changes[game.black].append(game_change(b, w, 1.0 - game.result, h, 0, params.epsilon))
        players = []
        for entry in tour.players:
            total = math.fsum(changes[entry.id])
            if params.weight_before_cap:
                applied = max(weight * total, -MAX_DROP)
            else:
                applied = weight * max(total, -MAX_DROP)
            after = max(before[entry.id] + applied, FLOOR)
            current[entry.id] = after
            players.append(
                PlayerChange(
                    entry.id, before[entry.id], after, len(changes[entry.id]), start[entry.id]
                )
            )
        out.append(TournamentChange(tour.id, tuple(players)))
    return tuple(out)
