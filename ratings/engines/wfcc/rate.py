"""WFCC problem solvers' rating (RULES §4): one tournament at a time, by linear regression.

Public API:
    rate_tournament(tournament, params=WfccParams()) -> TournamentResult
    explain_solver(tournament, solver_id, params=WfccParams()) -> SolverExplanation
    regression_line(ratings, results, rmas) -> Line
    apply_floor(values, floor) -> (values, floored)
    run_json(data) -> dict            (``python -m ratings.engines wfcc INPUT.json``)

Per-solver arithmetic is vectorised with NumPy; sums use math.fsum so the result does not depend
on the order of the solvers; PerfRat, ChOfRat and NewRat are rounded half-up to two decimals.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Sequence

import numpy as np

from ratings.engines.core.errors import EngineInputError
from ratings.engines.core.rounding import half_up_2, half_up_int
from ratings.engines.wfcc.categories import propose_category
from ratings.engines.wfcc.norms import norm_conditions, norms
from ratings.engines.wfcc.types import (
    RESORT_BELOW_CORRELATION,
    Line,
    SolverResult,
    Tournament,
    TournamentResult,
    WfccParams,
)
from ratings.engines.wfcc.validate import validate

log = logging.getLogger(__name__)


ENGINE_VERSION = "wfcc-1"


def apply_floor(values: np.ndarray, floor: float | None) -> tuple[np.ndarray, np.ndarray]:
    """The negative-rating rule (§4.3, Rio 2009, text not public): the ONE place it lives.

    [P] A NewRat or PerfRat below ``floor`` becomes ``floor`` (None: no floor). Returns the
    values and which of them were replaced; each replacement is logged as a warning.
    """
    values = np.asarray(values, dtype=float)
    if floor is None:
        return values, np.zeros(values.shape, dtype=bool)
    floored = values < floor
    if floored.any():
        log.warning("WFCC floor %s replaced %d rating value(s)", floor, int(floored.sum()))
    return np.where(floored, float(floor), values), floored


def half_up_2_array(values: np.ndarray) -> np.ndarray:
    """``rounding.half_up_2`` element-wise, vectorised; values near a tie go through Decimal.

    Away from a tie, floor(|x|·100 + 0.5) is the half-up cent (the float error of |x|·100 is
    below 1e-15 relative, far inside the margin below); ties and doubtful cases use the exact rule.
    """
    values = np.asarray(values, dtype=float)
    scaled = np.abs(values) * 100.0
    fraction = scaled - np.floor(scaled)
    doubtful = (np.abs(fraction - 0.5) <= 1e-9 * np.maximum(1.0, scaled)) | (scaled > 1e15)
    rounded = np.copysign(np.floor(scaled + 0.5), values) / 100.0 + 0.0  # +0.0: no -0.0
    for i in np.flatnonzero(doubtful):
        rounded[i] = half_up_2(values[i]) + 0.0
    return rounded


def results_and_rmas(tournament: Tournament) -> tuple[np.ndarray, float]:
    """Each solver's total and RMAS (the sum over rounds of the best round score of anyone).

    Points have two decimals, so they are summed exactly as whole cents.
    """
    cents = np.rint(np.array([s.rounds for s in tournament.solvers], dtype=float) * 100.0)
    cents = cents.astype(np.int64)
    return cents.sum(axis=1) / 100.0, float(cents.max(axis=0).sum() / 100.0)


def regression_line(ratings: Sequence[float], results: Sequence[float], rmas: float) -> Line:
    """§4.1 over the fully rated solvers: regression, re-sort below r = 0.6, RMAS correction.

    Raises EngineInputError where the formulas break down ([P]: not rated, flagged for the
    WFCC representative).
    """
    rat = np.asarray(ratings, dtype=float)
    res = np.asarray(results, dtype=float)
    n = len(rat)
    if n < 2:
        raise EngineInputError(
            "tournament.solvers", f"needs two solvers with a full rating, has {n}"
        )
    ave_rat = math.fsum(rat) / n
    ave_res = math.fsum(res) / n
    d_rat = rat - ave_rat
    d_res = res - ave_res
    var_rat = math.fsum(d_rat * d_rat) / n
    var_res = math.fsum(d_res * d_res) / n
    if var_rat == 0:
        raise EngineInputError("tournament.solvers", "all full ratings are equal: no regression")
    if var_res == 0:
        raise EngineInputError(
            "tournament.solvers",
            "all fully rated solvers have the same result: no regression; "
            "not rated, refer to the WFCC representative",
        )
    covar = math.fsum(rat * res) / n - ave_rat * ave_res
    correlation = covar / (math.sqrt(var_rat) * math.sqrt(var_res))
    resorted = correlation < RESORT_BELOW_CORRELATION
    if resorted:
        # i-th largest rating with i-th largest result; only Covar changes.
        covar = math.fsum(np.sort(rat) * np.sort(res)) / n - ave_rat * ave_res
    slope = covar / var_rat
    intercept = ave_res - slope * ave_rat
    max_rat = float(rat.max())
    corrected = slope * max_rat + intercept > rmas
    used_slope, used_intercept = slope, intercept
    if corrected:
        used_slope = (rmas - ave_res) / (max_rat - ave_rat)
        used_intercept = ave_res - used_slope * ave_rat
    if not used_slope > 0:
        raise EngineInputError(
            "tournament.solvers",
            f"the regression slope {used_slope!r} is not positive: "
            "not rated, refer to the WFCC representative",
        )
    return Line(
        rated_solvers=n,
        average_rating=ave_rat,
        average_result=ave_res,
        max_rating=max_rat,
        correlation=correlation,
        sorted=resorted,
        regression_slope=slope,
        regression_intercept=intercept,
        rmas=rmas,
        corrected=corrected,
        slope=used_slope,
        intercept=used_intercept,
    )


def _line_of(tournament: Tournament) -> tuple[Line, np.ndarray, np.ndarray]:
    results, rmas = results_and_rmas(tournament)
    rated = np.array([s.rating is not None for s in tournament.solvers])
    ratings = np.array([s.rating if s.rating is not None else np.nan for s in tournament.solvers])
    return regression_line(ratings[rated], results[rated], rmas), results, ratings


def places(results: np.ndarray, times: np.ndarray) -> np.ndarray:
    """Place by result, then by time used (less is better); equal solvers share the best place.

    Time decides among equal results only if every solver with that result has a time
    (otherwise the comparison is not possible and they share the place). ``times``: NaN = none.
    """
    n = len(results)
    cents = np.rint(results * 100.0).astype(np.int64)
    _, group = np.unique(cents, return_inverse=True)
    untimed = np.bincount(group, weights=np.isnan(times), minlength=group.max() + 1)
    time_key = np.where(untimed[group] == 0, times, 0.0)
    order = np.lexsort((time_key, -cents))
    a, b = cents[order], time_key[order]
    starts = np.r_[True, (a[1:] != a[:-1]) | (b[1:] != b[:-1])]
    first = np.maximum.accumulate(np.where(starts, np.arange(n), 0))
    place = np.empty(n, dtype=np.int64)
    place[order] = first + 1
    return place


def rate_tournament(tournament: Tournament, params: WfccParams | None = None) -> TournamentResult:
    """Rate one tournament (RULES §4.1–4.5). Solvers come out by place, then id."""
    params = params or WfccParams()
    validate(tournament, params)
    line, results, ratings = _line_of(tournament)
    solvers = tournament.solvers
    rated = ~np.isnan(ratings)
    kt = float(tournament.kt)

    expected = line.slope * ratings + line.intercept
    change = half_up_2_array(kt * (results - expected))
    new_rating, new_floored = apply_floor(half_up_2_array(ratings + change), params.floor)
    performance, perf_floored = apply_floor(
        half_up_2_array((results - line.intercept) / line.slope), params.floor
    )
    times = np.array([s.time if s.time is not None else np.nan for s in solvers], dtype=float)
    place = places(results, times)
    conditions = norm_conditions(tournament)
    gained = norms(conditions, performance, place)

    out = []
    for i, solver in enumerate(solvers):
        if rated[i]:
            entry = SolverResult(
                id=solver.id,
                place=int(place[i]),
                result=float(results[i]),
                performance=float(performance[i]),
                published_rating=half_up_int(new_rating[i]),
                norms=gained[i],
                expected=float(expected[i]),
                change=float(change[i]),
                rating=float(new_rating[i]),
                floored=bool(new_floored[i] or perf_floored[i]),
            )
        else:
            halves = (*solver.half_ratings, float(performance[i]))
            average = _full_from_halves(halves)
            entry = SolverResult(
                id=solver.id,
                place=int(place[i]),
                result=float(results[i]),
                performance=float(performance[i]),
                # The list shows the half-rating, or the full rating the two of them make.
                published_rating=half_up_int(halves[0] if average is None else average),
                norms=gained[i],
                rating=average,
                half_ratings=halves,
                floored=bool(perf_floored[i]),
            )
        out.append(entry)
    out.sort(key=lambda e: (e.place, e.id))
    return TournamentResult(
        id=tournament.id,
        kt=kt,
        line=line,
        norm_conditions=conditions,
        solvers=tuple(out),
        category=_suggested_category(tournament),
    )


def _suggested_category(tournament: Tournament) -> str | None:
    if tournament.rules is None:
        return None
    full_rated = [(s.rating, s.country) for s in tournament.solvers if s.rating is not None]
    return propose_category(tournament.rules, tournament.championship, full_rated).code


def _full_from_halves(halves: tuple[float, ...]) -> float | None:
    """Two half-ratings make a full rating: their average, to two decimals (§4.2)."""
    if len(halves) < 2:
        return None
    return half_up_2(math.fsum(halves) / len(halves))
