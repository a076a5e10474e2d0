"""WFCC engine on generated tournaments: equal to the scalar reference, independent of the order
of the solvers, and equal to the per-solver explanation."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
from hypothesis import event, given, settings
from hypothesis import strategies as st

from ratings.engines.core.errors import EngineInputError
from ratings.engines.core.rounding import half_up_2
from ratings.engines.wfcc import (
    explain_in_quarter,
    explain_solver,
    half_up_2_array,
    rate_quarter,
    rate_tournament,
)
from ratings.engines.wfcc.categories import KT_VALUES
from ratings.engines.wfcc.reference import rate_tournament_reference
from ratings.engines.wfcc.types import Solver, Tournament, WfccParams

RATINGS = st.one_of(
    st.integers(100_000, 290_000).map(lambda c: c / 100),  # two decimals
    st.sampled_from([2350.0, 2450.0, 2550.0, 2650.0, 1800.0]),  # thresholds and repeats
)
COUNTRIES = st.sampled_from(["SRB", "POL", "GER", "FIN", None])
TIMES = st.one_of(st.none(), st.sampled_from([100.0, 150.0, 200.0]))
PARAMS = st.sampled_from([WfccParams(), WfccParams(floor=None), WfccParams(floor=2000.0)])


def round_points(problems: int) -> st.SearchStrategy[float]:
    return st.one_of(
        st.integers(0, 20 * problems).map(lambda q: q / 4),  # quarter points: many ties
        st.integers(0, 500 * problems).map(lambda c: c / 100),
    )


@st.composite
def tournaments(draw) -> Tournament:
    problems = tuple(draw(st.lists(st.integers(1, 6), min_size=1, max_size=3)))
    rated = draw(st.integers(2, 18))
    unrated = draw(st.integers(0, 4))
    solvers = []
    for i in range(rated + unrated):
        has_rating = i < rated
        solvers.append(
            Solver(
                id=f"s{i}",
                rounds=tuple(draw(round_points(p)) for p in problems),
                rating=draw(RATINGS) if has_rating else None,
                half_ratings=() if has_rating else tuple(draw(st.lists(RATINGS, max_size=1))),
                country=draw(COUNTRIES),
                time=draw(TIMES),
            )
        )
    return Tournament(
        id="T",
        kt=draw(st.sampled_from(KT_VALUES)),
        solvers=tuple(solvers),
        multi_location=draw(st.booleans()),
        problems=problems,
    )


def outcome(engine, tournament, params):
    try:
        result = engine(tournament, params)
    except EngineInputError as exc:
        return ("not rated", exc.where)
    event(f"sorted={result.line.sorted} corrected={result.line.corrected}")
    if any(s.norms for s in result.solvers):
        event("norms")
    return result


@settings(max_examples=100, deadline=None)
@given(tournaments(), PARAMS)
def test_fast_engine_equals_reference(tournament, params):
    assert outcome(rate_tournament, tournament, params) == outcome(
        rate_tournament_reference, tournament, params
    )


@settings(max_examples=60, deadline=None)
@given(tournaments(), PARAMS, st.randoms(use_true_random=False))
def test_order_of_solvers_does_not_matter(tournament, params, random):
    shuffled = list(tournament.solvers)
    random.shuffle(shuffled)
    other = Tournament(
        id=tournament.id,
        kt=tournament.kt,
        solvers=tuple(shuffled),
        multi_location=tournament.multi_location,
        problems=tournament.problems,
    )
    assert outcome(rate_tournament, tournament, params) == outcome(rate_tournament, other, params)


@settings(max_examples=40, deadline=None)
@given(tournaments(), PARAMS)
def test_explanation_equals_engine(tournament, params):
    try:
        result = rate_tournament(tournament, params)
    except EngineInputError:
        return
    for s in result.solvers:
        e = explain_solver(tournament, s.id, params)
        assert e.line == result.line and e.kt == result.kt
        assert (e.result, e.performance, e.floored) == (s.result, s.performance, s.floored)
        if s.expected is None:
            assert (e.expected, e.change) == (None, None)
            assert (e.new_rating, e.half_ratings) == (s.rating, s.half_ratings)
        else:
            assert e.half_ratings is None
            assert (e.expected, e.change, e.new_rating) == (s.expected, s.change, s.rating)


@st.composite
def quarters(draw):
    """A period of 1-3 tournaments over one pool of solver ids, with carried half-ratings."""
    period = [
        replace(t, id=f"T{k}")
        for k, t in enumerate(draw(st.lists(tournaments(), min_size=1, max_size=3)))
    ]
    ids = sorted({s.id for t in period for s in t.solvers})
    carried = draw(
        st.dictionaries(st.sampled_from(ids), st.lists(RATINGS, min_size=1, max_size=1).map(tuple))
    )
    return period, carried


@settings(max_examples=40, deadline=None)
@given(quarters(), PARAMS)
def test_a_period_is_its_tournaments_in_order_with_half_ratings_carried(quarter, params):
    """rate_quarter = rate_tournament one by one, each solver without a full rating bringing
    his first half-rating so far; explain_in_quarter gives the same numbers."""
    period, carried = quarter
    result = rate_quarter(period, carried, params)
    halves = dict(carried)
    rated = iter(result.tournaments)
    for tournament in period:
        solvers = tuple(
            s if s.rating is not None else replace(s, half_ratings=halves.get(s.id, ())[:1])
            for s in tournament.solvers
        )
        try:
            expected = rate_tournament(replace(tournament, solvers=solvers), params)
        except EngineInputError as error:
            assert (tournament.id, str(error)) in [(n.id, n.reason) for n in result.not_rated]
            continue
        assert next(rated) == expected
        for s in expected.solvers:
            if s.rating is None:
                halves[s.id] = s.half_ratings
            e = explain_in_quarter(period, tournament.id, s.id, carried, params)
            assert (e.performance, e.change, e.half_ratings) == (
                s.performance,
                s.change,
                s.half_ratings if s.expected is None else None,
            )
    assert next(rated, None) is None
    assert dict(result.half_ratings) == halves


@settings(max_examples=60, deadline=None)
@given(tournaments())
def test_rmas_bounds_every_result_and_the_line_rises(tournament):
    try:
        result = rate_tournament(tournament)
    except EngineInputError:
        return
    line = result.line
    assert all(s.result <= line.rmas for s in result.solvers)
    assert line.slope > 0
    # After a correction the line passes through (MaxRat, RMAS).
    if line.corrected:
        assert math.isclose(line.slope * line.max_rating + line.intercept, line.rmas, rel_tol=1e-9)


FLOATS = st.one_of(
    st.floats(-1e7, 1e7, allow_nan=False),
    st.integers(-(10**10), 10**10).map(lambda k: k / 1000),  # x.xx5: exact ties in decimal
    st.integers(-(10**8), 10**8).map(lambda k: k / 200 + 1e-12),
    st.floats(1e14, 1e18),
)


@settings(max_examples=100, deadline=None)
@given(st.lists(FLOATS, min_size=1, max_size=50))
def test_vectorised_rounding_equals_decimal_rounding(values):
    got = half_up_2_array(np.array(values))
    assert got.tolist() == [half_up_2(v) for v in values]
