"""Demo data, acceptability part: the attestations the accepted demo events need.

The demo seeder (``federation.demo.seed``) creates events and results only; an official's
attestations (EGF recognition, WFCC R3 quality, R12 sheets, KT) are recorded here, through the
service and under the federation's rating officer, so the panel shows accepted events as
passing and the audit log says who attested. Call after ``seed_demo``.
"""

from __future__ import annotations

from federation.models import Official, OfficialRole
from tournaments import services
from tournaments.acceptability import ATTESTATIONS
from tournaments.models import Attestation, Event, EventStatus

DEMO_NOTE = "demo data: confirmed by the demo rating officer"


def attest_demo_events() -> int:
    """Record every missing attestation of the accepted and rated events; returns how many."""
    officers = {
        o.federation_id: o.user
        for o in Official.objects.filter(role=OfficialRole.RATING_OFFICER)
        .select_related("user")
        .order_by("-id")
    }
    done = {(a.event_id, a.rule_id) for a in Attestation.objects.only("event_id", "rule_id")}
    events = Event.objects.filter(
        status__in=(EventStatus.ACCEPTED, EventStatus.RATED)
    ).select_related("federation")
    count = 0
    for event in events.order_by("federation__code", "start", "code"):
        officer = officers.get(event.federation_id)
        if officer is None:
            continue
        for key in ATTESTATIONS.get(event.federation.system, {}):
            if (event.pk, key) not in done:
                services.record_attestation(event=event, rule_id=key, by=officer, note=DEMO_NOTE)
                count += 1
    return count
