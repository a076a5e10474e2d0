"""Half-up rounding as federations publish (RULES §7): via Decimal of repr, never round()."""

from decimal import ROUND_HALF_UP, Decimal

_ONE = Decimal("1")
_CENT = Decimal("0.01")


def half_up_int(x: float) -> int:
    return int(Decimal(repr(float(x))).quantize(_ONE, rounding=ROUND_HALF_UP))


def half_up_2(x: float) -> float:
    return float(Decimal(repr(float(x))).quantize(_CENT, rounding=ROUND_HALF_UP))
