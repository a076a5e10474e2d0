"""The JSON contract of ``python -m ratings.engines egf INPUT.json``: JSON in, JSON out."""

from __future__ import annotations

from typing import Any

from ratings.engines.core import jsonio
from ratings.engines.core.errors import EngineInputError
from ratings.engines.egf.columns import arrays_from_json, rated_to_json, rated_to_text
from ratings.engines.egf.rate import history_arrays, rate_arrays
from ratings.engines.egf.types import (
    DEFAULT_PARAMS,
    EPSILON,
    Game,
    Params,
    PlayerEntry,
    RatedHistory,
    Tournament,
)


def _check_handicap(value: Any, where: str) -> int:
    number = jsonio.require_number(value, where)
    if number < 0 or number != int(number):
        raise EngineInputError(
            where, f"handicap must be a whole number of stones >= 0, not {value!r}"
        )
    return int(number)


def params_from_json(data: Any) -> Params:
    if data is None:
        return Params()
    data = jsonio.require_object(data, "params")
    unknown = set(data) - {"epsilon", "weight_before_cap"}
    if unknown:
        raise EngineInputError("params", f"unknown parameter {sorted(unknown)[0]!r}")
    epsilon = EPSILON
    if "epsilon" in data:
        epsilon = jsonio.require_number(data["epsilon"], "params.epsilon")
        if not 0.0 <= epsilon < 1.0:
            raise EngineInputError("params.epsilon", f"must be in [0, 1), not {epsilon!r}")
    before_cap = data.get("weight_before_cap", DEFAULT_PARAMS.weight_before_cap)
    if not isinstance(before_cap, bool):
        raise EngineInputError("params.weight_before_cap", "must be true or false")
    return Params(epsilon=epsilon, weight_before_cap=before_cap)


def tournaments_from_json(data: Any) -> tuple[Tournament, ...]:
    items = jsonio.require_list(data, "tournaments")
    result = []
    for t, item in enumerate(items):
        where = f"tournaments[{t}]"
        item = jsonio.require_object(item, where)
        for key in ("id", "class", "players", "games"):
            if key not in item:
                raise EngineInputError(where, f"missing {key!r}")
        date = item.get("date")
        if date is not None and not isinstance(date, str):
            raise EngineInputError(f"{where}.date", "must be a date string")
        players = []
        for p, player in enumerate(jsonio.require_list(item["players"], f"{where}.players")):
            pwhere = f"{where}.players[{p}]"
            player = jsonio.require_object(player, pwhere)
            if "id" not in player or "grade" not in player:
                raise EngineInputError(pwhere, "needs 'id' and 'grade'")
            rating = player.get("rating")
            if rating is not None:
                rating = jsonio.require_number(rating, f"{pwhere}.rating")
            highest = player.get("highest_grade")
            if highest is not None and not isinstance(highest, str):
                raise EngineInputError(f"{pwhere}.highest_grade", "must be a grade such as 3d")
            players.append(
                PlayerEntry(
                    jsonio.require_id(player["id"], f"{pwhere}.id"),
                    player["grade"],
                    rating,
                    highest,
                )
            )
        games = []
        for g, game in enumerate(jsonio.require_list(item["games"], f"{where}.games")):
            gwhere = f"{where}.games[{g}]"
            game = jsonio.require_object(game, gwhere)
            for key in ("white", "black", "result"):
                if key not in game:
                    raise EngineInputError(gwhere, f"missing {key!r}")
            games.append(
                Game(
                    white=jsonio.require_id(game["white"], f"{gwhere}.white"),
                    black=jsonio.require_id(game["black"], f"{gwhere}.black"),
                    result=jsonio.require_result(game["result"], f"{gwhere}.result"),
                    handicap=_check_handicap(game.get("handicap", 0), f"{gwhere}.handicap"),
                )
            )
        result.append(
            Tournament(
                id=jsonio.require_id(item["id"], f"{where}.id"),
                tournament_class=item["class"],
                date=date,
                players=tuple(players),
                games=tuple(games),
            )
        )
    return tuple(result)


def run_json(data: dict) -> dict:
    """The contract of ``python -m ratings.engines egf INPUT.json``. A history of the usual
    shape is read column by column (egf.columns); any other is read entry by entry, which
    names what is wrong."""
    return rated_to_json(_rate(data))


def run_text(data: dict) -> str:
    """``jsonio.dumps(run_json(data))``, the command line's output, written from the arrays
    without a dict per entry (tests/ratings/engines/test_cli_text.py)."""
    return rated_to_text(_rate(data))


def _rate(data: dict) -> RatedHistory:
    data = jsonio.require_object(data, "input")
    if "tournaments" not in data:
        raise EngineInputError("input", "missing 'tournaments'")
    params = params_from_json(data.get("params"))
    arrays = arrays_from_json(data["tournaments"])
    if arrays is None:
        arrays = history_arrays(tournaments_from_json(data["tournaments"]))
    return rate_arrays(arrays, params)
