"""One WFCC solver's quantities by the scalar formulas, for "explain my change" and the what-if."""

from __future__ import annotations

import numpy as np

from ratings.engines.core.errors import EngineInputError
from ratings.engines.core.rounding import half_up_2
from ratings.engines.wfcc.rate import _full_from_halves, _line_of, apply_floor
from ratings.engines.wfcc.types import SolverExplanation, Tournament, WfccParams
from ratings.engines.wfcc.validate import validate


def explain_solver(
    tournament: Tournament, solver_id: str, params: WfccParams | None = None
) -> SolverExplanation:
    """One solver's quantities, computed by the scalar formulas; equal to ``rate_tournament``.

    For the "explain my change" page and the what-if calculator (change a result or a rating in
    ``tournament`` and call again: the line is recomputed as the engine would).
    """
    params = params or WfccParams()
    validate(tournament, params)
    index = next((i for i, s in enumerate(tournament.solvers) if s.id == solver_id), None)
    if index is None:
        raise EngineInputError("solver_id", f"no solver {solver_id!r} in the tournament")
    line, results, _ = _line_of(tournament)
    solver = tournament.solvers[index]
    kt = float(tournament.kt)
    result = float(results[index])
    perf, perf_floored = apply_floor(
        np.array([half_up_2((result - line.intercept) / line.slope)]), params.floor
    )
    expected = change = new_rating = halves = None
    new_floored = False
    if solver.rating is None:
        halves = (*solver.half_ratings, float(perf[0]))
        new_rating = _full_from_halves(halves)
    else:
        rating = float(solver.rating)
        expected = line.slope * rating + line.intercept
        change = half_up_2(kt * (result - expected))
        floored_rating, floored = apply_floor(np.array([half_up_2(rating + change)]), params.floor)
        new_rating, new_floored = float(floored_rating[0]), bool(floored[0])
    return SolverExplanation(
        id=solver.id,
        kt=kt,
        line=line,
        result=result,
        rating=solver.rating,
        expected=expected,
        change=change,
        new_rating=new_rating,
        performance=float(perf[0]),
        floored=bool(perf_floored[0]) or new_floored,
        half_ratings=halves,
    )
