"""Rows compared value by value with their types: 1500 and 1500.0 differ, and NaN equals NaN.
For the tests that compare two readers of the same rows (federation.json_rows against the ORM)."""

from __future__ import annotations

import math


def typed_rows(rows: list[tuple]) -> list[list[tuple[type, object]]]:
    """Each row's values with their types, NaN as a text (NaN equals nothing, not even NaN)."""
    return [[(type(value), _comparable(value)) for value in row] for row in rows]


def _comparable(value: object) -> object:
    return "NaN" if isinstance(value, float) and math.isnan(value) else value
