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
from ratings import calendars
from ratings.engines import SYSTEMS as ENGINE_SYSTEMS
from ratings.engines import egf as egf_engine
from ratings.engines import iccf as iccf_engine
from ratings.engines import playchess as playchess_engine
from ratings.engines import wfcc as wfcc_engine
from ratings.systems import explainers, native_exports
from ratings.systems.egf import runner as egf_runner
from ratings.systems.iccf import runner as iccf_runner
from ratings.systems.playchess import runner as playchess_runner
from ratings.systems.wfcc import runner as wfcc_runner
from ratings.web import whatif


class UnknownSystem(LookupError):
    """A federation names a rating system the site does not have."""


@dataclass(frozen=True)
class System:
    code: str  # the name stored on a federation (federation.models.RatingSystem)
    engine: ModuleType  # pure; run_json(input) -> output is ``python -m ratings.engines``
    runner: ModuleType  # build(ctx) -> Prepared (database -> input), interpret(prepared, output)
    calendar: calendars.Calendar  # pure: the system's periods (ratings/calendars.py)
    example_period: str  # what an official types to name a period
    explain: Callable  # (report, player, engine input) -> None, fills the report
    explain_per_event: bool  # the breakdown is one section per event (EGF, WFCC)
    whatif: whatif.Calculator
    shows_rd: bool  # lists, exports and the history chart carry an RD
    shows_grade: bool  # lists and exports carry the player's grade
    has_half_ratings: bool  # a newcomer's first rated events give half-ratings (WFCC)
    event_table: str  # the event page's table (ratings.web.crosstable): egd, square, games, solving
    native_export: native_exports.NativeFormat  # the list in the federation's own file format
    verifies_fide_ratings: bool  # newcomers' declared FIDE ratings are checked (ICCF rule 2.1a)
    # The event form's fields of this system only (the admin hides other systems' fields).
    event_fields: tuple[str, ...] = ()
    has_rating_class: bool = False  # EGF class, WFCC category
    earns_norms: bool = False  # runs store title norms and propose titles (WFCC solving)

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
    calendar=calendars.ICCF,
    example_period="2026Q1",
    explain=explainers.iccf,
    explain_per_event=False,
    whatif=whatif.ICCF,
    shows_rd=True,
    shows_grade=False,
    has_half_ratings=False,
    event_table="square",
    event_fields=("transmission", "reflection_days", "reflection_moves"),
    native_export=native_exports.FIDE_STYLE_TXT,
    verifies_fide_ratings=True,
)
EGF = System(
    code=RatingSystem.EGF.value,
    engine=egf_engine,
    runner=egf_runner,
    calendar=calendars.EGF,
    example_period="2026-03",
    explain=explainers.egf,
    explain_per_event=True,
    whatif=whatif.EGF,
    shows_rd=False,
    shows_grade=True,
    has_half_ratings=False,
    event_table="egd",
    event_fields=(
        "basic_time_minutes",
        "time_system",
        "overtime_seconds",
        "overtime_moves",
        "fischer_bonus_seconds",
        "handicap_reduction",
        "komi",
    ),
    has_rating_class=True,
    native_export=native_exports.EGD_WORLD_LIST,
    verifies_fide_ratings=False,
)
PLAYCHESS = System(
    code=RatingSystem.PLAYCHESS.value,
    engine=playchess_engine,
    runner=playchess_runner,
    calendar=calendars.PLAYCHESS,
    example_period="2026-03",
    explain=explainers.playchess,
    explain_per_event=False,
    whatif=whatif.PLAYCHESS,
    shows_rd=False,
    shows_grade=False,
    has_half_ratings=False,
    event_table="games",
    event_fields=(),
    native_export=native_exports.FIDE_STYLE_TXT,
    verifies_fide_ratings=False,
)
WFCC = System(
    code=RatingSystem.WFCC.value,
    engine=wfcc_engine,
    runner=wfcc_runner,
    calendar=calendars.WFCC,
    example_period="2026Q1",
    explain=explainers.wfcc,
    explain_per_event=True,
    whatif=whatif.WFCC,
    shows_rd=False,
    shows_grade=False,
    has_half_ratings=True,
    earns_norms=True,
    event_table="solving",
    event_fields=("kt", "championship", "solving_rules", "rounds", "days", "fairy_announced_on"),
    has_rating_class=True,
    native_export=native_exports.SOLVERS_LIST,
    verifies_fide_ratings=False,
)

ALL: tuple[System, ...] = (ICCF, EGF, PLAYCHESS, WFCC)
_BY_CODE = {system.code: system for system in ALL}

_NAMES = {
    "the registry": set(_BY_CODE),
    "the engine command line": set(ENGINE_SYSTEMS),
    "the database's choices": set(RatingSystem.values),
    "the calendars": {calendar.system for calendar in calendars.CALENDARS},
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


def event_fields_by_system() -> dict[str, tuple[tuple[str, ...], bool]]:
    """For tournaments (below ratings, through tournaments.ports): per system code, the event
    fields of that system only, and whether it has a class."""
    return {system.code: (system.event_fields, system.has_rating_class) for system in ALL}
