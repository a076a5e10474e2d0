"""A published list in its federation's own format: the system's ``native_export`` (registry)."""

from __future__ import annotations

from collections.abc import Iterator

from ratings import systems
from ratings.models import RatingList


def native_lines(rating_list: RatingList) -> Iterator[str]:
    return systems.of(rating_list.federation).native_export.lines(rating_list)
