"""Numbers as the site shows them (RULES §7): the published integer, and a change as the
difference of two published integers, never a rounded difference of unrounded values.

One home for these rules: pages, exports, the API and the admin diff all call them, so a change a
reader sees is always the difference of the two ratings he can read (2036 -> 2032 is -4).
"""

from __future__ import annotations

from decimal import Decimal

from ratings.engines.core.rounding import half_up_int


def published(value: float | None) -> int | None:
    """A rating as published: half-up to an integer."""
    return None if value is None else half_up_int(value)


def published_change(before: float | None, after: float | None) -> int | None:
    """after − before as published: the difference of the two published integers."""
    if before is None or after is None:
        return None
    return half_up_int(after) - half_up_int(before)


def exact_sum(a: float, b: float) -> float:
    """a + b in decimal (2036.43 + 0.07 is 2036.50, not 2036.4999…), so it rounds as published."""
    return float(Decimal(repr(float(a))) + Decimal(repr(float(b))))


def signed(value: int | float | None) -> str:
    """+12, −3, ±0 for a published change (a float is rounded half-up first); – for none."""
    if value is None:
        return "–"
    n = value if isinstance(value, int) else half_up_int(value)
    return f"+{n}" if n > 0 else ("±0" if n == 0 else f"−{-n}")


def signed_unrounded(value: float | None, places: int = 2) -> str:
    """The unrounded change beside the published one (a tooltip): +10.62, −0.40."""
    if value is None:
        return ""
    text = f"{abs(value):.{places}f}"
    if float(text) == 0:
        return f"±{text}"
    return f"+{text}" if value > 0 else f"−{text}"
