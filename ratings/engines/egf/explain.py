"""Every quantity of one EGF player's change at one tournament, for "explain my change"."""

from __future__ import annotations

import numpy as np

from ratings.engines.core.errors import EngineInputError
from ratings.engines.egf.rate import _apply, _plan, _side_quantities, _sum_by_player, history_arrays
from ratings.engines.egf.types import (
    DEFAULT_PARAMS,
    GameExplanation,
    Params,
    PlayerExplanation,
    Tournament,
)


def explain_player(
    tournament: Tournament, player_id: str, params: Params = DEFAULT_PARAMS
) -> PlayerExplanation:
    """Every quantity of one player's change at one tournament, as the engine computes it.

    Pre-tournament ratings are the players' ``rating`` (their grade value where it is missing);
    pass the ``before`` values of a history run to explain that run.
    """
    waves, _, _ = _plan(history_arrays([tournament]))  # one tournament: one wave, input order
    local = {p.id: i for i, p in enumerate(tournament.players)}
    if player_id not in local:
        raise EngineInputError("player", f"{player_id!r} is not a player of this tournament")
    me = local[player_id]
    rpre = waves.fixed
    quantities = _side_quantities(rpre, waves.sides, params.epsilon / 2.0)
    sums = _sum_by_player(waves.sides.own, quantities[-1], len(rpre))
    weight = waves.weight
    weighted, capped, change, after = _apply(rpre, sums, weight, params.weight_before_cap)
    mine = np.flatnonzero(waves.sides.own == me)
    columns = [q[mine].tolist() for q in quantities]
    games = []
    for k, side in enumerate(mine.tolist()):
        game = tournament.games[side // 2]
        white = side % 2 == 0
        games.append(
            GameExplanation(
                opponent=game.black if white else game.white,
                colour="w" if white else "b",
                handicap=int(game.handicap),
                score=float(waves.sides.score[side]),
                rating=columns[0][k],
                opponent_rating=columns[1][k],
                adjusted=columns[2][k],
                opponent_adjusted=columns[3][k],
                a=columns[4][k],
                expected=columns[5][k],
                con=columns[6][k],
                change=columns[7][k],
            )
        )
    return PlayerExplanation(
        id=player_id,
        before=float(rpre[me]),
        class_weight=float(weight[me]),
        games=tuple(games),
        sum_of_changes=float(sums[me]),
        weighted=float(weighted[me]),
        capped=float(capped[me]),
        change=float(change[me]),
        weight_before_cap=params.weight_before_cap,
        after=float(after[me]),
    )
