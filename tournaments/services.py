"""Writes to events and games; every check that must hold whatever the entry path.

Acceptability: status changes, attestations and overrides, each with its audit row in the same
transaction. Admin views and actions, commands and the rating services call these; nothing else
writes ``Event.status``.
"""

from __future__ import annotations

from datetime import date

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone

from federation import audit
from federation.permissions import is_rating_officer, visible_federation_ids
from ratings.engines.wfcc.categories import CATEGORY_KT
from tournaments.acceptability import ATTESTATIONS, wfcc
from tournaments.acceptability_report import evaluate_event, is_overridable
from tournaments.models import (
    AcceptanceOverride,
    Attestation,
    Event,
    EventStatus,
    Game,
    check_game_players,
)
from tournaments.selectors import event_facts


@transaction.atomic
def record_game(*, event: Event, **fields) -> Game:
    """Create a game after checking its players; raises ValidationError and saves nothing."""
    game = Game(event=event, **fields)
    check_game_players(game)
    game.full_clean()
    game.save()
    return game


# --- acceptability: attestations, overrides and the event's status -------------------------------


class TransitionError(ValidationError):
    """A status change, attestation or override the rules or the user's role do not allow."""


# action -> (statuses it may start from, status it leads to)
TRANSITIONS = {
    "submit": ((EventStatus.DRAFT, EventStatus.REJECTED), EventStatus.SUBMITTED),
    "accept": ((EventStatus.DRAFT, EventStatus.SUBMITTED), EventStatus.ACCEPTED),
    "reject": (
        (EventStatus.DRAFT, EventStatus.SUBMITTED, EventStatus.ACCEPTED),
        EventStatus.REJECTED,
    ),
    "mark_rated": ((EventStatus.ACCEPTED, EventStatus.RATED), EventStatus.RATED),
}
# Who decides: a tournament director hands an event in; rating officers judge it.
NEEDS_RATING_OFFICER = {"accept", "reject", "mark_rated"}


def _locked(event: Event) -> Event:
    """The event re-read under a row lock, so two officials cannot both move it."""
    return Event.objects.select_for_update().select_related("federation").get(pk=event.pk)


def _require_official(user, event: Event, *, rating_officer: bool) -> None:
    ids = visible_federation_ids(user)
    if ids is not None and event.federation_id not in ids:
        raise PermissionDenied(f"{user} is no official of {event.federation.code}")
    if rating_officer and not is_rating_officer(user, event.federation_id):
        raise PermissionDenied(f"only a rating officer of {event.federation.code} may do this")


def _today(today: date | None) -> date:
    return today or timezone.localdate()


def change_status(
    *, event: Event, action: str, by, reason: str = "", today: date | None = None
) -> Event:
    """Move ``event`` by ``action`` (submit, accept, reject, mark_rated) with its audit row.

    Accepting and marking rated re-check the rules: any FAIL not named by an override, or any
    attestation still missing, refuses with TransitionError and changes nothing.
    """
    if action not in TRANSITIONS:
        raise TransitionError(f"unknown action {action!r}", code="unknown_action")
    sources, target = TRANSITIONS[action]
    with transaction.atomic():
        event = _locked(event)
        # by=None: a scheduled rating run marking what it rated (already authorised upstream)
        if by is not None or action != "mark_rated":
            _require_official(by, event, rating_officer=action in NEEDS_RATING_OFFICER)
        if event.status not in sources:
            raise TransitionError(
                f"{event.code} is {event.status}; {action.replace('_', ' ')} needs status "
                f"{' or '.join(sources)}",
                code="wrong_status",
            )
        if action == "reject" and not reason.strip():
            raise TransitionError("a rejection needs a reason", code="no_reason")
        message = reason.strip()
        if target in (EventStatus.ACCEPTED, EventStatus.RATED):
            report = evaluate_event(event, today=_today(today))
            if not report.acceptable:
                raise TransitionError(
                    f"{event.code} cannot be {target}: {report.summary()}", code="blocked"
                )
            if report.overridden:
                message = (
                    (message + " " if message else "")
                    + "overridden: "
                    + ", ".join(r.rule_id for r in report.overridden)
                )
        old = event.status
        if old != target:
            event.status = target
            event.save(update_fields=["status", "updated_at"])
        audit.record(
            actor=by,
            action=action,
            obj=event,
            old={"status": old},
            new={"status": target},
            message=message,
        )
    return event


def submit_event(*, event: Event, by, today: date | None = None) -> Event:
    return change_status(event=event, action="submit", by=by, today=today)


def accept_event(*, event: Event, by, today: date | None = None) -> Event:
    return change_status(event=event, action="accept", by=by, today=today)


def reject_event(*, event: Event, by, reason: str) -> Event:
    return change_status(event=event, action="reject", by=by, reason=reason)


def mark_event_rated(*, event: Event, by=None, today: date | None = None) -> Event:
    """After a run rated it; refuses while a rule blocks. ``by=None``: the scheduled job."""
    return change_status(event=event, action="mark_rated", by=by, today=today)


def record_attestation(
    *, event: Event, rule_id: str, by, note: str = "", category: str | None = None
) -> Attestation:
    """An official confirms what the data cannot prove (WFCC R3 quality, R12, KT; EGF
    recognition), under his name and the date; audited in the same transaction.

    ``WFCC-KT``: the representative determines the category (RULES §4.4 [A]); ``category``
    (W40 ... O10, default the one proposed from the facts) and its KT are stored on the event.
    """
    note = note.strip()
    with transaction.atomic():
        event = _locked(event)
        _require_official(by, event, rating_officer=False)
        keys = ATTESTATIONS.get(event.federation.system, {})
        if rule_id not in keys:
            raise TransitionError(
                f"{rule_id} is no attestation of {event.federation.system} events "
                f"(those are: {', '.join(keys) or 'none'})",
                code="unknown_attestation",
            )
        if Attestation.objects.filter(event=event, rule_id=rule_id).exists():
            raise TransitionError(
                f"{rule_id} is already attested for {event.code}", code="already_attested"
            )
        if rule_id == wfcc.ATTEST_KT:
            _store_category(event, category, by)
        attestation = Attestation.objects.create(event=event, rule_id=rule_id, by=by, note=note)
        detail = f"{event.code}: {rule_id} — {keys[rule_id]}"
        if rule_id == wfcc.ATTEST_KT:
            detail += f": {event.rating_class} (KT {event.kt})"
        audit.record(
            actor=by,
            action="attest",
            obj=attestation,
            new=audit.snapshot(attestation),
            message=detail + (f" ({note})" if note else ""),
        )
    return attestation


def _store_category(event: Event, category: str | None, by) -> None:
    """The WFCC category the representative determined, and its KT, on the event (audited)."""
    if category is None:
        facts = event_facts(event).facts
        if facts is None:
            raise TransitionError(
                "the event's facts are incomplete: name the category", code="no_category"
            )
        category = wfcc.propose_category(facts)[0]
    if category not in CATEGORY_KT or category[0] != (event.solving_rules or "?"):
        raise TransitionError(
            f"{category!r} is no category for rules {event.solving_rules or 'unknown'}",
            code="bad_category",
        )
    old = audit.snapshot(event)
    event.rating_class, event.kt = category, CATEGORY_KT[category]
    event.save(update_fields=["rating_class", "kt", "updated_at"])
    audit.record(
        actor=by,
        action="change",
        obj=event,
        old=old,
        new=audit.snapshot(event),
        message=f"category {category} determined with the KT attestation",
    )


def record_override(
    *, event: Event, rule_ids: list[str], reason: str, by, today: date | None = None
) -> AcceptanceOverride:
    """A rating officer lets named failing rules pass, with the reason; audited.

    Only rules that fail now may be named (an override answers for a known failure, not for
    whatever may fail later); ``<SYSTEM>-DATA`` failures cannot be overridden.
    """
    reason = reason.strip()
    if not reason:
        raise TransitionError("an override needs a reason", code="no_reason")
    if not rule_ids:
        raise TransitionError("name at least one failing rule to override", code="no_rules")
    with transaction.atomic():
        event = _locked(event)
        _require_official(by, event, rating_officer=True)
        report = evaluate_event(event, today=_today(today))
        overridable = {r.rule_id for r in report.failing if is_overridable(r)}
        wrong = sorted(set(rule_ids) - overridable)
        if wrong:
            raise TransitionError(
                f"{', '.join(wrong)} {'does' if len(wrong) == 1 else 'do'} not fail or cannot be "
                f"overridden; failing now: {', '.join(sorted(overridable)) or 'nothing'}",
                code="not_failing",
            )
        override = AcceptanceOverride.objects.create(
            event=event, rule_ids=sorted(set(rule_ids)), reason=reason, by=by
        )
        audit.record(
            actor=by,
            action="override",
            obj=override,
            new=audit.snapshot(override),
            message=f"{event.code}: {', '.join(override.rule_ids)} overridden: {reason}",
        )
    return override
