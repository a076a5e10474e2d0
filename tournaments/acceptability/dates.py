"""Small pure calendar helpers shared by the rule modules."""

from __future__ import annotations

from datetime import date


def quarter_start(d: date) -> date:
    """1 Jan, 1 Apr, 1 Jul or 1 Oct of the quarter containing ``d``."""
    return date(d.year, 3 * ((d.month - 1) // 3) + 1, 1)
