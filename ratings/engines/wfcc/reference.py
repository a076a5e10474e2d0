"""Scalar reference of the WFCC engine, written straight from RULES §4 (one solver at a time).

Tests check ``ratings.engines.wfcc.rate_tournament`` against ``rate_tournament_reference`` on
generated tournaments. Shared with the fast engine: input checks, the dataclasses and the floor
policy (§4.3 says it lives in one function); everything else is computed here again.
"""

from __future__ import annotations

import math
from decimal import Decimal

import numpy as np

from ratings.engines.core.errors import EngineInputError
from ratings.engines.core.rounding import half_up_2, half_up_int
from ratings.engines.wfcc.rate import apply_floor
from ratings.engines.wfcc.types import (
    Line,
    NormConditions,
    SolverResult,
    Tournament,
    TournamentResult,
    WfccParams,
)
from ratings.engines.wfcc.validate import validate

GM_IM_FM = ("GM", "IM", "FM")
QUALIFYING_RATING = {"GM": 2550.0, "IM": 2450.0, "FM": 2350.0}
NORM_PERFORMANCE = {"GM": 2650.0, "IM": 2550.0, "FM": 2450.0}


def _floor(value: float, floor: float | None) -> tuple[float, bool]:
    values, floored = apply_floor(np.array([value]), floor)
    return float(values[0]), bool(floored[0])


def _mean(values: list[float]) -> float:
    return math.fsum(values) / len(values)


def rate_tournament_reference(
    tournament: Tournament, params: WfccParams | None = None
) -> TournamentResult:
    params = params or WfccParams()
    validate(tournament, params)
    solvers = tournament.solvers
    kt = float(tournament.kt)

    # Res: the sum of the round scores (two decimals, summed exactly).
    result = {s.id: float(sum(Decimal(repr(float(p))) for p in s.rounds)) for s in solvers}
    # RMAS: for each round, the best score of any participant; summed over the rounds.
    rounds = len(solvers[0].rounds)
    rmas = float(
        sum(max(Decimal(repr(float(s.rounds[r]))) for s in solvers) for r in range(rounds))
    )

    # The regression over the n solvers with a full rating.
    R = [float(s.rating) for s in solvers if s.rating is not None]
    S = [result[s.id] for s in solvers if s.rating is not None]
    n = len(R)
    AveRat = _mean(R)
    AveRes = _mean(S)
    VarRat = _mean([(r - AveRat) * (r - AveRat) for r in R])
    VarRes = _mean([(x - AveRes) * (x - AveRes) for x in S])
    if VarRat == 0 or VarRes == 0:
        raise EngineInputError("tournament.solvers", "no regression: a variance is zero")
    DevRat = math.sqrt(VarRat)
    DevRes = math.sqrt(VarRes)
    Covar = _mean([r * x for r, x in zip(R, S, strict=True)]) - AveRat * AveRes
    CorrCoeff = Covar / (DevRat * DevRes)
    resorted = False
    if CorrCoeff < 0.6:
        resorted = True
        R_sorted = sorted(R, reverse=True)
        S_sorted = sorted(S, reverse=True)
        Covar = _mean([r * x for r, x in zip(R_sorted, S_sorted, strict=True)]) - AveRat * AveRes
    Slope = Covar / VarRat
    Intercept = AveRes - Slope * AveRat
    MaxRat = max(R)
    corrected = False
    UsedSlope, UsedIntercept = Slope, Intercept
    if Slope * MaxRat + Intercept > rmas:
        corrected = True
        UsedSlope = (rmas - AveRes) / (MaxRat - AveRat)
        UsedIntercept = AveRes - UsedSlope * AveRat
    if UsedSlope <= 0:
        raise EngineInputError("tournament.solvers", "no regression: slope not positive")
    line = Line(
        rated_solvers=n,
        average_rating=AveRat,
        average_result=AveRes,
        max_rating=MaxRat,
        correlation=CorrCoeff,
        sorted=resorted,
        regression_slope=Slope,
        regression_intercept=Intercept,
        rmas=rmas,
        corrected=corrected,
        slope=UsedSlope,
        intercept=UsedIntercept,
    )

    conditions = _norm_conditions(tournament)
    out = []
    for s in solvers:
        res = result[s.id]
        place = _place(s, solvers, result)
        PerfRat, perf_floored = _floor(half_up_2((res - UsedIntercept) / UsedSlope), params.floor)
        norms = _norms(conditions, PerfRat, place)
        if s.rating is not None:
            ExpRes = UsedSlope * s.rating + UsedIntercept
            ChOfRat = half_up_2(kt * (res - ExpRes))
            NewRat, new_floored = _floor(half_up_2(s.rating + ChOfRat), params.floor)
            out.append(
                SolverResult(
                    id=s.id,
                    place=place,
                    result=res,
                    performance=PerfRat,
                    published_rating=half_up_int(NewRat),
                    norms=norms,
                    expected=ExpRes,
                    change=ChOfRat,
                    rating=NewRat,
                    floored=perf_floored or new_floored,
                )
            )
        else:
            halves = (*s.half_ratings, PerfRat)
            full = half_up_2((halves[0] + halves[1]) / 2) if len(halves) == 2 else None
            out.append(
                SolverResult(
                    id=s.id,
                    place=place,
                    result=res,
                    performance=PerfRat,
                    published_rating=half_up_int(full if full is not None else PerfRat),
                    norms=norms,
                    rating=full,
                    half_ratings=halves,
                    floored=perf_floored,
                )
            )
    out.sort(key=lambda e: (e.place, e.id))
    return TournamentResult(
        id=tournament.id, kt=kt, line=line, norm_conditions=conditions, solvers=tuple(out)
    )


def _place(me, solvers, result) -> int:
    """1 + the number of solvers ranked strictly ahead: a better result, or the same result and
    less time when everyone with that result has a time."""
    mine = result[me.id]
    same = [s for s in solvers if result[s.id] == mine]
    timed = all(s.time is not None for s in same)
    ahead = 0
    for other in solvers:
        if result[other.id] > mine or (timed and result[other.id] == mine and other.time < me.time):
            ahead += 1
    return 1 + ahead


def _norm_conditions(tournament: Tournament) -> NormConditions:
    rated = [s for s in tournament.solvers if s.rating is not None]
    countries = {s.country for s in rated if s.country is not None}
    qualified = {}
    for level in GM_IM_FM:
        qualified[level] = len([s for s in rated if s.rating >= QUALIFYING_RATING[level]])
    return NormConditions(
        rated_solvers=len(rated),
        countries=len(countries),
        n1=len(rated) >= 15 and len(countries) >= 3,
        n3=not tournament.multi_location,
        qualified=qualified,
        n2={level: qualified[level] >= 5 for level in GM_IM_FM},
    )


def _norms(conditions: NormConditions, performance: float, place: int) -> tuple[str, ...]:
    if not (conditions.n1 and conditions.n3):
        return ()
    for level in GM_IM_FM:  # highest first
        if (
            conditions.n2[level]
            and performance >= NORM_PERFORMANCE[level]
            and place <= conditions.qualified[level]
        ):
            return (level,)
    return ()
