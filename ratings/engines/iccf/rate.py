"""ICCF rating period (RULES §1): Glicko extension with win/draw/loss probabilities.

Every player is updated from the pre-period values of everybody, so one period is one batch of
array operations over all games. ``rate_period`` takes and returns dataclasses; ``to_arrays`` /
``rate_arrays`` are the array core, for bulk callers and the benchmark.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from ratings.engines.core import jsonio
from ratings.engines.core.errors import EngineInputError
from ratings.engines.core.rounding import half_up_int
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


_NAN = float("nan")
_NUMBERS = frozenset((int, float))
_OPTIONAL_NUMBERS = frozenset((int, float, type(None)))


def _lookup(ids: list[str]) -> dict[str, int]:
    """Index of each id, keyed by fresh copies of the ids: laid out together rather than spread
    over the decoded document, they make each of a game's look-ups a third cheaper."""
    return {
        pid.encode("utf-8", "surrogatepass").decode("utf-8", "surrogatepass"): i
        for i, pid in enumerate(ids)
    }


def _indices(ids: list[Any], index: dict[str, int]) -> np.ndarray:
    """Player index of each id; TypeError for an unknown one (the detailed checks name it)."""
    # (a list first: np.fromiter takes twice as long over a map of a few hundred thousand)
    return np.array(list(map(index.get, ids)), dtype=np.intp).reshape(len(ids))


def _plain(values: list[Any], types: frozenset) -> bool:
    return set(map(type, values)) <= types


def columns_of(players: Sequence[Player], games: Sequence[Game]) -> Columns:
    return Columns(
        ids=[p.id for p in players],
        rating=[p.rating for p in players],
        rd=[p.rd for p in players],
        fide=[p.fide if p.rating is None else None for p in players],
        white=[g.white for g in games],
        black=[g.black for g in games],
        result=[g.result for g in games],
        white_start=[g.white_start for g in games],
        black_start=[g.black_start for g in games],
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
    arrays = bulk_arrays(columns_of(players, games))
    if arrays is None:
        validate_period(players, games, substitutions, params)
        arrays = bulk_arrays(columns_of(players, games), checked=True)
    return with_substitutions(arrays, substitutions, games)


def with_substitutions(
    arrays: PeriodArrays, substitutions: Sequence[Substitution], games: Sequence[Any]
) -> PeriodArrays:
    """Rule 6: record whom each substitute replaced (``games``: anything with .white/.black)."""
    index = {pid: i for i, pid in enumerate(arrays.ids)}
    _validate_substitutions(substitutions, games, index)
    for sub in substitutions:
        getattr(arrays, f"{sub.side}_original")[sub.game] = index[sub.replaces]
    return arrays


def bulk_arrays(c: Columns, checked: bool = False) -> PeriodArrays | None:
    """Arrays of a period, or None when a bulk check fails (``checked``: already validated)."""
    try:
        return _bulk_arrays(c, checked)
    except (TypeError, ValueError, OverflowError):  # let the detailed checks name the entry
        if checked:
            raise
        return None


def _bulk_arrays(c: Columns, checked: bool) -> PeriodArrays | None:
    ids = c.ids
    if not checked and not _plain(ids, frozenset((str,))):
        return None
    index = _lookup(ids)
    if not checked and not (len(index) == len(ids) and "" not in index):
        return None
    rating = _column(c.rating, RATING_BOUNDS, checked)
    rd = _column(c.rd, (1e-300, RD_CEILING), checked)
    fide = _column(c.fide, RATING_BOUNDS, checked)
    result = _column(c.result, (0.0, 1.0), checked, optional=False)
    white_start = _column(c.white_start, RATING_BOUNDS, checked)
    black_start = _column(c.black_start, RATING_BOUNDS, checked)
    columns = (rating, rd, fide, result, white_start, black_start)
    if any(column is None for column in columns):
        return None
    white, black = _indices(c.white, index), _indices(c.black, index)
    if not checked and not (
        (white != black).all()
        and np.isin(result, (0.0, 0.5, 1.0)).all()
        and (np.isnan(rating) == np.isnan(rd)).all()
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


def _column(
    values: list[Any], bounds: tuple[float, float], checked: bool, *, optional: bool = True
) -> np.ndarray | None:
    """Float64 column of ``values``, NaN for None (where ``optional``); None when a value is
    not a plain number (or None) within ``bounds``. Each list is scanned as few times as may be:
    a column nobody gave (no start ratings) is one count."""
    n = len(values)
    absent = values.count(None) if optional else 0
    if absent == n:
        return np.full(n, np.nan)
    if not (checked or _plain(values, _OPTIONAL_NUMBERS if absent else _NUMBERS)):
        return None
    if absent:  # (NumPy reads None as NaN itself, but half as fast)
        values = [_NAN if v is None else v for v in values]
    column = np.array(values, dtype=np.float64)
    if checked:
        return column
    present = column[~np.isnan(column)] if absent else column
    low, high = bounds
    if len(present) != n - absent or not ((present >= low) & (present <= high)).all():
        return None  # a NaN, from dataclasses, is never a value given
    return column


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


def _sum_by_player(player: np.ndarray, values: np.ndarray, games: np.ndarray) -> np.ndarray:
    """Per-player sums, bit for bit independent of the order of games and players (RULES §7).

    Each value is split exactly into two integers on a fixed binary grid (its high part and the
    next bits of its fraction); sums of integers below 2**53 are exact in double precision, so
    bincount adds them in any order to the same total. No sort: linear in the number of games.
    The two totals are combined with one rounding; the part of each value below the grid,
    under 2**-64 of the largest value, is dropped. `values` is overwritten (the core passes
    its own temporaries): a fresh array the size of the games costs a page fault per 4 KiB,
    on a virtual machine as much as the arithmetic done in it.
    """
    n = len(games)  # games[i]: how many of the values are player i's
    if len(values) == 0:
        return np.zeros(n)
    largest = max(float(values.max()), -float(values.min()))  # NaN if any value is
    if not np.isfinite(largest):  # a non-finite term makes every order give the same nan/inf
        return np.bincount(player, weights=values, minlength=n)
    count_bits = int(games.max()).bit_length()
    value_bits = math.frexp(largest)[1] if largest > 0 else 0
    scale_bits = 52 - count_bits - value_bits  # |high part| * count < 2**52
    fraction_bits = 52 - count_bits  # |low part| * count < 2**52
    scaled = times_power_of_two(values, scale_bits, out=values)  # exact
    high = np.floor(scaled)
    scaled -= high  # the fraction of a double is exact
    scaled *= 2.0**fraction_bits
    low = np.floor(scaled, out=scaled)
    high_sum = np.bincount(player, weights=high, minlength=n)
    low_sum = np.bincount(player, weights=low, minlength=n)
    return times_power_of_two(high_sum, -scale_bits) + times_power_of_two(
        low_sum, -scale_bits - fraction_bits
    )


def times_power_of_two(
    values: np.ndarray, exponent: int, out: np.ndarray | None = None
) -> np.ndarray:
    """values * 2**exponent, the same bits as np.ldexp. A product by a power of two that is a
    normal double is rounded correctly as ldexp's is, and NumPy vectorises it on every CPU;
    its ldexp only with AVX-512 (elsewhere a libm call a value: 27 times the product's time
    on an AVX2 machine, 6 ms of the 200,000-game core)."""
    if -1022 <= exponent <= 1023:
        return np.multiply(values, 2.0**exponent, out=out)
    return np.ldexp(values, exponent, out=out)


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
    sum_d1 = _sum_by_player(player, d1, games)
    sum_d2 = _sum_by_player(player, d2, games)
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
