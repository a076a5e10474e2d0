"""Small pure calendar helpers shared by the rule modules."""

from __future__ import annotations

import calendar
from datetime import date


def add_months(d: date, months: int) -> date:
    """The same day ``months`` calendar months later (earlier if negative), clamped to month end.

    "Two months before 30 April" is 28 (29) February: the last day that exists.
    """
    index = d.year * 12 + (d.month - 1) + months
    year, month0 = divmod(index, 12)
    last = calendar.monthrange(year, month0 + 1)[1]
    return date(year, month0 + 1, min(d.day, last))


def quarter_start(d: date) -> date:
    """1 Jan, 1 Apr, 1 Jul or 1 Oct of the quarter containing ``d``."""
    return date(d.year, 3 * ((d.month - 1) // 3) + 1, 1)
