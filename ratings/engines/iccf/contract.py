"""The JSON contract of ``python -m ratings.engines iccf INPUT.json``: JSON in, JSON out."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from ratings.engines.core import jsonio
from ratings.engines.core.errors import EngineInputError
from ratings.engines.iccf.rate import _number, _result, rate_period
from ratings.engines.iccf.types import Game, Params, Player, PlayerResult, Substitution


def _optional(entry: dict, key: str, where: str) -> float | None:
    value = entry.get(key)
    return None if value is None else _number(value, f"{where}.{key}")


def _only_keys(entry: dict, allowed: set[str], where: str) -> None:
    unknown = sorted(set(entry) - allowed)
    if unknown:
        raise EngineInputError(f"{where}.{unknown[0]}", "unknown field")


def _params_from_json(raw: Any) -> Params:
    if raw is None:
        return Params()
    raw = jsonio.require_object(raw, "params")
    _only_keys(raw, {f.name for f in fields(Params)}, "params")
    values = {}
    for key in ("alpha0", "alpha1", "c"):
        if key in raw:
            values[key] = _number(raw[key], f"params.{key}")
    if "rd_cap" in raw:
        values["rd_cap"] = _optional(raw, "rd_cap", "params")
    return Params(**values)


def _player_from_json(raw: Any, where: str) -> Player:
    raw = jsonio.require_object(raw, where)
    _only_keys(raw, {"id", "rating", "rd", "unrated", "fide"}, where)
    if "id" not in raw:
        raise EngineInputError(f"{where}.id", "missing")
    pid = jsonio.require_id(raw["id"], f"{where}.id")
    unrated = raw.get("unrated", False)
    if not isinstance(unrated, bool):
        raise EngineInputError(f"{where}.unrated", f"must be true or false, not {unrated!r}")
    if unrated:
        for key in ("rating", "rd"):
            if key in raw:
                raise EngineInputError(f"{where}.{key}", "an unrated player has none")
        return Player(pid, fide=_optional(raw, "fide", where))
    for key in ("rating", "rd"):
        if raw.get(key) is None:
            raise EngineInputError(f"{where}.{key}", "missing for a rated player")
    return Player(pid, _optional(raw, "rating", where), _optional(raw, "rd", where))


def _game_from_json(raw: Any, where: str) -> Game:
    raw = jsonio.require_object(raw, where)
    _only_keys(raw, {f.name for f in fields(Game)}, where)
    for key in ("white", "black", "result"):
        if key not in raw:
            raise EngineInputError(f"{where}.{key}", "missing")
    return Game(
        jsonio.require_id(raw["white"], f"{where}.white"),
        jsonio.require_id(raw["black"], f"{where}.black"),
        _result(raw["result"], f"{where}.result"),
        _optional(raw, "white_start", where),
        _optional(raw, "black_start", where),
    )


def _substitution_from_json(raw: Any, where: str) -> Substitution:
    raw = jsonio.require_object(raw, where)
    _only_keys(raw, {f.name for f in fields(Substitution)}, where)
    for key in ("game", "side", "replaces"):
        if key not in raw:
            raise EngineInputError(f"{where}.{key}", "missing")
    game = raw["game"]
    if isinstance(game, float) and game.is_integer():
        game = int(game)
    return Substitution(game, raw["side"], jsonio.require_id(raw["replaces"], f"{where}.replaces"))


def _result_to_json(result: PlayerResult) -> dict:
    if result.unrated:
        return {"id": result.id, "unrated": True, "games": result.games}
    return {
        "id": result.id,
        "rating": result.rating,
        "rd": result.rd,
        "published_rating": result.published_rating,
        "published_rd": result.published_rd,
        "games": result.games,
    }


def run_json(data: Any) -> dict:
    data = jsonio.require_object(data, "input")
    _only_keys(data, {"params", "players", "games", "substitutions"}, "input")
    for key in ("players", "games"):
        if key not in data:
            raise EngineInputError(key, "missing")
    params = _params_from_json(data.get("params"))
    players = [
        _player_from_json(p, f"players[{i}]")
        for i, p in enumerate(jsonio.require_list(data["players"], "players"))
    ]
    games = [
        _game_from_json(g, f"games[{i}]")
        for i, g in enumerate(jsonio.require_list(data["games"], "games"))
    ]
    raw_subs = data.get("substitutions") or []
    substitutions = [
        _substitution_from_json(s, f"substitutions[{i}]")
        for i, s in enumerate(jsonio.require_list(raw_subs, "substitutions"))
    ]
    results = rate_period(players, games, substitutions, params)
    return {"players": [_result_to_json(r) for r in results]}
