"""Half-up rounding as federations publish (RULES §7): via Decimal of repr, never round()."""

from decimal import ROUND_HALF_UP, Context, Decimal

_ONE = Decimal("1")
_CENT = Decimal("0.01")
# Enough digits for any finite float (up to 1.8e308): the default 28 would make quantize raise
# InvalidOperation on a rating of 1e28 instead of rounding it.
_WIDE = Context(prec=400)


def half_up_int(x: float) -> int:
    return int(Decimal(repr(float(x))).quantize(_ONE, rounding=ROUND_HALF_UP, context=_WIDE))


def half_up_2(x: float) -> float:
    return float(Decimal(repr(float(x))).quantize(_CENT, rounding=ROUND_HALF_UP, context=_WIDE))
