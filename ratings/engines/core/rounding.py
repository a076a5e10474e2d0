"""Half-up rounding as federations publish (RULES §7): via Decimal of repr, never round()."""

from functools import cache

import numpy as np


@cache
def _decimal():
    """Decimal, 1, 0.01 and a context: imported on first use (the command lines of array
    engines round with half_up_ints and never need it)."""
    from decimal import ROUND_HALF_UP, Context, Decimal

    # Enough digits for any finite float (up to 1.8e308): the default 28 would make quantize
    # raise InvalidOperation on a rating of 1e28 instead of rounding it.
    return Decimal, Decimal("1"), Decimal("0.01"), Context(prec=400, rounding=ROUND_HALF_UP)


def half_up_int(x: float) -> int:
    decimal, one, _, wide = _decimal()
    return int(decimal(repr(float(x))).quantize(one, context=wide))


def half_up_2(x: float) -> float:
    decimal, _, cent, wide = _decimal()
    return float(decimal(repr(float(x))).quantize(cent, context=wide))


def half_up_ints(values: np.ndarray) -> list[int]:
    """half_up_int of each value. For 0.5 <= x < 2**52 that is floor(x + 0.5) exactly: 0.5 lies
    on x's binary grid, so the sum is exact unless it crosses a power of two 2**k, where it
    rounds to within [2**k, 2**k + 0.5] and floor still gives 2**k; and repr(x) ends in ".5"
    exactly when x is k + 0.5. Below 0.5 it is 0 (x + 0.5 could round up to 1 there). Anything
    else (negative, huge, non-finite) takes half_up_int."""
    values = np.asarray(values, dtype=np.float64)
    fast = (values >= 0) & (values < 2.0**52)  # False for NaN
    rounded = np.floor(np.where(fast, values, 0.0) + 0.5)
    rounded[values < 0.5] = 0.0
    result = rounded.astype(np.int64).tolist()
    if not fast.all():
        for i in np.flatnonzero(~fast).tolist():
            result[i] = half_up_int(values[i])
    return result
