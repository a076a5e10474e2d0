"""What the per-system facts builders share."""

from __future__ import annotations

from ratings.engines.core.errors import EngineInputError


def missing(field: str, what: str) -> EngineInputError:
    return EngineInputError(field, f"{what} is not recorded on the event")
