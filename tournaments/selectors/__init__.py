"""Reads for the acceptability rules: the pure facts dataclasses built from events and their rows.

``facts_for_events`` turns any number of events into the facts of their federation's rules in a
constant number of queries (one per kind of row, whatever the number of events or games), so the
change page, the changelist column and filter, the command and the rating services all see the
same facts. A fact the database cannot provide (no transmission, no time system, ...) becomes an
``EngineInputError``, which the report shows as a ``<SYSTEM>-DATA`` failure.

Each system's facts are built by ``tournaments/selectors/<code>.py``, beside its rules in
``tournaments/acceptability/<code>.py`` (tournaments sits below ratings and its registry).
"""

from __future__ import annotations

import importlib
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from types import ModuleType

from ratings.engines.core.errors import EngineInputError
from tournaments.acceptability import rules_of
from tournaments.models import AcceptanceOverride, Attestation, Event, EventStatus

RATEABLE_STATUSES = (EventStatus.ACCEPTED, EventStatus.RATED)


@dataclass(frozen=True)
class RecordedAttestation:
    rule_id: str
    by: str
    at: object  # aware datetime
    note: str


@dataclass(frozen=True)
class RecordedOverride:
    rule_ids: tuple[str, ...]
    reason: str
    by: str
    at: object


@dataclass(frozen=True)
class EventFacts:
    """One event's facts for its system's rules, or why they could not be built."""

    event: Event
    system: str
    facts: object | None  # the system's *EventFacts; None when ``error`` says what is missing
    error: EngineInputError | None
    attestations: tuple[RecordedAttestation, ...]
    overrides: tuple[RecordedOverride, ...]


def facts_module(system: str) -> ModuleType:
    """The facts builder of ``system``: ``tournaments/selectors/<code>.py``, beside its rules
    module ``tournaments/acceptability/<code>.py``; each has ``rows(events)`` (one query per kind
    of row) and ``facts(event, its rows, attested keys)``."""
    rules_of(system)  # an unknown system fails here, as in the rule checks
    return importlib.import_module(f"{__name__}.{system}")


def _system(event: Event) -> str:
    return event.federation.system


def facts_for_events(events: Iterable[Event]) -> dict[int, EventFacts]:
    """Facts of every event, keyed by event id, in a constant number of queries."""
    events = list(events)
    by_system: dict[str, list[Event]] = defaultdict(list)
    for event in events:
        by_system[_system(event)].append(event)
    ids = [e.pk for e in events]
    attestations = _attestations(ids)
    overrides = _overrides(ids)
    rows: dict[int, object] = {}
    for system, of_system in by_system.items():
        rows.update(facts_module(system).rows(of_system))
    out: dict[int, EventFacts] = {}
    for event in events:
        system = _system(event)
        recorded = attestations.get(event.pk, ())
        keys = frozenset(a.rule_id for a in recorded)
        facts, error = None, None
        try:
            facts = facts_module(system).facts(event, rows.get(event.pk), keys)
        except EngineInputError as exc:
            error = exc
        out[event.pk] = EventFacts(
            event, system, facts, error, tuple(recorded), tuple(overrides.get(event.pk, ()))
        )
    return out


def event_facts(event: Event) -> EventFacts:
    return facts_for_events([event])[event.pk]


# --- shared rows ---------------------------------------------------------------------------------


def _user_name(user) -> str:
    return user.get_full_name() or user.get_username()


def _attestations(ids: Sequence[int]) -> dict[int, list[RecordedAttestation]]:
    out: dict[int, list[RecordedAttestation]] = defaultdict(list)
    for a in Attestation.objects.filter(event_id__in=ids).select_related("by").order_by("at"):
        out[a.event_id].append(RecordedAttestation(a.rule_id, _user_name(a.by), a.at, a.note))
    return out


def _overrides(ids: Sequence[int]) -> dict[int, list[RecordedOverride]]:
    out: dict[int, list[RecordedOverride]] = defaultdict(list)
    rows = AcceptanceOverride.objects.filter(event_id__in=ids).select_related("by").order_by("at")
    for o in rows:
        out[o.event_id].append(
            RecordedOverride(tuple(o.rule_ids or ()), o.reason, _user_name(o.by), o.at)
        )
    return out


# Named by the admin and the importers (and the tests) before the split into per-system modules.
from tournaments.selectors.egf import class_verdict as egf_class_verdict  # noqa: E402
from tournaments.selectors.wfcc import rounds as wfcc_rounds  # noqa: E402

__all__ = [
    "EventFacts",
    "RATEABLE_STATUSES",
    "egf_class_verdict",
    "event_facts",
    "facts_for_events",
    "facts_module",
    "wfcc_rounds",
]
