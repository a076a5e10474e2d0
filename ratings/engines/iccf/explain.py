"""Every intermediate quantity of one ICCF player's update, for "explain my change"."""

from __future__ import annotations

from collections.abc import Sequence

from ratings.engines.core.errors import EngineInputError
from ratings.engines.iccf.rate import validate_period
from ratings.engines.iccf.reference import explain_reference
from ratings.engines.iccf.types import Game, Params, Player, PlayerExplanation, Substitution


def explain(
    player_id: str,
    players: Sequence[Player],
    games: Sequence[Game],
    substitutions: Sequence[Substitution] = (),
    params: Params | None = None,
) -> PlayerExplanation:
    """Every intermediate quantity of one player's update, by the formulas of §1.3.

    Computed by the scalar reference, which the tests hold equal to the fast engine.
    """
    params = params or Params()
    index = validate_period(players, games, substitutions, params)
    if player_id not in index:
        raise EngineInputError("player", f"unknown player {player_id!r}")
    return explain_reference(player_id, players, games, substitutions, params)
