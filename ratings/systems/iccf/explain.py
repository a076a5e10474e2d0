"""ICCF: a player's quantities in one run, from the run's engine input, by the same pure
engine's explain function; fills the report's ``breakdown``/``sections``/``recomputed``."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from federation.models import Player
    from ratings.web.explain import ExplainReport


def explain(report: ExplainReport, player: Player, data: dict) -> None:
    from ratings.engines import iccf as engine
    from ratings.engines.iccf import contract as iccf_json

    params = iccf_json._params_from_json(data.get("params"))
    players = [
        iccf_json._player_from_json(p, f"players[{i}]") for i, p in enumerate(data["players"])
    ]
    games = [iccf_json._game_from_json(g, f"games[{j}]") for j, g in enumerate(data["games"])]
    subs = [
        iccf_json._substitution_from_json(s, f"substitutions[{k}]")
        for k, s in enumerate(data.get("substitutions", []))
    ]
    explanation = engine.explain(str(player.pk), players, games, subs, params)
    report.breakdown = explanation
    report.recomputed = explanation.rating
    report.recomputed_rd = explanation.rd
