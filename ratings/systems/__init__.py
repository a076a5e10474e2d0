"""The registry of rating systems, built from their packages.

Each system is one package ``ratings/systems/<code>/`` of one shape (``ratings.systems.base``):
its ``SYSTEM`` carries the flags, and its modules (runner, calendar, explain, what-if, exports,
event table) the behaviour. Every place that behaves differently per system asks the system here
instead of comparing its name; ``tests/ratings/systems/test_no_name_branches.py`` scans the tree so that a new
``if system == "egf"`` or ``{"egf": ...}`` outside the packages fails.

To add a system: its package, its name in ``PACKAGES``, its engine (``ratings.engines``), its
acceptability module (``tournaments.acceptability``) and its database choice
(``federation.models.RatingSystem``); ``get`` checks that these name the same systems.

Importing this module loads no Django (the pure calendars import a system's ``calendar.py``).
"""

from __future__ import annotations

import functools
import importlib

from ratings.engines import SYSTEMS as ENGINE_SYSTEMS
from ratings.systems.base import System

__all__ = ["ALL", "PACKAGES", "System", "UnknownSystem", "get", "of"]

# The systems' packages, in the order the site lists them.
PACKAGES = ("iccf", "egf", "playchess", "wfcc")

ALL: tuple[System, ...] = tuple(
    importlib.import_module(f"{__name__}.{package}").SYSTEM for package in PACKAGES
)
_BY_CODE = {system.code: system for system in ALL}


class UnknownSystem(LookupError):
    """A federation names a rating system the site does not have."""


if set(PACKAGES) != set(_BY_CODE) or set(_BY_CODE) != set(ENGINE_SYSTEMS):
    raise ImportError(
        f"the rating systems' packages {PACKAGES} must be the engines' {ENGINE_SYSTEMS}"
    )


class ImproperlyConfiguredSystems(RuntimeError):
    """The registry and the database's choices disagree."""


@functools.cache
def _checked_against_the_database() -> None:
    """The database's choices name the same systems (read on first use: models need Django)."""
    from federation.models import RatingSystem

    if set(RatingSystem.values) != set(_BY_CODE):
        raise ImproperlyConfiguredSystems(
            f"federation.models.RatingSystem {sorted(RatingSystem.values)} must name the "
            f"systems' packages {sorted(_BY_CODE)}"
        )


def get(code: str) -> System:
    """The system named ``code`` (a federation's ``system``)."""
    _checked_against_the_database()
    try:
        return _BY_CODE[code]
    except KeyError:
        raise UnknownSystem(f"unknown rating system {code!r}; one of {sorted(_BY_CODE)}") from None


def of(federation) -> System:
    return get(federation.system)


def event_fields_by_system() -> dict[str, tuple[tuple[str, ...], bool]]:
    """For tournaments (below ratings, through tournaments.ports): per system code, the event
    fields of that system only, and whether it has a class."""
    return {system.code: (system.event_fields, system.has_rating_class) for system in ALL}
