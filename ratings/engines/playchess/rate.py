"""PlayChess ratings (RULES §3): one batch = one rating run, vectorised with NumPy.

Every game of a batch uses the opponents' ratings from before the batch. A player with fewer than
10 finished rated games is provisional: his rating is recomputed over all his rated games so far
with Rp = Rc + D(p)·F. From the 10th game on he is established: Rn = Ro + Σ k·(W − We), k = r·g.
A batch that crosses a player's 10th game is split there (games in input order = finish order).

Public API (pure, no Django):
  rate_batch(players, games, params=Params()) -> BatchResult
  explain(players, games, player_id, params=Params()) -> Explanation   (per-game quantities)
  run_json(data) -> dict                                               (the CLI contract)

Clamped opponent ratings (RULES §3.2, "stored with the game"): the output carries, for every game
and side, the opponent rating as used (GameResult.*_opponent_rating). A provisional player's earlier
games come back either as running totals (Player.score / Player.opponents, the issue's contract) or
as the list of those stored values (Player.history); totals are summed with math.fsum.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ratings.engines.core.errors import EngineInputError
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

# Formulas (elementwise on arrays; the reference has the scalar versions)


def expected_score(d: np.ndarray) -> np.ndarray:
    """(1) P(D) = 1/(1 + 10^(−D/400)), D = own − opponent rating."""
    return 1.0 / (1.0 + np.power(10.0, -d / 400.0))


def performance_difference(p: np.ndarray) -> np.ndarray:
    """(2) D(p) = −400·log10((1 − p)/p), D(0) = −800, D(1) = +800, clamped to ±800."""
    p = np.asarray(p, dtype=float)
    inside = (p > 0.0) & (p < 1.0)
    safe = np.where(inside, p, 0.5)
    d = -400.0 * np.log10((1.0 - safe) / safe)
    d = np.where(inside, d, np.where(p <= 0.0, -800.0, 800.0))
    return np.clip(d, -800.0, 800.0)


def correction_factor(p: np.ndarray) -> np.ndarray:
    """(7) F = −2p² + 2p + 0.5."""
    return -2.0 * p * p + 2.0 * p + 0.5


def _interpolate(x: np.ndarray, nodes: tuple[tuple[float, float], ...]) -> np.ndarray:
    xs = np.array([node[0] for node in nodes], dtype=float)
    ys = np.array([node[1] for node in nodes], dtype=float)
    return np.interp(x, xs, ys)


def rating_coefficient(rating: np.ndarray, table: KTable = DEFAULT_PARAMS.k_table) -> np.ndarray:
    return _interpolate(np.asarray(rating, dtype=float), table.r_nodes)


def experience_coefficient(games: np.ndarray, table: KTable = DEFAULT_PARAMS.k_table) -> np.ndarray:
    return _interpolate(np.asarray(games, dtype=float), table.g_nodes)


# Validation (shared by rate_batch and run_json: `where` names the JSON entry)


def _check_nodes(nodes: tuple[tuple[float, float], ...], where: str) -> None:
    if not nodes:
        raise EngineInputError(where, "needs at least one node")
    for i, node in enumerate(nodes):
        if len(node) != 2 or not all(math.isfinite(v) for v in node):
            raise EngineInputError(f"{where}[{i}]", "must be a pair of finite numbers")
        if i and node[0] <= nodes[i - 1][0]:
            raise EngineInputError(f"{where}[{i}]", "x values must increase strictly")


def _check_params(params: Params) -> None:
    if not math.isfinite(params.entry_rating):
        raise EngineInputError("params.entry_rating", "must be finite")
    if not (math.isfinite(params.cutoff) and params.cutoff > 0):
        raise EngineInputError("params.cutoff", "must be a positive number")
    if params.established_games < 1:
        raise EngineInputError("params.established_games", "must be at least 1")
    _check_nodes(params.k_table.r_nodes, "params.k_table.r")
    _check_nodes(params.k_table.g_nodes, "params.k_table.g")


def _is_points(x: float) -> bool:
    return math.isfinite(x) and x >= 0 and float(2 * x).is_integer()


def _check_player(player: Player, where: str, est: int) -> None:
    if player.games < 0:
        raise EngineInputError(f"{where}.games", "must not be negative")
    if player.rating is not None and not math.isfinite(player.rating):
        raise EngineInputError(f"{where}.rating", "must be finite")
    if player.games > 0 and player.rating is None:
        raise EngineInputError(f"{where}.rating", "missing for a player with rated games")
    totals = player.score is not None or player.opponents is not None
    if player.games >= est or player.games == 0:
        if player.history:
            raise EngineInputError(f"{where}.history", f"only for 1 to {est - 1} earlier games")
        for name in ("score", "opponents"):
            value = getattr(player, name)
            if player.games >= est and value is not None:
                raise EngineInputError(f"{where}.{name}", "only for a provisional player")
            if player.games == 0 and value not in (None, 0):
                raise EngineInputError(f"{where}.{name}", "must be 0 without earlier games")
        return
    if player.history is not None:
        if totals:
            raise EngineInputError(where, "give either history or score/opponents, not both")
        if len(player.history) != player.games:
            raise EngineInputError(f"{where}.history", f"must list all {player.games} games")
        for i, prior in enumerate(player.history):
            if not math.isfinite(prior.opponent_rating):
                raise EngineInputError(f"{where}.history[{i}].opponent_rating", "must be finite")
            if prior.result not in (0.0, 0.5, 1.0):
                raise EngineInputError(f"{where}.history[{i}].result", "must be 1, 0.5 or 0")
        return
    if player.score is None or player.opponents is None:
        missing = "score" if player.score is None else "opponents"
        raise EngineInputError(f"{where}.{missing}", "missing for a provisional player")
    if not (_is_points(player.score) and player.score <= player.games):
        raise EngineInputError(f"{where}.score", f"must be points between 0 and {player.games}")
    if not math.isfinite(player.opponents):
        raise EngineInputError(f"{where}.opponents", "must be finite")


def _index_players(players: Sequence[Player], params: Params) -> dict[str, int]:
    index: dict[str, int] = {}
    for i, player in enumerate(players):
        if player.id in index:
            raise EngineInputError(f"players[{i}].id", f"duplicate id {player.id!r}")
        index[player.id] = i
        _check_player(player, f"players[{i}]", params.established_games)
    return index


def _game_arrays(
    games: Sequence[Game], index: dict[str, int]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    m = len(games)
    white = np.fromiter((index.get(g.white, -1) for g in games), dtype=np.int64, count=m)
    black = np.fromiter((index.get(g.black, -1) for g in games), dtype=np.int64, count=m)
    result = np.fromiter((g.result for g in games), dtype=float, count=m)
    bad = (white < 0) | (black < 0) | (white == black) | ~np.isin(result, (0.0, 0.5, 1.0))
    if bad.any():  # name the first bad game, checking its fields in order
        j = int(np.argmax(bad))
        game = games[j]
        if white[j] < 0:
            raise EngineInputError(f"games[{j}].white", f"unknown player {game.white!r}")
        if black[j] < 0:
            raise EngineInputError(f"games[{j}].black", f"unknown player {game.black!r}")
        if white[j] == black[j]:
            raise EngineInputError(f"games[{j}]", "a player cannot play himself")
        raise EngineInputError(f"games[{j}].result", "must be 1, 0.5 or 0")
    return white, black, result


# The engine


@dataclass(frozen=True, slots=True)
class _Computation:
    """Everything the batch computed: per entry (one per game and side, sorted by player, then
    game order) and per player. rate_batch and explain both read from it."""

    # per entry
    player: np.ndarray
    opponent: np.ndarray
    game: np.ndarray
    points: np.ndarray
    provisional: np.ndarray  # bool: rated by (7), else by (4)-(6)
    opponent_rating: np.ndarray  # pre-batch
    opponent_used: np.ndarray  # clamped
    d: np.ndarray  # established entries: clamp(Ro - R_opp)
    we: np.ndarray
    dr: np.ndarray
    # per player
    rating_before: np.ndarray  # entry rating for the unrated
    games_after_prov: np.ndarray
    score: np.ndarray
    opponents: np.ndarray
    rc: np.ndarray
    p: np.ndarray
    f: np.ndarray
    dp: np.ndarray
    ro: np.ndarray
    n_est: np.ndarray
    r: np.ndarray
    g: np.ndarray
    k: np.ndarray
    rating_after: np.ndarray
    games_after: np.ndarray
    has_prov: np.ndarray
    has_est: np.ndarray
    order: np.ndarray  # entry position (2j white, 2j+1 black) of each sorted entry


def _group_bounds(group: np.ndarray) -> tuple[list[int], list[int], list[int]]:
    """Runs of equal values in a sorted array: (value, start, end) lists."""
    if group.size == 0:
        return [], [], []
    cuts = np.flatnonzero(np.diff(group)) + 1
    starts = np.concatenate(([0], cuts))
    ends = np.concatenate((cuts, [group.size]))
    return group[starts].tolist(), starts.tolist(), ends.tolist()


def _compute(players: Sequence[Player], games: Sequence[Game], params: Params) -> _Computation:
    _check_params(params)
    index = _index_players(players, params)
    white, black, result = _game_arrays(games, index)
    n, m, est, cut = len(players), len(games), params.established_games, params.cutoff

    rating_before = np.array(
        [params.entry_rating if p.rating is None else p.rating for p in players], dtype=float
    )
    games_before = np.array([p.games for p in players], dtype=np.int64)
    prior_points = np.array(
        [
            math.fsum(h.result for h in p.history) if p.history is not None else (p.score or 0.0)
            for p in players
        ],
        dtype=float,
    )

    # Entries interleaved in game order (white of game j at 2j, black at 2j+1), then a stable
    # sort by player keeps each player's games in finish order.
    player = np.empty(2 * m, dtype=np.int64)
    player[0::2], player[1::2] = white, black
    opponent = np.empty(2 * m, dtype=np.int64)
    opponent[0::2], opponent[1::2] = black, white
    points = np.empty(2 * m, dtype=float)
    points[0::2], points[1::2] = result, 1.0 - result
    order = np.argsort(player, kind="stable")
    player, opponent, points = player[order], opponent[order], points[order]
    game = order // 2

    counts = np.bincount(player, minlength=n)
    first = np.concatenate(([0], np.cumsum(counts)[:-1]))
    ordinal = np.arange(2 * m) - first[player]
    provisional = games_before[player] + ordinal < est

    opponent_rating = rating_before[opponent]
    ref = rating_before[player]
    opponent_used = np.clip(opponent_rating, ref - cut, ref + cut)

    # Provisional part: cumulative recomputation over all provisional games so far.
    n_prov = np.bincount(player[provisional], minlength=n)
    has_prov = n_prov > 0
    games_after_prov = games_before + n_prov
    score = prior_points + np.bincount(player[provisional], points[provisional], minlength=n)
    opponents = np.zeros(n)
    for i, p in enumerate(players):
        if p.history is not None:
            opponents[i] = math.fsum(h.opponent_rating for h in p.history)
        elif p.opponents is not None:
            opponents[i] = p.opponents
    used_prov = opponent_used[provisional].tolist()
    for who, a, b in zip(*_group_bounds(player[provisional]), strict=True):
        prior = players[who]
        if prior.history is not None:
            earlier = [h.opponent_rating for h in prior.history]
        else:
            earlier = [prior.opponents or 0.0]
        opponents[who] = math.fsum(earlier + used_prov[a:b])  # exact: order cannot matter

    with np.errstate(divide="ignore", invalid="ignore"):
        divisor = np.where(has_prov, games_after_prov, 1)
        rc = np.where(has_prov, opponents / divisor, np.nan)
        p_ = np.where(has_prov, score / divisor, np.nan)
    f = np.where(has_prov, correction_factor(p_), np.nan)
    dp = np.where(has_prov, performance_difference(np.nan_to_num(p_)), np.nan)
    rp = rc + dp * f

    # Established part: Ro = rating after the 10th game for a split batch, else pre-batch.
    established = ~provisional
    has_est = np.bincount(player[established], minlength=n) > 0
    ro = np.where(has_prov, rp, rating_before)
    n_est = games_after_prov  # rated games finished before the established part
    r = rating_coefficient(ro, params.k_table)
    g = experience_coefficient(n_est, params.k_table)
    k = r * g
    ro_e = ro[player]
    d = np.where(established, np.clip(ro_e - opponent_rating, -cut, cut), np.nan)
    we = expected_score(d)
    dr = k[player] * (points - we)
    opponent_used = np.where(
        established, np.clip(opponent_rating, ro_e - cut, ro_e + cut), opponent_used
    )
    rating_after = ro.copy()
    dr_est = dr[established].tolist()
    for who, a, b in zip(*_group_bounds(player[established]), strict=True):
        rating_after[who] = ro[who] + math.fsum(dr_est[a:b])

    return _Computation(
        player=player,
        opponent=opponent,
        game=game,
        points=points,
        provisional=provisional,
        opponent_rating=opponent_rating,
        opponent_used=opponent_used,
        d=d,
        we=we,
        dr=np.where(established, dr, np.nan),
        rating_before=rating_before,
        games_after_prov=games_after_prov,
        score=score,
        opponents=opponents,
        rc=rc,
        p=p_,
        f=f,
        dp=dp,
        ro=ro,
        n_est=n_est,
        r=r,
        g=g,
        k=k,
        rating_after=rating_after,
        games_after=games_before + counts,
        has_prov=has_prov,
        has_est=has_est,
        order=order,
    )


def _player_result(player: Player, c: _Computation, i: int, est: int) -> PlayerResult:
    games_after = int(c.games_after[i])
    provisional = games_after < est
    rated = games_after > 0 or player.rating is not None
    return PlayerResult(
        id=player.id,
        rating=float(c.rating_after[i]) if rated else None,
        games=games_after,
        provisional=provisional,
        score=float(c.score[i]) if provisional else None,
        opponents=float(c.opponents[i]) if provisional else None,
    )


def _game_results(c: _Computation) -> list[GameResult]:
    # back from player order to entry order (white of game j at 2j, black at 2j+1)
    inverse = np.empty_like(c.order)
    inverse[c.order] = np.arange(inverse.size)
    used = c.opponent_used[inverse]
    prov = c.provisional[inverse]
    change = [None if p else d for p, d in zip(prov.tolist(), c.dr[inverse].tolist(), strict=True)]
    return list(
        map(
            GameResult,
            used[0::2].tolist(),
            used[1::2].tolist(),
            prov[0::2].tolist(),
            prov[1::2].tolist(),
            change[0::2],
            change[1::2],
        )
    )


def rate_batch(
    players: Sequence[Player], games: Sequence[Game], params: Params = DEFAULT_PARAMS
) -> BatchResult:
    """Rate one batch. Raises EngineInputError on bad input (where = players[i] / games[j])."""
    c = _compute(players, games, params)
    return BatchResult(
        players=tuple(
            _player_result(p, c, i, params.established_games) for i, p in enumerate(players)
        ),
        games=tuple(_game_results(c)),
    )
