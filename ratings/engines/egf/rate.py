"""EGF GoR, the old system (Cieplý, RULES §2): rate tournaments in order, vectorised.

Inside a tournament every game is rated from pre-tournament ratings; across tournaments the
ratings carry over, new players start from their declared grade and a player whose grade jumped
is reset (§2.1). The per-game arithmetic runs as NumPy operations over whole tournaments, and
tournaments without a common player are rated together in "waves" (``_levels``), so a long
history is a Python loop over waves, never over games.
``ratings.engines.egf.reference`` is the formula-shaped scalar version the tests compare with.

API: ``rate_history`` (dataclasses in and out), ``rate_arrays`` (columns in and out, for bulk
database work).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from operator import attrgetter
from typing import Any

import numpy as np

from ratings.engines.core.errors import EngineInputError
from ratings.engines.core.grades import FLOOR, Grade, parse_grade
from ratings.engines.egf.types import (
    DEFAULT_PARAMS,
    HistoryArrays,
    Params,
    RatedHistory,
    Tournament,
    TournamentChange,
)

CLASS_WEIGHTS: Mapping[str, float] = {"A": 1.0, "B": 0.75, "C": 0.5, "D": 0.25}
MAX_DROP = 100.0  # a rating drops by at most this much at one tournament


# Table II: con at GoR 100, 200, ..., 2700 (116 at/below 100, 10 above 2700).
CON_NODES = np.arange(100.0, 2701.0, 100.0)
CON_VALUES = np.array(
    [116, 110, 105, 100, 95, 90, 85, 80, 75, 70, 65, 60, 55, 51, 47]
    + [43, 39, 35, 31, 27, 24, 21, 18, 15, 13, 11, 10],
    dtype=float,
)


RESET_AMATEUR_GAIN = 200  # two amateur grades (nominal GoR)
RESET_PROFESSIONAL_GAIN = 30  # one professional grade, when both grades are professional


def is_reset(grade: Grade, highest_before: Grade | None) -> bool:
    """Reset rule (§2.1): the grade improved by >= 2 amateur grades, or >= 1 professional grade
    when both grades are professional, over the highest grade professed before. [P] Mixed
    amateur/professional pairs compare nominal values (1p = 7d), so 5d -> 1p resets, 6d -> 1p does not.
    ``_starting_points`` applies the same rule to whole columns.
    """
    if highest_before is None:
        return False
    both_professional = grade.kind == "p" and highest_before.kind == "p"
    return bool(grade.nominal - highest_before.nominal >= _reset_gain(both_professional))


def _reset_gain(both_professional):
    return np.where(both_professional, RESET_PROFESSIONAL_GAIN, RESET_AMATEUR_GAIN)


def a_of(rating: np.ndarray | float) -> np.ndarray:
    """a(R) = 205 - R/20 on [100, 2700]; 200 below, 70 above (Table II, exactly linear)."""
    return 205.0 - np.clip(rating, 100.0, 2700.0) / 20.0


def con_of(rating: np.ndarray | float) -> np.ndarray:
    """con(R): linear interpolation between the Table II nodes, 116 below 100, 10 above 2700."""
    return np.interp(rating, CON_NODES, CON_VALUES)


def handicap_shift(stones: np.ndarray | int) -> np.ndarray:
    """Rating added to the receiver of H stones: 100 (H - 0.5) for H >= 1, else nothing."""
    stones = np.asarray(stones, dtype=float)
    return np.where(stones >= 1, 100.0 * (stones - 0.5), 0.0)


def _check_class(value: Any, where: str) -> float:
    if not isinstance(value, str) or value not in CLASS_WEIGHTS:  # a list is unhashable
        raise EngineInputError(where, f"class must be one of A, B, C, D, not {value!r}")
    return CLASS_WEIGHTS[value]


def _check_grade(value: Any, where: str) -> Grade:
    if not isinstance(value, str):
        raise EngineInputError(where, f"must be a grade string such as 3d or 5k, not {value!r}")
    try:
        return parse_grade(value)
    except ValueError as exc:
        raise EngineInputError(where, str(exc)) from None


@dataclass(frozen=True)
class _Sides:
    """Both sides of every game of one tournament, interleaved in game order (white, black, ...)."""

    own: np.ndarray  # local player index (position in the tournament's player list)
    opp: np.ndarray
    shift_own: np.ndarray  # handicap shift of the side's own rating
    shift_opp: np.ndarray
    score: np.ndarray


def _side_quantities(rpre: np.ndarray, sides: _Sides, half_eps: float):
    """Per side: own/opp rating, adjusted ratings, a, SE, con, dR. The one formula of the engine."""
    r_own = rpre[sides.own]
    r_opp = rpre[sides.opp]
    adj_own = r_own + sides.shift_own
    adj_opp = r_opp + sides.shift_opp
    a = a_of(np.minimum(adj_own, adj_opp))  # at the handicap-adjusted weaker rating
    expected = 1.0 / (np.exp((adj_opp - adj_own) / a) + 1.0) - half_eps
    con = con_of(rpre)[sides.own]  # at the own unadjusted rating: once per player
    change = con * (sides.score - expected)
    return r_own, r_opp, adj_own, adj_opp, a, expected, con, change


def _apply(rpre: np.ndarray, sums: np.ndarray, weight, weight_before_cap: bool):
    """Class weight and 100-point drop cap in the configured order (§2.3), then the floor.

    Returns (weighted, capped, change, after): ``weighted`` is what the weight made of the value
    it was applied to, ``capped`` what the cap made of its input, ``change`` the one applied.
    """
    if weight_before_cap:
        weighted = weight * sums
        capped = np.maximum(weighted, -MAX_DROP)
        change = capped
    else:
        capped = np.maximum(sums, -MAX_DROP)
        weighted = weight * capped
        change = weighted
    return weighted, capped, change, np.maximum(rpre + change, FLOOR)


def _sum_by_player(own: np.ndarray, change: np.ndarray, n_players: int) -> np.ndarray:
    # bincount adds each player's terms one after another in game order (reproducible).
    return np.bincount(own, weights=change, minlength=n_players)


def history_arrays(tournaments: Sequence[Tournament]) -> HistoryArrays:
    """Flattens tournament dataclasses into columns (the only per-game Python work)."""
    entry_ids: list[str] = []
    grades: list[str] = []
    ratings: list[float | None] = []
    highest: list[str | None] = []
    whites: list[str] = []
    blacks: list[str] = []
    results: list[float] = []
    stones: list[float] = []
    entry_offsets, game_offsets = [0], [0]
    for t, tour in enumerate(tournaments):
        ids = list(map(_ID, tour.players))
        if len(set(ids)) != len(ids):
            p = next(p for p, pid in enumerate(ids) if pid in ids[:p])
            raise EngineInputError(
                f"tournaments[{t}].players[{p}].id", f"player {ids[p]!r} appears twice"
            )
        entry_ids += ids
        grades += map(_GRADE_OF, tour.players)
        ratings += map(_RATING, tour.players)
        highest += map(_HIGHEST, tour.players)
        entry_offsets.append(len(entry_ids))
        whites += map(_WHITE, tour.games)
        blacks += map(_BLACK, tour.games)
        results += map(_RESULT, tour.games)
        stones += map(_HANDICAP, tour.games)
        game_offsets.append(len(whites))
    number_of = {pid: i for i, pid in enumerate(dict.fromkeys(entry_ids))}
    try:
        game_white = np.fromiter(map(number_of.__getitem__, whites), np.int64, len(whites))
        game_black = np.fromiter(map(number_of.__getitem__, blacks), np.int64, len(blacks))
    except KeyError:
        game_offsets_array = np.asarray(game_offsets)
        for colour, names in (("white", whites), ("black", blacks)):
            for flat, name in enumerate(names):
                if name not in number_of:
                    _raise_not_a_player(game_offsets_array, flat, colour, name)
        raise
    return HistoryArrays(
        tournament_ids=[tour.id for tour in tournaments],
        tournament_classes=[tour.tournament_class for tour in tournaments],
        player_ids=list(number_of),
        entry_offsets=np.asarray(entry_offsets, dtype=np.int64),
        entry_player=np.fromiter(map(number_of.__getitem__, entry_ids), np.int64, len(entry_ids)),
        entry_grade=grades,
        entry_highest_grade=highest if any(g is not None for g in highest) else None,
        entry_rating=_float_column(
            [np.nan if r is None else r for r in ratings], "rating", entry_offsets, "players"
        ),
        game_offsets=np.asarray(game_offsets, dtype=np.int64),
        game_white=game_white,
        game_black=game_black,
        game_result=_float_column(results, "result", game_offsets, "games"),
        game_handicap=_float_column(stones, "handicap", game_offsets, "games"),
    )


_ID, _GRADE_OF, _RATING = attrgetter("id"), attrgetter("grade"), attrgetter("rating")
_HIGHEST = attrgetter("highest_grade")
_WHITE, _BLACK = attrgetter("white"), attrgetter("black")
_RESULT, _HANDICAP = attrgetter("result"), attrgetter("handicap")


def _float_column(values: list, name: str, offsets: list[int], kind: str) -> np.ndarray:
    try:
        return np.asarray(values, dtype=float).reshape(len(values))
    except (TypeError, ValueError):
        for flat, value in enumerate(values):
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                where = _where(np.asarray(offsets), flat, kind)
                raise EngineInputError(
                    f"{where}.{name}", f"must be a number, not {value!r}"
                ) from None
        raise


def _where(offsets: np.ndarray, flat: int, kind: str) -> str:
    t = int(np.searchsorted(offsets, flat, side="right")) - 1
    return f"tournaments[{t}].{kind}[{flat - int(offsets[t])}]"


def _raise_not_a_player(game_offsets: np.ndarray, flat: int, colour: str, name: object):
    raise EngineInputError(
        f"{_where(game_offsets, flat, 'games')}.{colour}",
        f"{name!r} is not a player of this tournament",
    )


@dataclass(frozen=True)
class _Waves:
    """The history reordered into waves, each a contiguous block of entries and sides.

    A wave is a set of tournaments without a common player, all of whose players' earlier
    tournaments lie in earlier waves (``_levels``): rating a whole wave at once gives exactly
    what rating its tournaments one by one would. Inside a wave, a player is a position in the
    wave's block of entries; his sides keep the game order of his tournament.
    """

    entries: np.ndarray  # wave order -> input entry index
    entry_offsets: list[int]  # wave w owns entries [w]:[w + 1] (in wave order)
    side_offsets: list[int]
    player: np.ndarray  # per entry, wave order
    fixed: np.ndarray
    carried: np.ndarray
    weight: np.ndarray
    sides: _Sides  # own/opp are positions within the wave


def _plan(a: HistoryArrays) -> tuple[_Waves, np.ndarray, np.ndarray]:
    """Validates the columns and settles everything that does not depend on ratings.
    Returns the waves, the number of rated games per entry and where each rating starts."""
    n_tours, n_entries = len(a.tournament_ids), len(a.entry_player)
    eo, go = a.entry_offsets, a.game_offsets
    weights = np.empty(n_tours)
    for t, cls in enumerate(a.tournament_classes):
        weights[t] = _check_class(cls, f"tournaments[{t}].class")
    _check_values(a)

    levels = _levels(a)
    order = np.argsort(levels, kind="stable")
    entries = _concatenated_ranges(eo, order)
    games = _concatenated_ranges(go, order)
    n_waves = int(levels.max()) + 1 if n_tours else 0
    per_wave = np.bincount(levels, weights=np.diff(eo), minlength=n_waves).astype(np.int64)
    games_per_wave = np.bincount(levels, weights=np.diff(go), minlength=n_waves).astype(np.int64)
    wave_entries = np.concatenate([[0], np.cumsum(per_wave)]).tolist()
    wave_games = np.concatenate([[0], np.cumsum(games_per_wave)]).tolist()

    entry_tour = np.repeat(np.arange(n_tours, dtype=np.int64), np.diff(eo))
    game_tour = np.repeat(np.arange(n_tours, dtype=np.int64), np.diff(go))
    player, tour_of_entry = a.entry_player[entries], entry_tour[entries]
    white, black, tour_of_game = a.game_white[games], a.game_black[games], game_tour[games]

    # Positions within the wave: a player is in at most one tournament of a wave, so one scatter
    # per wave maps player -> position; a stale slot (other tournament) marks a non-member.
    slot = np.zeros(len(a.player_ids), dtype=np.int64)
    slot_tour = np.full(len(a.player_ids), -1, dtype=np.int64)
    local = np.empty((2, len(games)), dtype=np.int64)
    member = np.empty((2, len(games)), dtype=bool)
    for w in range(n_waves):
        e0, e1, g0, g1 = wave_entries[w], wave_entries[w + 1], wave_games[w], wave_games[w + 1]
        slot[player[e0:e1]] = np.arange(e1 - e0)
        clash = slot[player[e0:e1]] != np.arange(e1 - e0)  # only from columnar callers
        if clash.any():
            later = int(slot[player[e0 + int(np.flatnonzero(clash)[0])]])
            flat = int(entries[e0 + later])
            raise EngineInputError(_where(eo, flat, "players"), "player appears twice")
        slot_tour[player[e0:e1]] = tour_of_entry[e0:e1]
        for side, number in enumerate((white[g0:g1], black[g0:g1])):
            local[side, g0:g1] = slot[number]
            member[side, g0:g1] = slot_tour[number] == tour_of_game[g0:g1]
    for side, colour in enumerate(("white", "black")):
        if not member[side].all():
            flat = int(games[np.flatnonzero(~member[side])].min())
            number = (a.game_white if side == 0 else a.game_black)[flat]
            _raise_not_a_player(go, flat, colour, a.player_ids[int(number)])
    if (white == black).any():
        flat = int(games[np.flatnonzero(white == black)].min())
        raise EngineInputError(_where(go, flat, "games"), "a player cannot play himself")

    # Sides interleaved in game order: side 2g is White of game g, side 2g + 1 its Black.
    result = a.game_result[games]
    shift_black = handicap_shift(a.game_handicap[games])
    zeros = np.zeros(len(games))
    sides = _Sides(
        own=_interleaved(local[0], local[1]),
        opp=_interleaved(local[1], local[0]),
        shift_own=_interleaved(zeros, shift_black),
        shift_opp=_interleaved(shift_black, zeros),
        score=_interleaved(result, 1.0 - result),
    )
    wave_of_side = np.repeat(np.arange(n_waves), 2 * games_per_wave)
    side_entry = sides.own + np.asarray(wave_entries[:-1], dtype=np.int64)[wave_of_side]
    game_counts = np.empty(n_entries, dtype=np.int64)
    game_counts[entries] = np.bincount(side_entry, minlength=n_entries)

    fixed, carried, start = _starting_points(a)
    waves = _Waves(
        entries=entries,
        entry_offsets=wave_entries,
        side_offsets=[2 * g for g in wave_games],
        player=player,
        fixed=fixed[entries],
        carried=carried[entries],
        weight=weights[tour_of_entry],
        sides=sides,
    )
    return waves, game_counts, start


def _interleaved(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """first[0], second[0], first[1], second[1], ...: each side of a game after the other."""
    out = np.empty(2 * len(first), dtype=first.dtype)
    out[0::2] = first
    out[1::2] = second
    return out


def _check_shapes(a: HistoryArrays) -> None:
    """Columnar callers build these arrays themselves: the blocks must fit together."""
    n_tours = len(a.tournament_ids)
    if len(a.tournament_classes) != n_tours:
        raise EngineInputError("tournament_classes", "one class per tournament")
    for name, offsets, length in (
        ("entry_offsets", a.entry_offsets, len(a.entry_player)),
        ("game_offsets", a.game_offsets, len(a.game_white)),
    ):
        if (
            len(offsets) != n_tours + 1
            or offsets[0] != 0
            or offsets[-1] != length
            or (np.diff(offsets) < 0).any()
        ):
            raise EngineInputError(name, f"must rise from 0 to {length} in {n_tours + 1} steps")
    if not len(a.entry_grade) == len(a.entry_rating) == len(a.entry_player):
        raise EngineInputError("entry_grade", "one grade and one rating (or NaN) per entry")
    if a.entry_highest_grade is not None and len(a.entry_highest_grade) != len(a.entry_player):
        raise EngineInputError("entry_highest_grade", "one highest grade (or None) per entry")
    if not len(a.game_black) == len(a.game_result) == len(a.game_handicap) == len(a.game_white):
        raise EngineInputError("game_black", "game columns of different lengths")
    for name, numbers in (
        ("entry_player", a.entry_player),
        ("game_white", a.game_white),
        ("game_black", a.game_black),
    ):
        if len(numbers) and (numbers.min() < 0 or numbers.max() >= len(a.player_ids)):
            raise EngineInputError(name, "player number outside player_ids")


def _check_values(a: HistoryArrays) -> None:
    _check_shapes(a)
    eo, go = a.entry_offsets, a.game_offsets
    result, stone, rating = a.game_result, a.game_handicap, a.entry_rating
    for bad, column, name, rule in (
        (~np.isin(result, (0.0, 0.5, 1.0)), result, "result", "must be 1, 0.5 or 0"),
        ((stone < 0) | (stone != np.floor(stone)), stone, "handicap", "must be whole stones >= 0"),
        (np.isinf(rating), rating, "rating", "must be finite"),
    ):
        if bad.any():
            flat = int(np.flatnonzero(bad)[0])
            where = _where(eo, flat, "players") if name == "rating" else _where(go, flat, "games")
            raise EngineInputError(f"{where}.{name}", f"{rule}, not {column[flat]!r}")


def _levels(arrays: HistoryArrays) -> np.ndarray:
    """Wave of each tournament: one more than the latest wave any of its players was in.
    (Python lists: a NumPy call per tournament costs more than the work on its few players.)"""
    last = [0] * len(arrays.player_ids)
    levels = [0] * len(arrays.tournament_ids)
    player = arrays.entry_player.tolist()
    offsets = arrays.entry_offsets.tolist()
    for t in range(len(levels)):
        players = player[offsets[t] : offsets[t + 1]]
        if players:
            level = max(map(last.__getitem__, players)) + 1
            for p in players:
                last[p] = level
            levels[t] = level
    return np.array(levels, dtype=np.int64)


def _concatenated_ranges(offsets: np.ndarray, order: np.ndarray) -> np.ndarray:
    """Indices of the blocks offsets[i]:offsets[i + 1] for i in ``order``, one after another."""
    lengths = np.diff(offsets)[order]
    starts = offsets[:-1][order]
    block_start = np.concatenate([[0], np.cumsum(lengths)[:-1]]) if len(order) else lengths
    return np.repeat(starts - block_start, lengths) + np.arange(int(lengths.sum()), dtype=np.int64)


def _grade_strengths(
    grades: Sequence[str | None], offsets: np.ndarray, name: str, *, optional: bool = False
) -> np.ndarray:
    """Strength of each written grade; NO_GRADE where an ``optional`` grade is missing."""
    strength_of = _optional_strength if optional else _strength
    try:
        strengths = np.array(list(map(strength_of, grades)), dtype=np.int64)
        return strengths.reshape(len(grades))
    except (ValueError, TypeError, AttributeError):
        for flat, grade in enumerate(grades):
            if grade is not None or not optional:
                _check_grade(grade, f"{_where(offsets, flat, 'players')}.{name}")
        raise


NO_GRADE = -(10**6)  # below every grade's strength


@lru_cache(maxsize=1024)
def _strength(grade: str) -> int:
    return parse_grade(grade).strength


def _optional_strength(grade: str | None) -> int:
    return NO_GRADE if grade is None else _strength(grade)


def _starting_points(a: HistoryArrays):
    """Where each entry's pre-tournament rating comes from. Grades do not depend on ratings, so
    the reset rule is settled for the whole history at once. The highest grade professed before
    an entry is the highest of the grades of the player's earlier entries and of the highest
    grades the caller states (``entry_highest_grade``: from before this history, e.g. an earlier
    run): a grouped running maximum over each player's entries in input order. A reset wins over
    a given rating: the given rating is what the player had before his grade jumped."""
    strength = _grade_strengths(a.entry_grade, a.entry_offsets, "grade")
    n = len(strength)
    stated = a.entry_highest_grade
    prior = (
        np.full(n, NO_GRADE, dtype=np.int64)
        if stated is None
        else _grade_strengths(stated, a.entry_offsets, "highest_grade", optional=True)
    )
    nominal, pro = np.divmod(strength, 2)
    seen_before = np.zeros(n, dtype=bool)
    highest = prior.copy()
    if n:
        order = np.argsort(a.entry_player, kind="stable")  # by player, then input order
        players_sorted = a.entry_player[order]
        first = np.ones(n, dtype=bool)
        first[1:] = players_sorted[1:] != players_sorted[:-1]
        group = np.cumsum(first)
        value = np.maximum(strength, prior)[order]  # what each entry shows of the player
        low = int(value.min())
        span = int(value.max()) - low + 1
        running = np.maximum.accumulate(group * span + (value - low))
        earlier = np.full(n, NO_GRADE, dtype=np.int64)
        earlier[1:] = np.where(first[1:], NO_GRADE, running[:-1] - group[1:] * span + low)
        highest[order] = np.maximum(prior[order], earlier)
        seen_before[order] = ~first
    highest_nominal, highest_pro = np.divmod(highest, 2)
    has_given = ~np.isnan(a.entry_rating)
    reset = (highest > NO_GRADE) & (
        nominal - highest_nominal >= _reset_gain((pro == 1) & (highest_pro == 1))
    )
    carried = seen_before & ~has_given & ~reset
    given = has_given & ~reset
    fixed = np.where(given, a.entry_rating, np.maximum(nominal, FLOOR)).astype(float)
    start = np.select([reset, given, ~seen_before], ["reset", "given", "grade"], "carried")
    return fixed, carried, start


def rate_arrays(arrays: HistoryArrays, params: Params = DEFAULT_PARAMS) -> RatedHistory:
    """Rates a columnar history in order, one wave of player-disjoint tournaments at a time."""
    waves, game_counts, start = _plan(arrays)
    rating = np.zeros(len(arrays.player_ids))
    before, after = np.empty(len(waves.entries)), np.empty(len(waves.entries))
    half_eps = params.epsilon / 2.0
    s, eo, so = waves.sides, waves.entry_offsets, waves.side_offsets
    for w in range(len(eo) - 1):
        e0, e1, s0, s1 = eo[w], eo[w + 1], so[w], so[w + 1]
        players = waves.player[e0:e1]
        rpre = np.where(waves.carried[e0:e1], rating[players], waves.fixed[e0:e1])
        part = _Sides(
            s.own[s0:s1], s.opp[s0:s1], s.shift_own[s0:s1], s.shift_opp[s0:s1], s.score[s0:s1]
        )
        change = _side_quantities(rpre, part, half_eps)[-1]
        sums = _sum_by_player(part.own, change, e1 - e0)
        post = _apply(rpre, sums, waves.weight[e0:e1], params.weight_before_cap)[3]
        rating[players] = post
        before[e0:e1] = rpre
        after[e0:e1] = post
    in_order_before, in_order_after = np.empty_like(before), np.empty_like(after)
    in_order_before[waves.entries] = before
    in_order_after[waves.entries] = after
    return RatedHistory(arrays, in_order_before, in_order_after, game_counts, start)


def rate_history(
    tournaments: Sequence[Tournament], params: Params = DEFAULT_PARAMS
) -> tuple[TournamentChange, ...]:
    """Rates the tournaments in the order given, each from the ratings after all earlier ones."""
    return rate_arrays(history_arrays(tournaments), params).changes()


def rate_tournament(tournament: Tournament, params: Params = DEFAULT_PARAMS) -> TournamentChange:
    """One tournament on its own: players without a given rating start from their grade."""
    return rate_history([tournament], params)[0]
