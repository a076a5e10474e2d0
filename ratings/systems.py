"""The one registry of rating systems: what the rest of the site needs to know about each.

Every place that behaves differently per system asks the system's ``System`` here (its engine,
runner, calendar, explain, what-if calculator, table columns) instead of comparing the system's
name; ``tests/ratings/test_systems.py`` scans the tree so that a new ``if system == "egf"`` or
``{"egf": ...}`` outside this file and the pure cores fails. The names themselves are the engine
command line's own list (``ratings.engines.SYSTEMS``) and the database's choices
(``federation.models.RatingSystem``); the registry checks that the three agree.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType

from federation.models import RatingSystem
from ratings import explainers, periods, whatif
from ratings.engines import SYSTEMS as ENGINE_SYSTEMS
from ratings.engines import egf as egf_engine
from ratings.engines import iccf as iccf_engine
from ratings.engines import playchess as playchess_engine
from ratings.engines import wfcc as wfcc_engine
from ratings.runners import egf as egf_runner
from ratings.runners import iccf as iccf_runner
from ratings.runners import playchess as playchess_runner
from ratings.runners import wfcc as wfcc_runner


class UnknownSystem(LookupError):
    """A federation names a rating system the site does not have."""


@dataclass(frozen=True)
class System:
    code: str  # the name stored on a federation (federation.models.RatingSystem)
    engine: ModuleType  # pure; run_json(input) -> output is ``python -m ratings.engines``
    runner: ModuleType  # build(ctx) -> Prepared (database -> input), interpret(prepared, output)
    calendar: periods.Calendar  # pure: the system's periods (ratings/periods.py)
    example_period: str  # what an official types to name a period
    explain: Callable  # (report, player, engine input) -> None, fills the report
    explain_per_event: bool  # the breakdown is one section per event (EGF, WFCC)
    whatif: whatif.Calculator
    shows_rd: bool  # lists, exports and the history chart carry an RD
    shows_grade: bool  # lists and exports carry the player's grade
    has_half_ratings: bool  # a newcomer's first rated events give half-ratings (WFCC)

    @property
    def title(self) -> str:
        return self.whatif.title

    @property
    def explain_partial(self) -> str:
        return self.whatif.partial  # the explain page and the calculator show the same quantities


ICCF = System(
    code=RatingSystem.ICCF.value,
    engine=iccf_engine,
    runner=iccf_runner,
    calendar=periods.ICCF,
    example_period="2026Q1",
    explain=explainers.iccf,
    explain_per_event=False,
    whatif=whatif.ICCF,
    shows_rd=True,
    shows_grade=False,
    has_half_ratings=False,
)
EGF = System(
    code=RatingSystem.EGF.value,
    engine=egf_engine,
    runner=egf_runner,
    calendar=periods.EGF,
    example_period="2026-03",
    explain=explainers.egf,
    explain_per_event=True,
    whatif=whatif.EGF,
    shows_rd=False,
    shows_grade=True,
    has_half_ratings=False,
)
PLAYCHESS = System(
    code=RatingSystem.PLAYCHESS.value,
    engine=playchess_engine,
    runner=playchess_runner,
    calendar=periods.PLAYCHESS,
    example_period="2026-03",
    explain=explainers.playchess,
    explain_per_event=False,
    whatif=whatif.PLAYCHESS,
    shows_rd=False,
    shows_grade=False,
    has_half_ratings=False,
)
WFCC = System(
    code=RatingSystem.WFCC.value,
    engine=wfcc_engine,
    runner=wfcc_runner,
    calendar=periods.WFCC,
    example_period="2026Q1",
    explain=explainers.wfcc,
    explain_per_event=True,
    whatif=whatif.WFCC,
    shows_rd=False,
    shows_grade=False,
    has_half_ratings=True,
)

ALL: tuple[System, ...] = (ICCF, EGF, PLAYCHESS, WFCC)
_BY_CODE = {system.code: system for system in ALL}

_NAMES = {
    "the registry": set(_BY_CODE),
    "the engine command line": set(ENGINE_SYSTEMS),
    "the database's choices": set(RatingSystem.values),
    "the calendars": {calendar.system for calendar in periods.CALENDARS},
}
if len({frozenset(names) for names in _NAMES.values()}) != 1 or any(
    s.calendar.system != s.code or s.whatif.system != s.code for s in ALL
):
    raise ImportError(f"the rating systems must be the same everywhere: {_NAMES}")


def get(code: str) -> System:
    """The system named ``code`` (a federation's ``system``)."""
    try:
        return _BY_CODE[code]
    except KeyError:
        raise UnknownSystem(f"unknown rating system {code!r}; one of {sorted(_BY_CODE)}") from None


def of(federation) -> System:
    return get(federation.system)
