"""ICCF rating period (RULES §1): Glicko extension with win/draw/loss probabilities.

Every player is updated from the pre-period values of everybody, so one period is one batch of
array operations over all games. Public API:

* ``rate_period(players, games, substitutions=(), params=Params()) -> list[PlayerResult]``
* ``explain(player_id, players, games, substitutions=(), params=Params()) -> PlayerExplanation``
  (per-game intermediate quantities for the "explain my change" page and the what-if calculator)
* ``run_json(data) -> dict``: the ``python -m ratings.engines iccf`` contract
* ``to_arrays`` / ``rate_arrays``: the array core, for bulk callers and the benchmark
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any

import numpy as np

from ratings.engines import jsonio
from ratings.engines.errors import EngineInputError
from ratings.engines.rounding import half_up_int

SCALE = 173.7  # exactly 173.7, not 400/ln 10
BETA0 = 1.0986
BETA1 = 0.17037
INFLATE_AT_OR_BELOW = 120.0  # RD_old above this is carried unchanged (§1.2)
RD_FLOOR = 30.0
RD_CEILING = 250.0
UNRATED_RATING, UNRATED_RD = 1800.0, 250.0
FIDE_RD = 150.0
# [P] bounds on input values. Ratings: beyond them the exponentials of §1.3 lose all meaning.
# RD: a carried RD is at most 250 (Appendix 1 rule 5); above about 400 an opponent's D2 can turn
# positive and the update of §1.3 (f) breaks down.
RATING_BOUNDS = (0.0, 4000.0)
ALPHA_LIMIT = 10.0

SIDES = ("white", "black")


# Plain data for the Django side -----------------------------------------------------------------


@dataclass(frozen=True)
class Params:
    alpha0: float = 0.0  # white advantage (§1.7); 0 = official ICCF
    alpha1: float = 0.0
    rd_cap: float | None = 120.0  # None = Appendix 1 text, no cap (§1.2)
    c: float = 25.0  # RD inflation per period


@dataclass(frozen=True)
class Player:
    """Values carried from the end of the previous period; ``rating=None`` = unrated.

    ``fide`` is the declared FIDE rating of an unrated player (ignored for rated players).
    """

    id: str
    rating: float | None = None
    rd: float | None = None
    fide: float | None = None


@dataclass(frozen=True)
class Game:
    """One rated game; ``result`` is White's score. ``*_start``: start rating in the tournament."""

    white: str
    black: str
    result: float
    white_start: float | None = None
    black_start: float | None = None


@dataclass(frozen=True)
class Substitution:
    """Rule 6: the player named on ``side`` of ``games[game]`` played instead of ``replaces``."""

    game: int
    side: str
    replaces: str


@dataclass(frozen=True)
class PlayerResult:
    """End of period; ``rating is None`` = still unrated (played nothing)."""

    id: str
    rating: float | None
    rd: float | None
    published_rating: int | None
    published_rd: int | None
    games: int

    @property
    def unrated(self) -> bool:
        return self.rating is None


@dataclass(frozen=True)
class GameExplanation:
    """One game as it entered the player's update (RULES §1.3 names)."""

    game: int
    colour: str
    y: float
    played_by: str  # who sat at the board (a substitute, when rule 6 gave the game to this player)
    opponent: str  # whose rating and RD were used (rule 6: the higher-rated of original/substitute)
    opponent_played_by: str
    opponent_rating: float  # after rule 1.4
    opponent_rd: float
    pw_minus: float
    pw_plus: float
    pd_minus: float
    pd_plus: float
    pl_minus: float
    pl_plus: float
    p: float
    w1_minus: float
    w1_plus: float
    w2_minus: float
    w2_plus: float
    d1: float
    d2: float


@dataclass(frozen=True)
class SubstituteDecision:
    """Rule 6 test of one substituted side: D1 of the game for the substitute alone."""

    game: int
    side: str
    substitute: str
    replaces: str
    d1: float
    counted_for: str


@dataclass(frozen=True)
class PlayerExplanation:
    id: str
    start_rating: float
    start_rd: float
    mu: float
    sigma: float
    games: tuple[GameExplanation, ...]
    substitute_decisions: tuple[SubstituteDecision, ...]  # rule 6 tests involving this player
    sum_d1: float
    sum_d2: float
    sigma_prime: float | None  # None: unrated and played nothing
    mu_prime: float | None
    rating: float | None
    rd: float | None
    published_rating: int | None
    published_rd: int | None


# Validation --------------------------------------------------------------------------------------


def _number(value: Any, where: str, *, positive: bool = False) -> float:
    """jsonio.require_number, also for integers too large for a float (JSON allows them)."""
    try:
        return jsonio.require_number(value, where, positive=positive)
    except OverflowError:
        raise EngineInputError(where, "number out of range") from None


def _result(value: Any, where: str) -> float:
    _number(value, where)
    return jsonio.require_result(value, where)


def _check_number(value: Any, where: str, low: float, high: float, *, positive=False) -> None:
    number = _number(value, where, positive=positive)
    if not low <= number <= high:
        raise EngineInputError(where, f"must lie in [{low:g}, {high:g}], not {value!r}")


def _check_rating(value: Any, where: str) -> None:
    _check_number(value, where, *RATING_BOUNDS)


def validate_params(params: Params) -> None:
    # [P] |alpha| <= 10: far beyond any fitted white advantage, and the exponentials stay finite
    _check_number(params.alpha0, "params.alpha0", -ALPHA_LIMIT, ALPHA_LIMIT)
    _check_number(params.alpha1, "params.alpha1", -ALPHA_LIMIT, ALPHA_LIMIT)
    _check_number(params.c, "params.c", 0.0, RD_CEILING)
    if params.rd_cap is not None:
        _check_number(params.rd_cap, "params.rd_cap", RD_FLOOR, RD_CEILING)


def _check_id(value: Any, where: str) -> str:
    if not isinstance(value, str) or not value:
        raise EngineInputError(where, f"must be a non-empty string id, not {value!r}")
    return value


def validate_period(
    players: Sequence[Player],
    games: Sequence[Game],
    substitutions: Sequence[Substitution],
    params: Params,
) -> dict[str, int]:
    """Raise EngineInputError on the first bad entry; return the id -> index map."""
    validate_params(params)
    index = _validate_players(players)
    _validate_games(games, index)
    _validate_substitutions(substitutions, games, index)
    return index


def _validate_players(players: Sequence[Player]) -> dict[str, int]:
    index: dict[str, int] = {}
    for i, p in enumerate(players):
        where = f"players[{i}]"
        pid = _check_id(p.id, f"{where}.id")
        if pid in index:
            raise EngineInputError(f"{where}.id", f"duplicate id {pid!r}")
        index[pid] = i
        if p.rating is None:
            if p.rd is not None:
                raise EngineInputError(f"{where}.rd", "an unrated player has no RD")
            if p.fide is not None:
                _check_rating(p.fide, f"{where}.fide")
        else:
            _check_rating(p.rating, f"{where}.rating")
            if p.rd is None:
                raise EngineInputError(f"{where}.rd", "missing for a rated player")
            _check_number(p.rd, f"{where}.rd", 0.0, RD_CEILING, positive=True)
    return index


def _validate_games(games: Sequence[Game], index: dict[str, int]) -> None:
    for g, game in enumerate(games):
        where = f"games[{g}]"
        for side in SIDES:
            named = getattr(game, side)
            if _check_id(named, f"{where}.{side}") not in index:
                raise EngineInputError(f"{where}.{side}", f"unknown player {named!r}")
            start = getattr(game, f"{side}_start")
            if start is not None:
                _check_rating(start, f"{where}.{side}_start")
        if game.white == game.black:
            raise EngineInputError(where, f"player {game.white!r} plays against himself")
        _result(game.result, f"{where}.result")


def _validate_substitutions(
    substitutions: Sequence[Substitution], games: Sequence[Game], index: dict[str, int]
) -> None:
    originals: dict[tuple[int, str], str] = {}
    for s, sub in enumerate(substitutions):
        where = f"substitutions[{s}]"
        if isinstance(sub.game, bool) or not isinstance(sub.game, int):
            raise EngineInputError(f"{where}.game", f"must be a game index, not {sub.game!r}")
        if not 0 <= sub.game < len(games):
            raise EngineInputError(f"{where}.game", f"no game {sub.game} in this period")
        if sub.side not in SIDES:
            raise EngineInputError(f"{where}.side", f"must be 'white' or 'black', not {sub.side!r}")
        if (sub.game, sub.side) in originals:
            raise EngineInputError(where, f"game {sub.game} {sub.side} is substituted twice")
        if _check_id(sub.replaces, f"{where}.replaces") not in index:
            raise EngineInputError(f"{where}.replaces", f"unknown player {sub.replaces!r}")
        if sub.replaces == getattr(games[sub.game], sub.side):
            raise EngineInputError(
                f"{where}.replaces", f"{sub.replaces!r} is the player named on that side"
            )
        originals[(sub.game, sub.side)] = sub.replaces
    for s, sub in enumerate(substitutions):
        # every player who may get this game must differ from everyone who may be his opponent
        game = games[sub.game]
        other = "black" if sub.side == "white" else "white"
        mine = {getattr(game, sub.side), sub.replaces}
        theirs = {getattr(game, other), originals.get((sub.game, other), getattr(game, other))}
        if mine & theirs:
            raise EngineInputError(
                f"substitutions[{s}].replaces", f"player {sub.replaces!r} would play himself"
            )


# Arrays ------------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class PeriodArrays:
    """A validated period as arrays. NaN = absent (unrated, no FIDE rating, no start rating).

    ``*_original`` is the player a substitute replaced, or the named player himself.
    """

    ids: tuple[str, ...]
    rating: np.ndarray
    rd: np.ndarray
    fide: np.ndarray
    white: np.ndarray
    black: np.ndarray
    result: np.ndarray
    white_start: np.ndarray
    black_start: np.ndarray
    white_original: np.ndarray
    black_original: np.ndarray


@dataclass(frozen=True, eq=False)
class PeriodOutcome:
    """End of period per player index; ``rated`` False = stays unrated (values NaN)."""

    rating: np.ndarray
    rd: np.ndarray
    games: np.ndarray
    rated: np.ndarray
    start_rating: np.ndarray
    start_rd: np.ndarray
    white_counted: np.ndarray  # index of the player each game side counted for (rule 6)
    black_counted: np.ndarray


_NUMBERS = frozenset((int, float))
_OPTIONAL_NUMBERS = frozenset((int, float, type(None)))


def _floats(values: list[Any]) -> np.ndarray:
    """Float64 column, NaN for None."""
    if None in values:
        values = [np.nan if v is None else v for v in values]
    return np.array(values, dtype=np.float64)


def _indices(ids: list[Any], index: dict[str, int]) -> np.ndarray:
    """Player index of each id; TypeError for an unknown one (the detailed checks name it)."""
    return np.fromiter(map(index.get, ids), dtype=np.intp, count=len(ids))


def _plain(values: list[Any], types: frozenset) -> bool:
    return set(map(type, values)) <= types


def _inside(values: np.ndarray, raw: list[Any], low: float, high: float) -> bool:
    """Every given value within [low, high], and NaN only where the value was None."""
    absent = np.isnan(values)
    present = values[~absent]
    return int(absent.sum()) == raw.count(None) and bool(
        ((present >= low) & (present <= high)).all()
    )


def to_arrays(
    players: Sequence[Player],
    games: Sequence[Game],
    substitutions: Sequence[Substitution] = (),
    params: Params | None = None,
) -> PeriodArrays:
    """Validate and convert. The common case is checked column by column in bulk; anything
    unusual goes through the entry-by-entry checks, which name the bad entry."""
    params = params or Params()
    validate_params(params)
    try:
        arrays = _bulk_arrays(players, games)
    except (TypeError, ValueError, OverflowError):  # let the detailed checks name the entry
        arrays = None
    if arrays is None:
        validate_period(players, games, substitutions, params)
        arrays = _bulk_arrays(players, games, checked=True)
    index = {pid: i for i, pid in enumerate(arrays.ids)}
    _validate_substitutions(substitutions, games, index)
    for sub in substitutions:
        getattr(arrays, f"{sub.side}_original")[sub.game] = index[sub.replaces]
    return arrays


def _bulk_arrays(players, games, checked: bool = False) -> PeriodArrays | None:
    """Arrays of a period, or None when a bulk check fails (``checked``: already validated)."""
    ids = [p.id for p in players]
    index = {pid: i for i, pid in enumerate(ids)}
    raw_rating = [p.rating for p in players]
    raw_rd = [p.rd for p in players]
    raw_fide = [p.fide if p.rating is None else None for p in players]
    white_ids = [g.white for g in games]
    black_ids = [g.black for g in games]
    raw_result = [g.result for g in games]
    raw_white_start = [g.white_start for g in games]
    raw_black_start = [g.black_start for g in games]
    if not checked and not (
        _plain(ids, frozenset((str,)))
        and len(index) == len(ids)
        and "" not in index
        and all(_plain(v, _OPTIONAL_NUMBERS) for v in (raw_rating, raw_rd, raw_fide))
        and _plain(raw_result, _NUMBERS)
        and all(_plain(v, _OPTIONAL_NUMBERS) for v in (raw_white_start, raw_black_start))
    ):
        return None
    white, black = _indices(white_ids, index), _indices(black_ids, index)
    rating, rd, fide = _floats(raw_rating), _floats(raw_rd), _floats(raw_fide)
    result = np.array(raw_result, dtype=np.float64)
    white_start, black_start = _floats(raw_white_start), _floats(raw_black_start)
    rated = ~np.isnan(rating)
    if not checked and not (
        (white != black).all()
        and np.isin(result, (0.0, 0.5, 1.0)).all()
        and (rated == ~np.isnan(rd)).all()
        and _inside(rating, raw_rating, *RATING_BOUNDS)
        and _inside(rd, raw_rd, 1e-300, RD_CEILING)
        and _inside(fide, raw_fide, *RATING_BOUNDS)
        and _inside(white_start, raw_white_start, *RATING_BOUNDS)
        and _inside(black_start, raw_black_start, *RATING_BOUNDS)
    ):
        return None
    return PeriodArrays(
        ids=tuple(ids),
        rating=rating,
        rd=rd,
        fide=fide,
        white=white,
        black=black,
        result=result,
        white_start=white_start,
        black_start=black_start,
        white_original=white.copy(),
        black_original=black.copy(),
    )


# §1.2 period start -------------------------------------------------------------------------------


def start_of_period(
    rating: np.ndarray, rd: np.ndarray, fide: np.ndarray, params: Params
) -> tuple[np.ndarray, np.ndarray]:
    unrated = np.isnan(rating)
    has_fide = unrated & ~np.isnan(fide)
    inflated = np.sqrt(rd * rd + params.c * params.c)
    if params.rd_cap is not None:
        inflated = np.minimum(inflated, params.rd_cap)
    inflated = np.maximum(inflated, RD_FLOOR)
    start_rd = np.where(rd > INFLATE_AT_OR_BELOW, rd, inflated)
    start_rd[unrated] = UNRATED_RD
    start_rd[has_fide] = FIDE_RD
    start_r = np.where(unrated, UNRATED_RATING, rating)
    start_r[has_fide] = fide[has_fide]
    return start_r, start_rd


# §1.3 steps (a)-(e) over many games --------------------------------------------------------------

BLOCK = 8192  # entries per block: the temporaries of one block stay in the core's cache
HALF_1_PLUS_BETA1 = (1 + BETA1) / 2


def game_terms(
    mu: np.ndarray,
    mu_j: np.ndarray,
    sigma_j: np.ndarray,
    y: np.ndarray,
    x: np.ndarray,
    params: Params,
) -> tuple[np.ndarray, np.ndarray]:
    """D1_j and D2_j of each entry (player mu, opponent mu_j/sigma_j, score y, colour x)."""
    d1 = np.empty_like(mu)
    d2 = np.empty_like(mu)
    for start in range(0, mu.shape[0], BLOCK):
        part = slice(start, start + BLOCK)
        _terms_block(
            mu[part], mu_j[part], sigma_j[part], y[part], x[part], params, d1[part], d2[part]
        )
    return d1, d2


def _terms_block(mu, mu_j, sigma_j, y, x, params: Params, d1, d2) -> None:
    """Steps (c)-(e) for one block, written into d1 and d2.

    Every probability is a ratio, so the numerators are taken relative to the win numerator:
    loss/win = exp(m - mu - 2t), draw/win = exp(beta0 + (1 + beta1) mbar - mu - t), with the
    colour term t = x (alpha0 + alpha1 mbar)/4, and (1 + beta1) mbar - mu = h (m - mu) + beta1 mu
    with h = (1 + beta1)/2.
    """
    coloured = bool(params.alpha0 or params.alpha1)
    gap_mean = mu_j - mu  # m - mu = gap_mean -/+ sigma_j
    draw_base = BETA0 + BETA1 * mu
    # the observed result's probability as a blend that picks one term: y = 1, 0.5, 0 give
    # (1, 0, 0), (0, 1, 0), (0, 0, 1) -- cheaper than a masked select
    pick_win = y * (2.0 * y - 1.0)
    pick_draw = 4.0 * y * (1.0 - y)
    pick_loss = (1.0 - y) * (1.0 - 2.0 * y)
    weight = np.zeros_like(mu)
    d1[:] = 0.0
    d2[:] = 0.0
    for sign in (-1.0, 1.0):
        gap = gap_mean + sign * sigma_j  # m - mu
        draw = draw_base + HALF_1_PLUS_BETA1 * gap
        if coloured:
            t = x * (params.alpha0 + params.alpha1 * (mu + 0.5 * gap)) * 0.25
            gap -= 2.0 * t
            draw -= t
        loss = np.exp(gap, out=gap)
        draw = np.exp(draw, out=draw)
        pw = draw + loss
        pw += 1.0
        np.divide(1.0, pw, out=pw)
        pd = draw * pw
        loss *= pw  # Pl
        po = pick_loss * loss
        loss = np.multiply(pick_draw, pd, out=loss)
        po += loss
        loss = np.multiply(pick_win, pw, out=loss)
        po += loss
        w1 = 0.5 * pd
        w1 += pw
        w2 = 0.25 * pd
        w2 += pw
        miss = y - w1  # y - w1
        weight += po
        # D2 summand: y^2 - w2 + 2 w1 (w1 - y) = (y - w1)^2 + w1^2 - w2
        w1 *= w1
        w1 -= w2
        np.multiply(miss, miss, out=w2)
        w2 += w1
        w2 *= po
        d2 += w2
        miss *= po
        d1 += miss
    d1 /= weight
    d2 /= weight
    d2 -= d1 * d1


# The period --------------------------------------------------------------------------------------


def _seen(named, original, start, r0, rd0):
    """Rating and RD the opponent is rated against on one side (rules 1.4 and 6)."""
    named_r = np.fmax(r0[named], start)  # rule 1.4; fmax ignores a missing (NaN) start
    seen = named.copy()
    seen_r = named_r
    subbed = np.flatnonzero(original != named)
    if subbed.size:
        # rule 6b: the higher pre-period rating; a tie goes to the original player
        to_original = r0[named[subbed]] <= r0[original[subbed]]
        swap = subbed[to_original]
        seen[swap] = original[swap]
        seen_r = named_r.copy()
        seen_r[swap] = r0[original[swap]]
    return seen_r, rd0[seen], named_r


def _counted(named, original, opp_r, opp_rd, y, x, r0, params):
    """Player each game of one side counts for (rule 6a: the substitute only if D1 > 0)."""
    subbed = np.flatnonzero(original != named)
    if not subbed.size:
        return named
    sub = named[subbed]
    d1, _ = game_terms(
        (r0[sub] - 1500.0) / SCALE,
        (opp_r[subbed] - 1500.0) / SCALE,
        opp_rd[subbed] / SCALE,
        y[subbed],
        np.full(subbed.size, x, dtype=np.float64),
        params,
    )
    counted = named.copy()
    counted[subbed] = np.where(d1 > 0, sub, original[subbed])
    return counted


def _sum_by_player(player: np.ndarray, values: np.ndarray, n: int) -> np.ndarray:
    """Per-player sums, bit for bit independent of the order of games and players (RULES §7).

    Each player's values are added in ascending order; tied values are equal, so their order
    cannot matter.
    """
    order = np.argsort(values)
    return np.bincount(player[order], weights=values[order], minlength=n)


def rate_arrays(a: PeriodArrays, params: Params | None = None) -> PeriodOutcome:
    params = params or Params()
    n = len(a.ids)
    r0, rd0 = start_of_period(a.rating, a.rd, a.fide, params)
    white_seen_r, white_seen_rd, white_named_r = _seen(
        a.white, a.white_original, a.white_start, r0, rd0
    )
    black_seen_r, black_seen_rd, black_named_r = _seen(
        a.black, a.black_original, a.black_start, r0, rd0
    )
    black_y = 1.0 - a.result
    # rule 6a tests the substitute against the opponent who actually played, per rule 1.4
    white_counted = _counted(
        a.white, a.white_original, black_named_r, rd0[a.black], a.result, 1.0, r0, params
    )
    black_counted = _counted(
        a.black, a.black_original, white_named_r, rd0[a.white], black_y, -1.0, r0, params
    )

    player = np.concatenate((white_counted, black_counted))
    mu_all = (r0 - 1500.0) / SCALE
    opp_r = np.concatenate((black_seen_r, white_seen_r))
    opp_rd = np.concatenate((black_seen_rd, white_seen_rd))
    y = np.concatenate((a.result, black_y))
    x = np.concatenate((np.ones_like(a.result), -np.ones_like(a.result)))
    d1, d2 = game_terms(mu_all[player], (opp_r - 1500.0) / SCALE, opp_rd / SCALE, y, x, params)

    games = np.bincount(player, minlength=n)
    sum_d1 = _sum_by_player(player, d1, n)
    sum_d2 = _sum_by_player(player, d2, n)
    sigma = rd0 / SCALE
    sigma_new = np.sqrt(1.0 / (1.0 / (sigma * sigma) - sum_d2))
    mu_new = mu_all + sigma_new * sigma_new * sum_d1
    played = games > 0
    # a player without games keeps his period-start values (§1.4)
    rating = np.where(played, SCALE * mu_new + 1500.0, r0)
    rd = np.clip(np.where(played, SCALE * sigma_new, rd0), RD_FLOOR, RD_CEILING)
    rated = played | ~np.isnan(a.rating)
    rating[~rated] = np.nan
    rd[~rated] = np.nan
    return PeriodOutcome(rating, rd, games, rated, r0, rd0, white_counted, black_counted)


def rate_period(
    players: Sequence[Player],
    games: Sequence[Game],
    substitutions: Sequence[Substitution] = (),
    params: Params | None = None,
) -> list[PlayerResult]:
    """End-of-period results of every player, in input order."""
    params = params or Params()
    out = rate_arrays(to_arrays(players, games, substitutions, params), params)
    results = []
    for i, p in enumerate(players):
        count = int(out.games[i])
        if not out.rated[i]:
            results.append(PlayerResult(p.id, None, None, None, None, count))
            continue
        r, rd = float(out.rating[i]), float(out.rd[i])
        results.append(PlayerResult(p.id, r, rd, half_up_int(r), half_up_int(rd), count))
    return results


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
    from ratings.engines.reference.iccf import explain_reference  # the reference imports us

    params = params or Params()
    index = validate_period(players, games, substitutions, params)
    if player_id not in index:
        raise EngineInputError("player", f"unknown player {player_id!r}")
    return explain_reference(player_id, players, games, substitutions, params)


# JSON contract -----------------------------------------------------------------------------------


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


__all__ = [
    "Game",
    "GameExplanation",
    "Params",
    "PeriodArrays",
    "PeriodOutcome",
    "Player",
    "PlayerExplanation",
    "PlayerResult",
    "SubstituteDecision",
    "Substitution",
    "explain",
    "rate_arrays",
    "rate_period",
    "run_json",
    "to_arrays",
    "validate_period",
]
