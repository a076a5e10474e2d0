"""What tournaments asks of the apps above it, provided by them when Django starts.

tournaments sits below ratings (the layers contract in pyproject.toml): it never imports ratings.
Where an acceptability rule needs a rating (WFCC R2 counts solvers with a full rating on the list
valid at the start), ratings registers the reader here (``RatingsConfig.ready``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import date
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tournaments.models import Event

FullRatings = Callable[["Sequence[Event]", Mapping[int, Iterable[int]]], dict[int, dict[int, int]]]
_full_ratings: FullRatings | None = None


def provide_full_ratings(reader: FullRatings) -> None:
    global _full_ratings
    _full_ratings = reader


def full_ratings_at_start(
    events: Sequence[Event], solvers: Mapping[int, Iterable[int]]
) -> dict[int, dict[int, int]]:
    """Per event id, {solver id: published full rating on the list valid at the event's start};
    empty when no ratings app is installed (nothing was ever rated)."""
    if _full_ratings is None:
        return {}
    return _full_ratings(events, solvers)


# (federation id, a day) -> (the published period whose window holds the day, every later
# published period), or None; an import warns that a re-rate from that period will be needed.
PublishedPeriod = Callable[[int, date], "tuple[str, list[str]] | None"]
_published_period: PublishedPeriod | None = None


def provide_published_period(reader: PublishedPeriod) -> None:
    global _published_period
    _published_period = reader


def published_period_holding(federation_id: int, day: date) -> tuple[str, list[str]] | None:
    """The published period holding ``day`` and the later published ones; None when there is
    none (or no ratings app is installed)."""
    if _published_period is None:
        return None
    return _published_period(federation_id, day)


# Per system code: (the event fields of that system only, whether it has a class or category).
EventFields = Callable[[], dict[str, tuple[tuple[str, ...], bool]]]
_event_fields: EventFields | None = None


def provide_event_fields(reader: EventFields) -> None:
    global _event_fields
    _event_fields = reader


def event_fields_by_system() -> dict[str, tuple[tuple[str, ...], bool]]:
    """Empty when no ratings app is installed: the event form then shows every field."""
    return _event_fields() if _event_fields is not None else {}


# ICCF rule 2.1a: the declared FIDE ratings of an event's unrated players, as checked against the
# FIDE list (ratings.systems.iccf.fide_checks.event_fide_checks), for the acceptability panel.
FideChecks = Callable[["Event", date], list[dict]]
_fide_checks: FideChecks | None = None


def provide_fide_checks(reader: FideChecks) -> None:
    global _fide_checks
    _fide_checks = reader


def fide_checks_of_event(event: Event, today: date) -> list[dict]:
    """Rows to show the rating officer (empty when no ratings app is installed)."""
    if _fide_checks is None:
        return []
    return _fide_checks(event, today)


# Per system code: the results format its events take (``System.results_format``); each importer
# (tournaments.importers) names the one it reads, so nothing here names a system.
ResultsFormats = Callable[[], dict[str, str]]
_results_formats: ResultsFormats | None = None


def provide_results_formats(reader: ResultsFormats) -> None:
    global _results_formats
    _results_formats = reader


def results_formats_by_system() -> dict[str, str]:
    """Empty when no ratings app is installed: no federation's results can then be imported."""
    return _results_formats() if _results_formats is not None else {}
