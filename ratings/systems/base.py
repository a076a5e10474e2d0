"""What a rating system is: the base every member of the registry (``ratings.systems``) is.

Like Django's password hashers, each member carries its own behaviour. A system is one package,
``ratings/systems/<code>/``, and every package has the same shape:

- ``__init__.py``: ``SYSTEM``, the member (this module's ``System``) with its flags;
- ``runner.py``: ``build(ctx)`` -> the engine's input, ``interpret(prepared, output)``;
- ``calendar.py``: ``CALENDAR``, the system's periods (pure; ``ratings.calendars`` holds the
  arithmetic they share) and its own calendar rules;
- ``explain.py``: ``explain(report, player, engine_input)``, a player's quantities in one run;
- ``whatif.py``: ``CALCULATOR``, the what-if form and calculation (``ratings.web.whatif``);
- ``exports.py``: ``NATIVE_FORMAT``, the published list in the federation's own file format;
- ``event_table.py``: ``EVENT_TABLE``, the event page's table (pure; ``ratings.web.crosstable``
  holds the helpers they share).

A system may also have (``OPTIONAL_MODULES``; without one its member answers None):

- ``starting_list.py``: ``STARTING_LIST``, its own world list (EGF: the EGD's) as a federation's
  first published list.

The member reads these modules by their names when asked, so importing a system (or the pure
calendar of one, as ``ratings.calendars`` and the acceptability rules do) loads neither Django nor
the other modules. ``tests/ratings/systems/test_registry.py`` holds every package to this shape.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ratings.calendars import Calendar
    from ratings.models import RatingList
    from ratings.web.whatif import Calculator
    from tournaments.formats.player_lists import ListRow

# The modules of a system's package, and what each must define (None: the module itself is used).
MODULES: dict[str, str | None] = {
    "runner": None,
    "calendar": "CALENDAR",
    "explain": "explain",
    "whatif": "CALCULATOR",
    "exports": "NATIVE_FORMAT",
    "event_table": "EVENT_TABLE",
}
# The modules a system may do without, and what each must define.
OPTIONAL_MODULES: dict[str, str] = {
    "starting_list": "STARTING_LIST",
}


@dataclass(frozen=True)
class NativeFormat:
    """A published list in a federation's own file format, besides CSV/XLSX/TXT/JSON."""

    suffix: str  # the file name ends with it
    label: str  # the link text
    lines: Callable[[RatingList], Iterator[str]]


@dataclass(frozen=True)
class EventTable:
    """The event page's table of a system: a template fragment and the pure function that gives
    it its context from the event page's rows (no queries, so the page's query count is fixed).
    ``build(page, players_by_id)`` returns the fragment's context; its ``lines`` are the rows, and
    with none the page says that no results are recorded."""

    kind: str  # a name for the table: egd, square, games, solving
    template: str
    build: Callable[[Any, dict], dict]


@dataclass(frozen=True)
class StartingList:
    """A system's own world list read as a federation's first published list: each row carries the
    runner's state on, so the first run continues from it. Any other list (a CSV's ratings) gives
    only the rating and the games played."""

    list_format: str  # the player-list format of that world list (ratings.services.imports)
    # (row, the date the list is valid from) -> the entry's extra fields: ``state``, ``listed``
    entry: Callable[[ListRow, date], dict]


@dataclass(frozen=True)
class System:
    """One rating system. The flags are data; the behaviour lives in the system's package."""

    code: str  # the name stored on a federation (federation.models.RatingSystem)
    example_period: str  # what an official types to name a period
    explain_per_event: bool  # the breakdown is one section per event (EGF, WFCC)
    shows_rd: bool  # lists, exports and the history chart carry an RD
    shows_grade: bool  # lists and exports carry the player's grade
    has_half_ratings: bool  # a newcomer's first rated events give half-ratings (WFCC)
    verifies_fide_ratings: bool  # newcomers' declared FIDE ratings are checked (ICCF rule 2.1a)
    # The event form's fields of this system only (the admin hides other systems' fields).
    event_fields: tuple[str, ...] = ()
    has_rating_class: bool = False  # EGF class, WFCC category
    earns_norms: bool = False  # runs store title norms and propose titles (WFCC solving)

    @property
    def package(self) -> str:
        return f"ratings.systems.{self.code}"

    def module(self, name: str) -> ModuleType:
        """One module of the system's package (``MODULES``), imported on first use."""
        if name not in MODULES and name not in OPTIONAL_MODULES:
            known = sorted([*MODULES, *OPTIONAL_MODULES])
            raise LookupError(f"a system has no module {name!r}; one of {known}")
        return importlib.import_module(f"{self.package}.{name}")

    @property
    def engine(self) -> ModuleType:
        """The pure engine; ``run_json(input) -> output`` is ``python -m ratings.engines``."""
        return importlib.import_module(f"ratings.engines.{self.code}")

    @property
    def runner(self) -> ModuleType:
        return self.module("runner")

    @property
    def calendar(self) -> Calendar:
        return self.module("calendar").CALENDAR

    def explain(self, report, player, engine_input: dict) -> None:
        """Fills ``report`` (``ratings.web.explain.ExplainReport``) from the run's engine input."""
        self.module("explain").explain(report, player, engine_input)

    @property
    def whatif(self) -> Calculator:
        return self.module("whatif").CALCULATOR

    @property
    def native_export(self) -> NativeFormat:
        return self.module("exports").NATIVE_FORMAT

    @property
    def event_table(self) -> EventTable:
        return self.module("event_table").EVENT_TABLE

    @property
    def starting_list(self) -> StartingList | None:
        """The system's own world list as a starting list; None when it has none."""
        if importlib.util.find_spec(f"{self.package}.starting_list") is None:
            return None
        return self.module("starting_list").STARTING_LIST

    @property
    def title(self) -> str:
        return self.whatif.title

    @property
    def explain_partial(self) -> str:
        return self.whatif.partial  # the explain page and the calculator show the same quantities
