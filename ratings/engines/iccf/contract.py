"""The JSON contract of ``python -m ratings.engines iccf INPUT.json``: JSON in, JSON out."""

from __future__ import annotations

from dataclasses import dataclass, fields
from itertools import repeat
from operator import itemgetter
from typing import Any

import numpy as np

from ratings.engines.core import jsonio
from ratings.engines.core.errors import EngineInputError
from ratings.engines.core.rounding import half_up_ints
from ratings.engines.iccf.input_columns import InputColumns
from ratings.engines.iccf.rate import (
    _number,
    _plain,
    _result,
    bulk_arrays,
    rate_arrays,
    rate_period,
    validate_params,
    with_substitutions,
)
from ratings.engines.iccf.types import (
    Columns,
    Game,
    Params,
    PeriodArrays,
    PeriodOutcome,
    Player,
    PlayerResult,
    Substitution,
)

_PLAYER_KEYS = frozenset(("id", "rating", "rd", "unrated", "fide"))
_GAME_KEYS = frozenset(f.name for f in fields(Game))
_GAME_NEEDS = ("white", "black", "result")
_SUBSTITUTION_KEYS = frozenset(f.name for f in fields(Substitution))


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
    _only_keys(raw, _SUBSTITUTION_KEYS, where)
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


@dataclass(frozen=True, eq=False)
class RatedColumns:
    """run_json's output for an input held as columns: the players' ids and the core's arrays.
    ``to_json()`` is the output document, ``text()`` the command line's text of it."""

    ids: tuple[str, ...]
    outcome: PeriodOutcome

    def to_json(self) -> dict:
        return _outcome_to_json(self.ids, self.outcome)

    def text(self) -> str:
        return _outcome_text(self.ids, self.outcome)


def run_json(data: Any) -> dict | RatedColumns:
    """The period's results. Entries of the usual shape are read column by column straight into
    arrays; any other input is read entry by entry, which names the first bad entry. Both give
    the same output, or the same error, for every input (tests/ratings/engines/iccf/test_columns.py).
    ``data`` may also be the document held as columns (InputColumns, what a rating run builds):
    the output is then held as columns too (RatedColumns, or the document where the columns
    were read as a document), the same output or error as for its ``to_json()``
    (tests/ratings/engines/iccf/test_input_columns.py)."""
    if isinstance(data, InputColumns):
        rated = _rate_columns(data)
        return rated if isinstance(rated, dict) else RatedColumns(*rated)
    rated = _rate(data)
    return rated if isinstance(rated, dict) else _outcome_to_json(*rated)


def run_text(data: Any) -> str:
    """``jsonio.dumps(run_json(data))``, the command line's output: on the column path written
    from the arrays, without a dict per player (tests/ratings/engines/test_cli_text.py)."""
    rated = _rate(data)
    return jsonio.dumps(rated) if isinstance(rated, dict) else _outcome_text(*rated)


def _rate_columns(data: InputColumns) -> dict | tuple[tuple[str, ...], PeriodOutcome]:
    """``_rate(data.to_json())`` without a dict per game when the columns pass the bulk checks;
    otherwise the dicts are read, which decides or names the first bad entry."""
    arrays = data.period_arrays()
    if arrays is None:
        return _rate(data.to_json())
    params = _params_from_json(data.params)  # first, as _rate reads it
    if not _bulk_substitutions(arrays, data.substitutions):
        return _rate(data.to_json())
    validate_params(params)
    return arrays.ids, rate_arrays(arrays, params)


def _rate(data: Any) -> dict | tuple[tuple[str, ...], PeriodOutcome]:
    """The output of the entry-by-entry reading, or the ids and arrays of the column path."""
    data = jsonio.require_object(data, "input")
    _only_keys(data, {"params", "players", "games", "substitutions"}, "input")
    for key in ("players", "games"):
        if key not in data:
            raise EngineInputError(key, "missing")
    params = _params_from_json(data.get("params"))
    players = jsonio.require_list(data["players"], "players")
    games = jsonio.require_list(data["games"], "games")
    columns = _columns_from_json(players, games)
    arrays = None if columns is None else bulk_arrays(columns)
    if arrays is None:
        return _run_entry_by_entry(data, params)
    if _bulk_substitutions(arrays, data.get("substitutions")):
        validate_params(params)
    else:  # the same checks in the same order as before, naming the first bad entry
        substitutions = _substitutions_from_json(data)
        validate_params(params)
        arrays = with_substitutions(arrays, substitutions, _GameSides(columns.white, columns.black))
    return arrays.ids, rate_arrays(arrays, params)


def _run_entry_by_entry(data: dict, params: Params) -> dict:
    players = [_player_from_json(p, f"players[{i}]") for i, p in enumerate(data["players"])]
    games = [_game_from_json(g, f"games[{i}]") for i, g in enumerate(data["games"])]
    results = rate_period(players, games, _substitutions_from_json(data), params)
    return {"players": [_result_to_json(r) for r in results]}


def _substitutions_from_json(data: dict) -> list[Substitution]:
    raw_subs = data.get("substitutions") or []
    return [
        _substitution_from_json(s, f"substitutions[{i}]")
        for i, s in enumerate(jsonio.require_list(raw_subs, "substitutions"))
    ]


def _columns_from_json(players: list, games: list) -> Columns | None:
    """Columns of the JSON lists when every entry is an object of the usual shape (known keys;
    a rated player with rating and RD, an unrated one with neither); None otherwise. The values
    themselves are checked in bulk by bulk_arrays."""
    if not (_plain(players, {dict}) and _plain(games, {dict})):
        return None
    if set(map(len, games)) <= {len(_GAME_NEEDS)}:
        game_keys = set(_GAME_NEEDS) if games else set()  # all three, or a KeyError below
    else:
        game_keys = set().union(*games)
    if not (set().union(*players) <= _PLAYER_KEYS and game_keys <= _GAME_KEYS):
        return None
    unrated = [p.get("unrated", False) for p in players]
    if not _plain(unrated, {bool}):
        return None
    rating = [p.get("rating") for p in players]
    rd = [p.get("rd") for p in players]
    for player, is_unrated, r, d in zip(players, unrated, rating, rd, strict=True):
        if ("rating" in player or "rd" in player) if is_unrated else (r is None or d is None):
            return None
    try:  # a game without one of these is read entry by entry, which names it
        white, black, result = (list(map(itemgetter(key), games)) for key in _GAME_NEEDS)
    except KeyError:
        return None
    return Columns(
        ids=[p.get("id") for p in players],
        rating=rating,
        rd=rd,
        fide=[p.get("fide") if u else None for p, u in zip(players, unrated, strict=True)],
        white=white,
        black=black,
        result=result,
        white_start=_optional_column(games, game_keys, "white_start"),
        black_start=_optional_column(games, game_keys, "black_start"),
    )


def _optional_column(games: list[dict], present: set[str], key: str) -> list:
    return list(map(dict.get, games, repeat(key))) if key in present else [None] * len(games)


_SIDE_NUMBER = {"white": 0, "black": 1}


def _bulk_substitutions(arrays: PeriodArrays, raw: Any) -> bool:
    """Records the substitutions in ``arrays`` when all are of the usual shape and pass every
    check of rate._validate_substitutions, all at once; False (arrays untouched) otherwise, and
    the entry-by-entry reading decides, naming the first bad one."""
    if raw is None or raw == []:
        return True
    if type(raw) is not list or not _plain(raw, {dict}) or set(map(len, raw)) != {3}:
        return False
    try:
        game, side, replaces = (list(map(itemgetter(key), raw)) for key in _SUBSTITUTION_ORDER)
    except KeyError:
        return False
    if not (_plain(game, {int}) and _plain(side, {str}) and _plain(replaces, {str})):
        return False
    return _record_substitutions(arrays, game, side, replaces)


def _record_substitutions(
    arrays: PeriodArrays, game: list[int], side: list[str], replaces: list[str]
) -> bool:
    """_bulk_substitutions of the three columns, their types checked."""
    if not game:
        return True
    if not set(side) <= set(_SIDE_NUMBER):
        return False
    index = {pid: i for i, pid in enumerate(arrays.ids)}
    try:
        player = np.fromiter(map(index.__getitem__, replaces), dtype=np.intp, count=len(game))
    except KeyError:
        return False
    if min(game) < 0 or max(game) >= len(arrays.white):  # (Python ints: any size)
        return False
    game_of = np.array(game, dtype=np.int64)
    black_side = np.fromiter(map(_SIDE_NUMBER.__getitem__, side), dtype=bool, count=len(game))
    sides = np.sort(game_of * 2 + black_side)  # (np.unique would import numpy.ma: 12 ms)
    if (sides[1:] == sides[:-1]).any():  # a side substituted twice
        return False
    white_original, black_original = arrays.white.copy(), arrays.black.copy()
    white_original[game_of[~black_side]] = player[~black_side]
    black_original[game_of[black_side]] = player[black_side]
    named = np.where(black_side, arrays.black[game_of], arrays.white[game_of])
    other = np.where(black_side, arrays.white[game_of], arrays.black[game_of])
    other_original = np.where(black_side, white_original[game_of], black_original[game_of])
    # mine = {named, replaces}, theirs = {other, other_original}: disjoint (named != other holds)
    if (
        (player == named).any()
        or (player == other).any()
        or (player == other_original).any()
        or (named == other_original).any()
    ):
        return False
    arrays.white_original[:] = white_original
    arrays.black_original[:] = black_original
    return True


_SUBSTITUTION_ORDER = ("game", "side", "replaces")


class _GameSides:
    """Who sits on each side of game i, for the substitution checks (no Game per game)."""

    def __init__(self, white: list[str], black: list[str]):
        self.white, self.black = white, black

    def __len__(self) -> int:
        return len(self.white)

    def __getitem__(self, i: int) -> Game:
        return Game(self.white[i], self.black[i], 0.0)


def published_columns(out: PeriodOutcome) -> tuple[list[int], list[int]]:
    """The published rating and RD (rounded half up) of every player of the outcome, 0 for one
    who stays unrated: what the output's rows, its text and the rating list show."""
    return (
        half_up_ints(np.where(out.rated, out.rating, 0.0)),
        half_up_ints(np.where(out.rated, out.rd, 0.0)),
    )


def _outcome_to_json(ids: tuple[str, ...], out: PeriodOutcome) -> dict:
    rows = []
    published_rating, published_rd = published_columns(out)
    for pid, rating, rd, games, rated, shown_rating, shown_rd in zip(
        ids,
        out.rating.tolist(),
        out.rd.tolist(),
        out.games.tolist(),
        out.rated.tolist(),
        published_rating,
        published_rd,
        strict=True,
    ):
        if not rated:
            rows.append({"id": pid, "unrated": True, "games": games})
            continue
        rows.append(
            {
                "id": pid,
                "rating": rating,
                "rd": rd,
                "published_rating": shown_rating,
                "published_rd": shown_rd,
                "games": games,
            }
        )
    return {"players": rows}


_RATED_ROW = (
    '{"id": %s, "rating": %r, "rd": %r, "published_rating": %r, "published_rd": %r, "games": %r}'
)
_UNRATED_ROW = '{"id": %s, "unrated": true, "games": %r}'


def _outcome_text(ids: tuple[str, ...], out: PeriodOutcome) -> str:
    """``jsonio.dumps(_outcome_to_json(ids, out))``, one format per row: the same separators,
    str encoder and repr of floats and ints as json.dumps."""
    rated = out.rated
    if not (np.isfinite(out.rating[rated]).all() and np.isfinite(out.rd[rated]).all()):
        return jsonio.dumps(_outcome_to_json(ids, out))  # refuses as dumps does
    names = jsonio.string_texts(ids)
    games = out.games.tolist()
    published_rating, published_rd = published_columns(out)
    rows = list(
        map(
            _RATED_ROW.__mod__,
            zip(
                names,
                out.rating.tolist(),
                out.rd.tolist(),
                published_rating,
                published_rd,
                games,
                strict=True,
            ),
        )
    )
    for i in np.flatnonzero(~rated).tolist():
        rows[i] = _UNRATED_ROW % (names[i], games[i])
    return '{"players": [' + ", ".join(rows) + "]}"
