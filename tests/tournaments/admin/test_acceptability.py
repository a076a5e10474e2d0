"""The acceptability panel, views, column, filter and actions in the event admin."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.messages import get_messages
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from federation.models import AuditEvent
from tests.tournaments import acceptability_world as w
from tournaments.models import AcceptanceOverride, Attestation, Event, EventStatus

pytestmark = pytest.mark.django_db


def url(name, *args):
    return reverse(f"admin:tournaments_event_{name}", args=args)


@pytest.fixture
def world(settings):
    fed = w.federation("egf", "egf")
    people = w.officials(fed)
    # class A declared, 40 min + 5 s Fischer: TA 50 min permits only class B
    failing = w.egf_event(fed, "T260516A", rating_class="A")
    passing = w.egf_event(fed, "T260516B", rating_class="B")
    w.attest(passing, people["officer"], "EGF-RECOGNIZED")
    other = w.federation("wfcc", "wfcc")
    return {
        "fed": fed,
        **people,
        "failing": failing,
        "passing": passing,
        "stranger": w.officials(other)["officer"],
    }


def _messages(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def test_official_sees_the_panel_with_every_rule_status_and_message(client, world):
    client.force_login(world["director"])
    response = client.get(url("change", world["failing"].pk))
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="acceptability-panel"' in html
    for rule_id in ("EGF-DATE", "EGF-TIME", "EGF-CLASS", "EGF-RECOGNIZED"):
        assert f'data-rule="{rule_id}"' in html
    assert (
        "declared class A needs basic time at least 45 min and adjusted time at least 75 "
        "min; basic time 40 min, adjusted time 50 min (fischer) permits at most class B"
    ) in html
    assert "verdict: fails" in html
    # a director may attest but neither accept nor override
    assert url("attest", world["failing"].pk, "EGF-RECOGNIZED") in html
    assert url("override", world["failing"].pk) not in html
    assert url("transition", world["failing"].pk, "accept") not in html
    # CSP: no inline script on the page
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html)


def test_official_cannot_accept_a_failing_event(client, world):
    client.force_login(world["officer"])
    event = world["failing"]
    response = client.post(url("transition", event.pk, "accept"), {"reason": ""})
    assert response.status_code == 302
    assert Event.objects.get(pk=event.pk).status == EventStatus.SUBMITTED
    (message,) = _messages(response)
    assert message.startswith("T260516A cannot be accepted: fails: EGF-CLASS: declared class A")
    assert not AuditEvent.objects.filter(action="accept").exists()


def test_override_with_a_reason_is_audited_shown_and_lets_the_event_be_accepted(client, world):
    client.force_login(world["officer"])
    event = world["failing"]
    client.post(url("attest", event.pk, "EGF-RECOGNIZED"), {"note": "EGF member confirmed"})
    page = client.get(url("override", event.pk))
    assert page.status_code == 200 and "EGF-CLASS" in page.content.decode()
    refused = client.post(url("override", event.pk), {"rule_ids": ["EGF-CLASS"], "reason": ""})
    assert refused.status_code == 200 and "This field is required" in refused.content.decode()
    assert not AcceptanceOverride.objects.exists()
    response = client.post(
        url("override", event.pk),
        {"rule_ids": ["EGF-CLASS"], "reason": "Ratings committee adjusted the class"},
    )
    assert response.status_code == 302
    audit = AuditEvent.objects.get(action="override")
    assert audit.actor == world["officer"]
    assert audit.message == "T260516A: EGF-CLASS overridden: Ratings committee adjusted the class"
    # the audit log shows it to the federation's officials
    log = client.get(reverse("admin:federation_auditevent_changelist") + "?q=T260516A")
    assert "override" in log.content.decode()
    panel = client.get(url("change", event.pk)).content.decode()
    assert "EGF-CLASS overridden by egf-officer on" in panel
    assert "Ratings committee adjusted the class" in panel
    assert "EGF-RECOGNIZED attested by egf-officer on" in panel
    assert "verdict: acceptable with override" in panel
    accepted = client.post(url("transition", event.pk, "accept"), {"reason": ""})
    assert accepted.status_code == 302
    assert Event.objects.get(pk=event.pk).status == EventStatus.ACCEPTED


def test_director_cannot_open_the_override_form(client, world):
    client.force_login(world["director"])
    response = client.post(
        url("override", world["failing"].pk), {"rule_ids": ["EGF-CLASS"], "reason": "x"}
    )
    assert response.status_code == 403
    assert not AcceptanceOverride.objects.exists()


def test_another_federations_official_cannot_see_the_event(client, world):
    client.force_login(world["stranger"])
    event = world["failing"]
    assert client.get(url("change", event.pk)).status_code == 404
    for target in (
        url("attest", event.pk, "EGF-RECOGNIZED"),
        url("override", event.pk),
        url("transition", event.pk, "accept"),
    ):
        assert client.get(target).status_code == 404
        assert client.post(target, {"reason": "x", "rule_ids": ["EGF-CLASS"]}).status_code == 404
    listing = client.get(url("changelist")).content.decode()
    assert "T260516A" not in listing
    assert not Attestation.objects.filter(event=event).exists()
    assert Event.objects.get(pk=event.pk).status == EventStatus.SUBMITTED


def test_attestation_form_records_name_and_date(client, world):
    client.force_login(world["director"])
    event = world["failing"]
    form = client.get(url("attest", event.pk, "EGF-RECOGNIZED")).content.decode()
    assert "recognized as an EGF classified event" in form
    response = client.post(url("attest", event.pk, "EGF-RECOGNIZED"), {"note": "seen"})
    assert response.status_code == 302
    attestation = Attestation.objects.get(event=event)
    assert (attestation.rule_id, attestation.by, attestation.note) == (
        "EGF-RECOGNIZED",
        world["director"],
        "seen",
    )
    assert AuditEvent.objects.filter(action="attest", actor=world["director"]).count() == 1


def test_changelist_column_and_filter_show_failing_events(client, world):
    client.force_login(world["officer"])
    listing = client.get(url("changelist")).content.decode()
    assert "fails: EGF-CLASS, EGF-RECOGNIZED" in listing
    assert ">acceptable<" in listing
    fails = client.get(url("changelist") + "?acceptability=fails").content.decode()
    assert "T260516A" in fails and "T260516B" not in fails
    ok = client.get(url("changelist") + "?acceptability=acceptable").content.decode()
    assert "T260516B" in ok and "T260516A" not in ok


def test_changelist_queries_do_not_grow_with_the_events_shown(client, world):
    client.force_login(world["officer"])

    def count():
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(url("changelist")).status_code == 200
        return len(ctx)

    before = count()
    for i in range(5):
        w.egf_event(world["fed"], f"T2606{i:02d}A")
    assert count() == before


def test_changelist_actions_go_through_the_rules(client, world):
    client.force_login(world["officer"])
    ids = [world["failing"].pk, world["passing"].pk]
    response = client.post(
        url("changelist"), {"action": "accept_selected", "_selected_action": ids}
    )
    assert response.status_code == 302
    messages = _messages(response)
    assert "Accept: T260516B." in messages
    assert any(m.startswith("T260516A: T260516A cannot be accepted") for m in messages)
    statuses = dict(Event.objects.filter(pk__in=ids).values_list("code", "status"))
    assert statuses == {"T260516A": "submitted", "T260516B": "accepted"}


def test_reject_action_asks_for_a_reason(client, world):
    client.force_login(world["officer"])
    ids = [world["failing"].pk]
    page = client.post(url("changelist"), {"action": "reject_selected", "_selected_action": ids})
    assert page.status_code == 200 and "Reason (required)" in page.content.decode()
    assert Event.objects.get(pk=ids[0]).status == EventStatus.SUBMITTED
    done = client.post(
        url("changelist"),
        {
            "action": "reject_selected",
            "_selected_action": ids,
            "confirm": "yes",
            "reason": "class misdeclared",
        },
    )
    assert done.status_code == 302
    assert Event.objects.get(pk=ids[0]).status == EventStatus.REJECTED
    assert AuditEvent.objects.get(action="reject").message == "class misdeclared"


def test_status_cannot_be_edited_in_the_change_form(client, world):
    client.force_login(world["officer"])
    event = world["failing"]
    page = client.get(url("change", event.pk)).content.decode()
    assert 'name="status"' not in page


def test_a_missing_date_is_asked_for_in_the_event_form(client):
    fed = w.federation("wfcc", "wfcc")
    people = w.officials(fed)
    soon = timezone.localdate() + timedelta(days=60)  # the panel judges as of today
    event = w.wfcc_event(fed, announced_on=None, start=soon, end=soon)
    client.force_login(people["director"])
    html = client.get(url("change", event.pk)).content.decode()
    row = html[html.index('data-rule="WFCC-R1"') : html.index('data-rule="WFCC-R2"')]
    assert "needs attestation" in row and "record the date in the event&#x27;s fields" in row
