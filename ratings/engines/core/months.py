"""Calendar-month arithmetic shared by the calendars and the acceptability rules."""

from __future__ import annotations

from datetime import date


def month_index(day: date) -> int:
    """Months since year 0: consecutive months are consecutive numbers."""
    return day.year * 12 + day.month - 1


def first_of(index: int) -> date:
    """The first day of the month numbered ``index`` (see ``month_index``)."""
    return date(index // 12, index % 12 + 1, 1)


def add_months(day: date, months: int) -> date:
    """``day`` moved by whole calendar months; a missing day becomes the month's last day."""
    index = month_index(day) + months
    first = first_of(index)
    next_first = first_of(index + 1)
    return first.replace(day=min(day.day, (next_first - first).days))
