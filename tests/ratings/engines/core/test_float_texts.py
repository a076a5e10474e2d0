"""jsonio.float_texts, the fast path of the EGF output writer, against its scalar reference:
repr of each float (json.dumps's text), whichever of msgspec or repr writes it."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from ratings.engines.core import jsonio

FINITE = st.floats(allow_nan=False, allow_infinity=False)
RATINGS = st.floats(min_value=-100.0, max_value=4000.0, allow_nan=False)

# Where repr changes its form (an exponent below 1e-4 and from 1e16) and the extremes.
EDGES = [
    0.0,
    -0.0,
    1e-4,
    math.nextafter(1e-4, 0),
    math.nextafter(1e-4, 1),
    1e-5,
    1e16,
    math.nextafter(1e16, 0),
    9999999999999998.0,
    1e15,
    5e-324,
    2.2250738585072014e-308,
    1.7976931348623157e308,
    0.1,
    1 / 3,
    2100.0000000000005,
    1500.0,
]


def _reference(values) -> list[str]:
    return [repr(v) for v in np.asarray(values, dtype=np.float64).tolist()]


def test_the_edges_of_repr_forms_are_written_as_repr():
    values = np.array(EDGES + [-v for v in EDGES])
    assert jsonio.float_texts(values) == _reference(values)


@settings(max_examples=300, deadline=None)
@given(arrays(np.float64, st.integers(0, 60), elements=FINITE))
def test_any_finite_floats_are_written_as_repr(values):
    assert jsonio.float_texts(values) == _reference(values)


@settings(max_examples=100, deadline=None)
@given(arrays(np.float64, st.integers(1, 200), elements=RATINGS))
def test_ratings_take_the_fast_path_and_are_written_as_repr(values):
    assert jsonio.float_texts(values) == _reference(values)


def test_a_strided_view_is_written_as_its_values():
    values = np.arange(40, dtype=np.float64)[::3] / 7
    assert jsonio.float_texts(values) == _reference(values)


def test_nothing_gives_nothing():
    assert jsonio.float_texts(np.zeros(0)) == []


@settings(max_examples=200, deadline=None)
@given(
    arrays(
        np.float64,
        st.integers(0, 60),
        elements=st.one_of(st.sampled_from([0.0, -0.0, 1800.0, math.nan]), FINITE),
    )
)
def test_float_texts_once_writes_each_value_as_repr_and_nan_as_asked(values):
    """Each distinct value written once, -0.0 apart from 0.0, NaN as the text given."""
    wanted = ["None" if v != v else repr(v) for v in values.tolist()]
    assert jsonio.float_texts_once(values, nan_text="None") == wanted
    finite = values[~np.isnan(values)]
    assert jsonio.float_texts_once(finite) == _reference(finite)
