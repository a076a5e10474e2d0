"""The JSON contract of ``python -m ratings.engines playchess INPUT.json``: JSON in, JSON out."""

from __future__ import annotations

from typing import Any

from ratings.engines.core import jsonio
from ratings.engines.core.errors import EngineInputError
from ratings.engines.playchess.rate import rate_batch
from ratings.engines.playchess.types import (
    Game,
    GameResult,
    KTable,
    Params,
    Player,
    PlayerResult,
    PriorGame,
)

# JSON contract


def _optional_number(obj: dict, key: str, where: str) -> float | None:
    return None if obj.get(key) is None else jsonio.require_number(obj[key], f"{where}.{key}")


MAX_COUNT = 10**9  # games a player has played: far beyond any real count


def _require_count(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise EngineInputError(where, f"must be a whole number, not {value!r}")
    if value > MAX_COUNT:  # beyond int64 NumPy would raise OverflowError
        raise EngineInputError(where, f"must be at most {MAX_COUNT:,}, not {value!r}")
    return value


_PARAM_KEYS = {"entry_rating", "k_table", "cutoff", "established_games"}


def _nodes_from_json(value: Any, where: str) -> tuple[tuple[float, float], ...]:
    nodes = []
    for i, node in enumerate(jsonio.require_list(value, where)):
        pair = jsonio.require_list(node, f"{where}[{i}]")
        if len(pair) != 2:
            raise EngineInputError(f"{where}[{i}]", "must be a pair [x, value]")
        nodes.append(
            (
                jsonio.require_number(pair[0], f"{where}[{i}][0]"),
                jsonio.require_number(pair[1], f"{where}[{i}][1]"),
            )
        )
    return tuple(nodes)


def params_from_json(value: Any) -> Params:
    obj = jsonio.require_object({} if value is None else value, "params")
    unknown = sorted(set(obj) - _PARAM_KEYS)
    if unknown:
        raise EngineInputError(f"params.{unknown[0]}", "unknown parameter")
    defaults = Params()
    table = defaults.k_table
    if "k_table" in obj:
        kt = jsonio.require_object(obj["k_table"], "params.k_table")
        extra = sorted(set(kt) - {"r", "g"})
        if extra:
            raise EngineInputError(f"params.k_table.{extra[0]}", "unknown key (use r and g)")
        table = KTable(
            r_nodes=_nodes_from_json(kt["r"], "params.k_table.r") if "r" in kt else table.r_nodes,
            g_nodes=_nodes_from_json(kt["g"], "params.k_table.g") if "g" in kt else table.g_nodes,
        )
    return Params(
        entry_rating=defaults.entry_rating
        if obj.get("entry_rating") is None
        else jsonio.require_number(obj["entry_rating"], "params.entry_rating"),
        k_table=table,
        cutoff=defaults.cutoff
        if obj.get("cutoff") is None
        else jsonio.require_number(obj["cutoff"], "params.cutoff", positive=True),
        established_games=defaults.established_games
        if obj.get("established_games") is None
        else _require_count(obj["established_games"], "params.established_games"),
    )


def _player_from_json(value: Any, where: str) -> Player:
    obj = jsonio.require_object(value, where)
    history = None
    if obj.get("history") is not None:
        history = []
        for i, item in enumerate(jsonio.require_list(obj["history"], f"{where}.history")):
            at = f"{where}.history[{i}]"
            item = jsonio.require_object(item, at)
            history.append(
                PriorGame(
                    opponent_rating=jsonio.require_number(
                        item.get("opponent_rating"), f"{at}.opponent_rating"
                    ),
                    result=jsonio.require_result(item.get("result"), f"{at}.result"),
                )
            )
        history = tuple(history)
    return Player(
        id=jsonio.require_id(obj.get("id"), f"{where}.id"),
        rating=_optional_number(obj, "rating", where),
        games=0 if obj.get("games") is None else _require_count(obj["games"], f"{where}.games"),
        score=_optional_number(obj, "score", where),
        opponents=_optional_number(obj, "opponents", where),
        history=history,
    )


def _game_from_json(value: Any, where: str) -> Game:
    obj = jsonio.require_object(value, where)
    return Game(
        white=jsonio.require_id(obj.get("white"), f"{where}.white"),
        black=jsonio.require_id(obj.get("black"), f"{where}.black"),
        result=jsonio.require_result(obj.get("result"), f"{where}.result"),
    )


def _player_to_json(result: PlayerResult) -> dict:
    out: dict[str, Any] = {"id": result.id}
    if result.rating is not None:
        out["rating"] = result.rating
    out["games"] = result.games
    if result.provisional:
        out["score"] = result.score
        out["opponents"] = result.opponents
    out["provisional"] = result.provisional
    if result.rating is not None:
        out["published_rating"] = result.published_rating
    return out


def _game_to_json(result: GameResult) -> dict:
    return {
        "white_opponent_rating": result.white_opponent_rating,
        "black_opponent_rating": result.black_opponent_rating,
        "white_provisional": result.white_provisional,
        "black_provisional": result.black_provisional,
        "white_change": result.white_change,
        "black_change": result.black_change,
    }


def run_json(data: dict) -> dict:
    """The CLI contract (a thin wrapper around rate_batch).

    input:  {"params": {"entry_rating": 1500, "cutoff": 400, "established_games": 10,   (optional)
                        "k_table": {"r": [[2000, 20], [2400, 10]], "g": [[30, 1.25], [80, 1]]}},
             "players": [{"id": "a", "rating": 2200.0, "games": 40},
                         {"id": "b", "rating": 2000.0, "games": 5, "score": 2.5, "opponents": 10000.0},
                         {"id": "d", "rating": 1900.0, "games": 2,
                          "history": [{"opponent_rating": 1850.0, "result": 1}, ...]},
                         {"id": "c"}],
             "games": [{"white": "b", "black": "a", "result": 1}, ...]}        (finish order)
    output: {"players": [{"id", "rating"?, "games", "score"?, "opponents"?, "provisional",
                          "published_rating"?}, ...],                          (input order)
             "games": [{"white_opponent_rating", "black_opponent_rating", "white_provisional",
                        "black_provisional", "white_change", "black_change"}, ...]}
    rating/published_rating are absent for a player still unrated; score/opponents are present
    while provisional. *_change is null for a side rated provisionally.
    """
    data = jsonio.require_object(data, "input")
    params = params_from_json(data.get("params"))
    players = [
        _player_from_json(p, f"players[{i}]")
        for i, p in enumerate(jsonio.require_list(data.get("players"), "players"))
    ]
    games = [
        _game_from_json(g, f"games[{j}]")
        for j, g in enumerate(jsonio.require_list(data.get("games", []), "games"))
    ]
    result = rate_batch(players, games, params)
    return {
        "players": [_player_to_json(p) for p in result.players],
        "games": [_game_to_json(g) for g in result.games],
    }
