"""The demo shows both verdicts in every federation: a failing event and passing ones."""

from __future__ import annotations

from collections import defaultdict
from datetime import date

import pytest

from federation.demo.seed import seed_demo
from federation.models import AuditEvent
from tournaments.acceptability_report import evaluate_event, reports_for
from tournaments.demo import attest_demo_events
from tournaments.models import Event, EventStatus

pytestmark = pytest.mark.django_db
TODAY = date(2026, 11, 21)
FAILING = {
    "iccf": "ICCF-DEMO-FAST",
    "egf": "T261107Z",
    "playchess": "PC-OUTAGE",
    "wfcc": "WFCC-DEMO-SHORT",
}


def _verdicts():
    reports = reports_for(Event.objects.select_related("federation"), today=TODAY)
    by_system = defaultdict(dict)
    for report in reports.values():
        by_system[report.system][report.event.code] = report
    return by_system


def test_demo_has_a_failing_and_passing_events_in_every_federation():
    # seed_demo imports the WFCC starting list (R2 counts its full ratings) and records the
    # attestations the accepted demo events need.
    seed_demo(players=80, seed=7)
    assert AuditEvent.objects.filter(action="attest").exists()
    by_system = _verdicts()
    for system, code in FAILING.items():
        reports = by_system[system]
        assert reports[code].unresolved_failures, (code, reports[code].summary())
        assert reports[code].event.status == EventStatus.SUBMITTED
        accepted = [r for r in reports.values() if r.event.status == EventStatus.ACCEPTED]
        assert accepted and all(r.acceptable for r in accepted), [
            r.summary() for r in accepted if not r.acceptable
        ][:3]
    assert attest_demo_events() == 0  # idempotent


def test_batch_reports_equal_one_report_per_event():
    seed_demo(players=80, seed=11)
    events = list(Event.objects.select_related("federation"))
    batch = reports_for(events, today=TODAY)
    for event in events:
        single = evaluate_event(event, today=TODAY)
        assert batch[event.pk].results == single.results, event.code
