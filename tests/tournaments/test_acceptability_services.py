"""Status changes, attestations and overrides: the rules hold, roles are checked, all audited."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied

from federation.models import AuditEvent
from tests.tournaments import acceptability_world as w
from tournaments import services
from tournaments.acceptability_report import events_for_rating
from tournaments.models import AcceptanceOverride, Attestation, Event, EventStatus
from tournaments.services import TransitionError

pytestmark = pytest.mark.django_db
TODAY = w.TODAY


@pytest.fixture
def egf():
    fed = w.federation("egf", "egf")
    return fed, w.officials(fed)


def _reload(event):
    return Event.objects.get(pk=event.pk)


def _audit(action):
    return list(AuditEvent.objects.filter(action=action).order_by("id"))


def test_failing_event_cannot_be_accepted_and_nothing_changes(egf):
    fed, people = egf
    e = w.egf_event(fed, rating_class="A", basic=20, system="sudden_death", bonus=None)
    with pytest.raises(TransitionError) as err:
        services.accept_event(event=e, by=people["officer"], today=TODAY)
    text = " ".join(err.value.messages)
    assert "EGF-TIME: adjusted time 20 minutes; games under 30 minutes are not rated" in text
    assert _reload(e).status == EventStatus.SUBMITTED
    assert _audit("accept") == []


def test_missing_attestation_blocks_until_recorded(egf):
    fed, people = egf
    e = w.egf_event(fed)
    with pytest.raises(TransitionError, match="EGF-RECOGNIZED"):
        services.accept_event(event=e, by=people["officer"], today=TODAY)
    services.record_attestation(
        event=e, rule_id="EGF-RECOGNIZED", by=people["director"], note="EGF member confirmed"
    )
    services.accept_event(event=e, by=people["officer"], today=TODAY)
    assert _reload(e).status == EventStatus.ACCEPTED
    (attested,) = _audit("attest")
    assert attested.actor == people["director"]
    assert "EGF-RECOGNIZED" in attested.message and "EGF member confirmed" in attested.message
    (accepted,) = _audit("accept")
    assert (accepted.old_values, accepted.new_values) == (
        {"status": "submitted"},
        {"status": "accepted"},
    )


def test_override_by_a_rating_officer_with_a_reason_lets_the_failing_rule_pass(egf):
    fed, people = egf
    e = w.egf_event(fed, rating_class="A")  # 40 + 2 x 5 = 50 min: at most class B
    w.attest(e, people["officer"], "EGF-RECOGNIZED")
    with pytest.raises(PermissionDenied):
        services.record_override(
            event=e,
            rule_ids=["EGF-CLASS"],
            reason="organiser demoted",
            by=people["director"],
            today=TODAY,
        )
    with pytest.raises(TransitionError, match="reason"):
        services.record_override(
            event=e, rule_ids=["EGF-CLASS"], reason="  ", by=people["officer"], today=TODAY
        )
    with pytest.raises(TransitionError, match="EGF-TIME does not fail"):
        services.record_override(
            event=e, rule_ids=["EGF-TIME"], reason="x", by=people["officer"], today=TODAY
        )
    assert AcceptanceOverride.objects.count() == 0 and _audit("override") == []
    services.record_override(
        event=e,
        rule_ids=["EGF-CLASS"],
        reason="Ratings committee adjusted the class",
        by=people["officer"],
        today=TODAY,
    )
    (override,) = _audit("override")
    assert override.actor == people["officer"] and override.federation_id == fed.pk
    assert override.message == (
        "T260516A: EGF-CLASS overridden: Ratings committee adjusted the class"
    )
    services.accept_event(event=e, by=people["officer"], today=TODAY)
    (accepted,) = _audit("accept")
    assert accepted.message == "overridden: EGF-CLASS"


def test_an_override_answers_only_for_the_rules_it_names(egf):
    fed, people = egf
    e = w.egf_event(fed, rating_class="A")
    w.attest(e, people["officer"], "EGF-RECOGNIZED")
    services.record_override(
        event=e, rule_ids=["EGF-CLASS"], reason="committee", by=people["officer"], today=TODAY
    )
    e.basic_time_minutes, e.fischer_bonus_seconds = 10, 5  # now EGF-TIME fails too (20 min)
    e.save()
    with pytest.raises(TransitionError, match="EGF-TIME"):
        services.accept_event(event=e, by=people["officer"], today=TODAY)


def test_data_failures_cannot_be_overridden(egf):
    fed, people = egf
    e = w.egf_event(fed, system="")
    with pytest.raises(TransitionError, match="EGF-DATA"):
        services.record_override(
            event=e, rule_ids=["EGF-DATA"], reason="x", by=people["officer"], today=TODAY
        )


def test_roles_and_federations(egf):
    fed, people = egf
    other = w.federation("wfcc", "wfcc")
    stranger = w.officials(other)["officer"]
    e = w.egf_event(fed)
    w.attest(e, people["officer"], "EGF-RECOGNIZED")
    with pytest.raises(PermissionDenied):
        services.accept_event(event=e, by=stranger, today=TODAY)
    with pytest.raises(PermissionDenied):
        services.record_attestation(event=e, rule_id="EGF-RECOGNIZED", by=stranger)
    with pytest.raises(PermissionDenied):  # directors hand in; officers accept
        services.accept_event(event=e, by=people["director"], today=TODAY)
    assert _reload(e).status == EventStatus.SUBMITTED


def test_the_status_moves_only_along_the_allowed_transitions(egf):
    fed, people = egf
    officer = people["officer"]
    e = w.egf_event(fed, status=EventStatus.DRAFT)
    w.attest(e, officer, "EGF-RECOGNIZED")
    with pytest.raises(TransitionError, match="mark rated needs status accepted"):
        services.mark_event_rated(event=e, by=officer, today=TODAY)
    services.submit_event(event=e, by=people["director"], today=TODAY)
    with pytest.raises(TransitionError, match="reason"):
        services.reject_event(event=e, by=officer, reason="")
    services.reject_event(event=e, by=officer, reason="results incomplete")
    services.submit_event(event=e, by=people["director"], today=TODAY)
    services.accept_event(event=e, by=officer, today=TODAY)
    services.mark_event_rated(event=e, by=None, today=TODAY)  # the scheduled run
    assert _reload(e).status == EventStatus.RATED
    with pytest.raises(TransitionError):
        services.submit_event(event=e, by=people["director"], today=TODAY)
    actions = list(
        AuditEvent.objects.filter(object_type="tournaments.Event")
        .order_by("id")
        .values_list("action", flat=True)
    )
    assert actions == ["submit", "reject", "submit", "accept", "mark_rated"]
    assert AuditEvent.objects.get(action="reject").message == "results incomplete"


def test_marking_rated_rechecks_the_rules(egf):
    fed, people = egf
    e = w.egf_event(fed, status=EventStatus.ACCEPTED)  # accepted but never attested
    with pytest.raises(TransitionError, match="EGF-RECOGNIZED"):
        services.mark_event_rated(event=e, by=people["officer"], today=TODAY)


def test_attestations_are_checked(egf):
    fed, people = egf
    e = w.egf_event(fed)
    with pytest.raises(TransitionError, match="WFCC-R12 is no attestation of egf events"):
        services.record_attestation(event=e, rule_id="WFCC-R12", by=people["officer"])
    services.record_attestation(event=e, rule_id="EGF-RECOGNIZED", by=people["officer"])
    with pytest.raises(TransitionError, match="already attested"):
        services.record_attestation(event=e, rule_id="EGF-RECOGNIZED", by=people["officer"])
    assert Attestation.objects.filter(event=e).count() == 1


def test_kt_attestation_stores_the_category_the_representative_determined():
    fed = w.federation("wfcc", "wfcc")
    people = w.officials(fed)
    e = w.wfcc_event(fed)  # 12 solvers rated 2000..2110: 2 at >= 2100, so W10 is proposed
    services.record_attestation(event=e, rule_id="WFCC-KT", by=people["officer"])
    e = _reload(e)
    assert (e.rating_class, e.kt) == ("W10", Decimal("1.0"))
    other = w.wfcc_event(fed, code="WFCC-2", rated=0)
    with pytest.raises(TransitionError, match="no category for rules W"):
        services.record_attestation(
            event=other, rule_id="WFCC-KT", by=people["officer"], category="O15"
        )
    services.record_attestation(
        event=other, rule_id="WFCC-KT", by=people["officer"], category="W20"
    )
    assert _reload(other).kt == Decimal("2.0")
    assert "WFCC-KT" in AuditEvent.objects.filter(action="attest").last().message


def test_events_for_rating_takes_accepted_and_rated_and_says_why_others_are_left_out(egf):
    fed, people = egf
    accepted = w.egf_event(fed, "T1", status=EventStatus.ACCEPTED)
    rated = w.egf_event(fed, "T2", status=EventStatus.RATED)
    failing = w.egf_event(fed, "T3", basic=10, bonus=5)
    draft = w.egf_event(fed, "T4", status=EventStatus.DRAFT)
    w.attest(draft, people["officer"], "EGF-RECOGNIZED")
    rejected = w.egf_event(fed, "T5", status=EventStatus.REJECTED)
    other_fed = w.federation("egf2", "egf")
    foreign = w.egf_event(other_fed, "T6", status=EventStatus.ACCEPTED)
    events, excluded = events_for_rating(fed, Event.objects.all(), TODAY)
    assert {e.code for e in events} == {accepted.code, rated.code}
    reasons = {x["event_code"]: x["reason"] for x in excluded}
    assert set(reasons) == {failing.code, draft.code, rejected.code, foreign.code}
    assert reasons["T3"].startswith("status submitted: only accepted events are rated; fails: ")
    assert "EGF-TIME: adjusted time 20 minutes" in reasons["T3"]
    assert reasons["T4"] == "status draft: only accepted events are rated"
    assert reasons["T5"] == "status rejected: only accepted events are rated"
    assert reasons["T6"] == "belongs to federation egf2, not egf"


def test_a_runs_split_keeps_the_windows_order_and_reads_each_event_once(egf):
    """split_events (a rating run's window, already read) gives the rated and the left-out
    events in the window's order, with a fixed number of queries whatever their number."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from ratings.systems.common import split_events

    fed, _people = egf
    statuses = [EventStatus.ACCEPTED, EventStatus.DRAFT, EventStatus.RATED, EventStatus.REJECTED]
    codes = [f"W{i}" for i in range(12)]
    for i, code in enumerate(codes):
        w.egf_event(fed, code, status=statuses[i % 4])
    window = list(Event.objects.filter(federation=fed, code__in=codes).order_by("-code"))

    def split():
        with CaptureQueriesContext(connection) as queries:
            included, excluded = split_events(
                fed, Event.objects.filter(pk__in=[e.pk for e in window]).order_by("-code")
            )
        return included, excluded, len(queries)

    included, excluded, queries = split()
    order = [e.code for e in window]
    assert [e.code for e in included] == [c for c in order if int(c[1:]) % 4 in (0, 2)]
    assert [x["event"] for x in excluded] == [c for c in order if int(c[1:]) % 4 in (1, 3)]
    assert all(x["name"] for x in excluded)
    for i, code in enumerate(f"X{i}" for i in range(8)):
        w.egf_event(fed, code, status=statuses[i % 4])
    window = list(Event.objects.filter(federation=fed).order_by("-code"))
    assert split()[2] == queries  # 20 events: no query per event
