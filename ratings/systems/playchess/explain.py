"""PlayChess: a player's quantities in one run, from the run's engine input, by the same pure
engine's explain function; fills the report's ``breakdown``/``sections``/``recomputed``."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from federation.models import Player
    from ratings.web.explain import ExplainReport


def explain(report: ExplainReport, player: Player, data: dict) -> None:
    from ratings.engines import playchess as pc
    from ratings.engines.playchess import contract as pc_json

    params = pc.params_from_json(data.get("params"))
    players = [pc_json._player_from_json(p, f"players[{i}]") for i, p in enumerate(data["players"])]
    games = [pc_json._game_from_json(g, f"games[{j}]") for j, g in enumerate(data["games"])]
    explanation = pc.explain(players, games, str(player.pk), params)
    report.breakdown = explanation
    report.recomputed = explanation.result.rating
