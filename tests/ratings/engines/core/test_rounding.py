"""The vectorised half-up rounding of the output (half_up_ints) against the scalar one."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.engines.core.rounding import half_up_int, half_up_ints


@settings(max_examples=2000, deadline=None)
@given(
    st.one_of(
        st.floats(allow_nan=True, allow_infinity=True),
        st.floats(0, 5000),
        st.integers(-3000, 3000).map(lambda k: k / 2),  # exact halves
        st.floats(0, 1),
        st.sampled_from([0.49999999999999994, 0.5, 2047.5, 2.0**52 - 0.5, 2.0**53, -2.5]),
    )
)
def test_vectorised_half_up_matches_the_scalar_rounding(x):
    if not math.isfinite(x):
        with pytest.raises((ValueError, OverflowError, ArithmeticError)):
            half_up_int(x)
        return
    assert half_up_ints(np.array([x, 1834.5])) == [half_up_int(x), 1835]
