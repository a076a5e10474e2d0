"""Per-game quantities of one PlayChess player in one batch, for "explain my change"."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ratings.engines.core.errors import EngineInputError
from ratings.engines.playchess.rate import _compute, _player_result
from ratings.engines.playchess.types import (
    DEFAULT_PARAMS,
    EstablishedGame,
    EstablishedPart,
    Explanation,
    Game,
    Params,
    Player,
    ProvisionalGame,
    ProvisionalPart,
)


def explain(
    players: Sequence[Player],
    games: Sequence[Game],
    player_id: str,
    params: Params = DEFAULT_PARAMS,
) -> Explanation:
    """Per-game quantities of one player in one batch, read from the same computation that
    rate_batch runs (so they equal the engine's numbers bit for bit)."""
    c = _compute(players, games, params)
    ids = [p.id for p in players]
    try:
        who = ids.index(player_id)
    except ValueError:
        raise EngineInputError("player_id", f"unknown player {player_id!r}") from None
    mine = np.flatnonzero(c.player == who).tolist()
    prov_steps, est_steps = [], []
    for e in mine:
        common = dict(
            game=int(c.game[e]),
            opponent=ids[int(c.opponent[e])],
            opponent_rating=float(c.opponent_rating[e]),
            opponent_rating_used=float(c.opponent_used[e]),
            result=float(c.points[e]),
        )
        if c.provisional[e]:
            prov_steps.append(ProvisionalGame(**common))
        else:
            est_steps.append(
                EstablishedGame(
                    **common,
                    r=float(c.r[who]),
                    g=float(c.g[who]),
                    k=float(c.k[who]),
                    d=float(c.d[e]),
                    we=float(c.we[e]),
                    dr=float(c.dr[e]),
                )
            )
    provisional = None
    if prov_steps:
        provisional = ProvisionalPart(
            rating_reference=float(c.rating_before[who]),
            games=int(c.games_after_prov[who]),
            score=float(c.score[who]),
            opponents=float(c.opponents[who]),
            rc=float(c.rc[who]),
            p=float(c.p[who]),
            f=float(c.f[who]),
            dp=float(c.dp[who]),
            rating=float(c.ro[who]),
            steps=tuple(prov_steps),
        )
    established = None
    if est_steps:
        established = EstablishedPart(
            rating_before=float(c.ro[who]),
            games_before=int(c.n_est[who]),
            r=float(c.r[who]),
            g=float(c.g[who]),
            k=float(c.k[who]),
            rating=float(c.rating_after[who]),
            steps=tuple(est_steps),
        )
    player = players[who]
    return Explanation(
        player=player_id,
        rating_before=player.rating,
        games_before=player.games,
        provisional=provisional,
        established=established,
        result=_player_result(player, c, who, params.established_games),
    )
