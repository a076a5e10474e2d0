"""Scalar reference of the PlayChess engine, written straight from RULES §3, one player at a time.

Slow on purpose: tests check ratings.engines.playchess against it. Input is assumed valid (the
fast engine validates); the same dataclasses are used on both sides.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ratings.engines.playchess.types import (
    DEFAULT_PARAMS,
    BatchResult,
    Game,
    GameResult,
    KTable,
    Params,
    Player,
    PlayerResult,
)


def expected_score(d: float) -> float:
    """(1) P(D) = 1/(1 + 10^(−D/400))."""
    return 1.0 / (1.0 + 10.0 ** (-d / 400.0))


def performance_difference(p: float) -> float:
    """(2) D(p) = −400·log10((1 − p)/p); D(0) = −800, D(1) = 800; clamped to ±800."""
    if p <= 0.0:
        return -800.0
    if p >= 1.0:
        return 800.0
    return max(-800.0, min(800.0, -400.0 * math.log10((1.0 - p) / p)))


def correction_factor(p: float) -> float:
    """(7) F = −2p² + 2p + 0.5."""
    return -2.0 * p * p + 2.0 * p + 0.5


def _piecewise(x: float, nodes: tuple[tuple[float, float], ...]) -> float:
    """Linear between nodes, flat outside (the r and g rules of §3.3 as a table)."""
    if x <= nodes[0][0]:
        return nodes[0][1]
    if x >= nodes[-1][0]:
        return nodes[-1][1]
    for (x0, y0), (x1, y1) in zip(nodes, nodes[1:], strict=False):
        if x0 <= x <= x1:
            return y0 + (x - x0) * (y1 - y0) / (x1 - x0)
    raise AssertionError("unreachable: nodes increase")


def k_factor(rating: float, games: int, table: KTable) -> tuple[float, float, float]:
    """(5) k = r·g: r from the rating Ro, g from the rated games N before the batch."""
    r = _piecewise(rating, table.r_nodes)
    g = _piecewise(float(games), table.g_nodes)
    return r, g, r * g


def _clamp(x: float, low: float, high: float) -> float:
    return max(low, min(high, x))


def rate_batch(
    players: Sequence[Player], games: Sequence[Game], params: Params = DEFAULT_PARAMS
) -> BatchResult:
    cut, est = params.cutoff, params.established_games
    before = {p.id: params.entry_rating if p.rating is None else p.rating for p in players}

    # each player's games, in input (finish) order: (game index, side, opponent, points)
    own: dict[str, list[tuple[int, str, str, float]]] = {p.id: [] for p in players}
    for j, game in enumerate(games):
        own[game.white].append((j, "white", game.black, game.result))
        own[game.black].append((j, "black", game.white, 1.0 - game.result))

    used: dict[tuple[int, str], tuple[float, bool, float | None]] = {}
    results = []
    for player in players:
        rating = before[player.id]
        n = player.games
        if player.history is not None:
            opponents = [h.opponent_rating for h in player.history]
            score = math.fsum(h.result for h in player.history)
        else:
            opponents = [player.opponents or 0.0]
            score = player.score or 0.0

        # games 1..10: provisional, cumulative (7); opponents clamped around the pre-batch rating
        rest = []
        played_provisional = False
        for j, side, opp, points in own[player.id]:
            if n >= est:
                rest.append((j, side, opp, points))
                continue
            clamped = _clamp(before[opp], before[player.id] - cut, before[player.id] + cut)
            used[j, side] = (clamped, True, None)
            opponents.append(clamped)
            score += points
            n += 1
            played_provisional = True
        if played_provisional:
            rc = math.fsum(opponents) / n
            p = score / n
            rating = rc + performance_difference(p) * correction_factor(p)

        # games 11+: established (4)-(6) from Ro = rating after the 10th game (or pre-batch)
        if rest:
            ro = rating
            _, _, k = k_factor(ro, n, params.k_table)
            changes = []
            for j, side, opp, points in rest:
                d = _clamp(ro - before[opp], -cut, cut)
                dr = k * (points - expected_score(d))
                used[j, side] = (_clamp(before[opp], ro - cut, ro + cut), False, dr)
                changes.append(dr)
            rating = ro + math.fsum(changes)
            n += len(rest)

        provisional = n < est
        rated = n > 0 or player.rating is not None
        results.append(
            PlayerResult(
                id=player.id,
                rating=rating if rated else None,
                games=n,
                provisional=provisional,
                score=score if provisional else None,
                opponents=math.fsum(opponents) if provisional else None,
            )
        )

    game_results = []
    for j in range(len(games)):
        w, b = used[j, "white"], used[j, "black"]
        game_results.append(
            GameResult(
                white_opponent_rating=w[0],
                black_opponent_rating=b[0],
                white_provisional=w[1],
                black_provisional=b[1],
                white_change=w[2],
                black_change=b[2],
            )
        )
    return BatchResult(players=tuple(results), games=tuple(game_results))
