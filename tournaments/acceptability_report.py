"""An event judged by its federation's rules, with the attestations and overrides recorded on it.

The one report the panel, the changelist column and filter, ``manage.py check_event``, the state
transitions (``tournaments.services``) and the rating services all read.

Verdict:
* a FAIL blocks until a rating officer's override names its rule (``<SYSTEM>-DATA`` failures,
  facts the database could not provide, cannot be overridden: the rules were not checked);
* a NEEDS_ATTESTATION blocks until the attestation (or the missing date) is recorded;
* warnings never block.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.db.models import prefetch_related_objects

from ratings.engines.core.errors import EngineInputError
from tournaments.acceptability import ATTESTATIONS, RuleResult, Status, check_event
from tournaments.acceptability.types import result as make_result
from tournaments.models import Event, EventStatus
from tournaments.selectors import RATEABLE_STATUSES, EventFacts, facts_for_events

SHOWN_IN_SUMMARY = 4


def data_rule_id(system: str) -> str:
    return f"{system.upper()}-DATA"


def is_overridable(rule: RuleResult) -> bool:
    return rule.status is Status.FAIL and not rule.rule_id.endswith("-DATA")


@dataclass(frozen=True)
class EventReport:
    event: Event
    system: str
    today: date
    results: tuple[RuleResult, ...]
    facts: EventFacts

    # --- what the rules say ----------------------------------------------------------------------
    @property
    def overridden_ids(self) -> frozenset[str]:
        return frozenset(rid for o in self.facts.overrides for rid in o.rule_ids)

    @property
    def failing(self) -> list[RuleResult]:
        return [r for r in self.results if r.status is Status.FAIL]

    @property
    def overridden(self) -> list[RuleResult]:
        return [r for r in self.failing if is_overridable(r) and r.rule_id in self.overridden_ids]

    @property
    def unresolved_failures(self) -> list[RuleResult]:
        return [r for r in self.failing if r not in self.overridden]

    @property
    def needs_attestation(self) -> list[RuleResult]:
        return [r for r in self.results if r.status is Status.NEEDS_ATTESTATION]

    @property
    def blocking_results(self) -> list[RuleResult]:
        return self.unresolved_failures + self.needs_attestation

    @property
    def rules_pass(self) -> bool:
        """Nothing fails and nothing waits for an attestation, overrides aside."""
        return not self.failing and not self.needs_attestation

    @property
    def acceptable(self) -> bool:
        """May be accepted (or rated) now: every failure overridden, every attestation recorded."""
        return not self.blocking_results

    @property
    def verdict(self) -> str:
        if self.rules_pass:
            return "acceptable"
        if self.acceptable:
            return "acceptable with override"
        if self.unresolved_failures:
            return "fails"
        return "needs attestation"

    @property
    def attestable(self) -> dict[str, str]:
        """Attestation keys of this system not yet recorded: key -> what the official confirms."""
        done = {a.rule_id for a in self.facts.attestations}
        return {k: v for k, v in ATTESTATIONS.get(self.system, {}).items() if k not in done}

    def summary(self) -> str:
        """One line: the verdict and the blocking rules with their messages."""
        blocking = self.blocking_results
        if not blocking:
            return self.verdict
        shown = "; ".join(f"{r.rule_id}: {r.message}" for r in blocking[:SHOWN_IN_SUMMARY])
        more = f"; and {len(blocking) - SHOWN_IN_SUMMARY} more" if len(blocking) > 4 else ""
        return f"{self.verdict}: {shown}{more}"

    def to_dict(self) -> dict[str, Any]:
        event = self.event
        return {
            "event": {
                "id": event.pk,
                "code": event.code,
                "name": event.name,
                "federation": event.federation.code,
                "status": event.status,
            },
            "system": self.system,
            "today": self.today.isoformat(),
            "verdict": self.verdict,
            "acceptable": self.acceptable,
            "rules_pass": self.rules_pass,
            "blocking": [r.rule_id for r in self.blocking_results],
            "overridden": [r.rule_id for r in self.overridden],
            "results": [{**r.to_dict(), "overridden": r in self.overridden} for r in self.results],
            "attestations": [
                {"rule_id": a.rule_id, "by": a.by, "at": a.at.isoformat(), "note": a.note}
                for a in self.facts.attestations
            ],
            "overrides": [
                {
                    "rule_ids": list(o.rule_ids),
                    "reason": o.reason,
                    "by": o.by,
                    "at": o.at.isoformat(),
                }
                for o in self.facts.overrides
            ],
        }

    def as_text(self) -> str:
        event = self.event
        lines = [
            f"{event.code} {event.name} (federation {event.federation.code}, {self.system} rules, "
            f"status {event.status}) on {self.today}: {self.verdict}"
        ]
        width = max((len(r.rule_id) for r in self.results), default=0)
        for r in self.results:
            mark = " (overridden)" if r in self.overridden else ""
            lines.append(f"  {r.status.value:<17} {r.rule_id:<{width}}  {r.message}{mark}")
        for a in self.facts.attestations:
            lines.append(
                f"  attested {a.rule_id} by {a.by} on {a.at:%Y-%m-%d}"
                + (f": {a.note}" if a.note else "")
            )
        for o in self.facts.overrides:
            lines.append(
                f"  override of {', '.join(o.rule_ids)} by {o.by} on {o.at:%Y-%m-%d}: {o.reason}"
            )
        return "\n".join(lines)


def _results(facts: EventFacts, today: date) -> tuple[RuleResult, ...]:
    err = facts.error
    if err is None:
        try:
            return tuple(check_event(facts.system, facts.facts, today))
        except EngineInputError as exc:  # facts the rules found inconsistent
            err = exc
    return (
        make_result(
            data_rule_id(facts.system),
            "Facts needed by the rules",
            Status.FAIL,
            f"{err.what} ({err.where}); the rules cannot be checked until it is entered",
            field=err.where,
        ),
    )


def reports_for(events: Iterable[Event], *, today: date) -> dict[int, EventReport]:
    """Reports of many events (e.g. a changelist page) in a constant number of queries."""
    all_facts = facts_for_events(events)
    return {
        event_id: EventReport(f.event, f.system, today, _results(f, today), f)
        for event_id, f in all_facts.items()
    }


def evaluate_event(event: Event, *, today: date) -> EventReport:
    return reports_for([event], today=today)[event.pk]


# --- for the rating services --------------------------------------------------------------------


def events_for_rating(
    federation, events: Iterable[Event], today: date
) -> tuple[list[Event], list[dict]]:
    """Split events into those a rating run may take and those it leaves out, with the reason.

    Rateable: status accepted (or rated, for re-runs) in ``federation``. Acceptance is where the
    rules are enforced (``services.accept_event``), so an accepted event is not re-judged here;
    an event left out names its status and, if it was never accepted, what blocks it today.
    Returns ``(events, excluded)`` in the order given, ``excluded`` as dicts ``event_id,
    event_code, status, reason``.
    """
    events = list(events)  # a queryset, or a run's window already read: in their order
    prefetch_related_objects(events, "federation")  # one query, not one per event
    rateable = [
        e for e in events if e.federation_id == federation.pk and e.status in RATEABLE_STATUSES
    ]
    taken = {e.pk for e in rateable}  # by key: comparing model instances is O(n) each
    others = [e for e in events if e.pk not in taken]
    judged = reports_for(
        [
            e
            for e in others
            if e.federation_id == federation.pk
            and e.status in (EventStatus.DRAFT, EventStatus.SUBMITTED)
        ],
        today=today,
    )
    excluded = []
    for event in others:
        if event.federation_id != federation.pk:
            reason = f"belongs to federation {event.federation.code}, not {federation.code}"
        else:
            reason = f"status {event.status}: only accepted events are rated"
            report = judged.get(event.pk)
            if report is not None and report.blocking_results:
                reason += "; " + report.summary()
        excluded.append(
            {
                "event_id": event.pk,
                "event_code": event.code,
                "status": event.status,
                "reason": reason,
            }
        )
    return rateable, excluded
