"""The ICCF engine's per-player sum: order-independent bit for bit, and as exact as fsum."""

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.engines.iccf.rate import _sum_by_player, times_power_of_two

terms = st.lists(
    st.tuples(
        st.integers(min_value=0, max_value=5),
        st.floats(min_value=-8.0, max_value=8.0, allow_nan=False, allow_subnormal=False),
    ),
    max_size=300,
)


def _arrays(pairs):
    player = np.array([p for p, _ in pairs], dtype=np.intp)
    values = np.array([v for _, v in pairs], dtype=float)
    return player, values


@settings(max_examples=300, deadline=None)
@given(terms, st.randoms(use_true_random=False))
def test_any_order_gives_the_same_bits(pairs, rng):
    player, values = _arrays(pairs)
    shuffled = list(pairs)
    rng.shuffle(shuffled)
    other_player, other_values = _arrays(shuffled)
    first = _sum_by_player(player, values, np.bincount(player, minlength=6))
    second = _sum_by_player(other_player, other_values, np.bincount(other_player, minlength=6))
    assert first.tobytes() == second.tobytes()


@settings(max_examples=300, deadline=None)
@given(terms)
def test_equals_the_correctly_rounded_sum_within_a_few_ulps(pairs):
    player, values = _arrays(pairs)
    sums = _sum_by_player(player, values.copy(), np.bincount(player, minlength=6))
    largest = float(np.max(np.abs(values))) if len(values) else 0.0
    for p in range(6):
        exact = math.fsum(values[player == p])
        # the grid drops under 2**-64 of the largest term; one rounding joins the two parts
        assert abs(sums[p] - exact) <= 2 * math.ulp(exact) + largest * 2.0**-60


def test_cancellation_keeps_the_small_terms():
    player = np.zeros(4, dtype=np.intp)
    values = np.array([1.0, 1e-17, -1.0, 3e-17])
    # a plain left-to-right sum gives 3e-17 here; the grid keeps both small terms
    assert (
        abs(_sum_by_player(player, values, np.bincount(player, minlength=1))[0] - 4e-17) <= 2.0**-60
    )


@settings(max_examples=500, deadline=None)
@given(
    st.lists(st.floats(allow_nan=True, allow_infinity=True, allow_subnormal=True), max_size=50),
    st.integers(min_value=-1200, max_value=1200),
)
def test_the_product_by_a_power_of_two_has_ldexps_bits(values, exponent):
    values = np.array(values, dtype=float)
    with np.errstate(over="ignore"):  # both give an infinity, as they should
        product = times_power_of_two(values, exponent)
        reference = np.ldexp(values, exponent)
    assert np.array_equal(np.isnan(product), np.isnan(reference))
    number = ~np.isnan(reference)
    assert product[number].tobytes() == reference[number].tobytes()
