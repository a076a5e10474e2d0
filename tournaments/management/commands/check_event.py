"""``manage.py check_event CODE [--federation CODE] [--json] [--today YYYY-MM-DD]``

Prints the acceptability report of one event: the same report the admin panel shows. Exit 0 when
the event may be accepted (every failure overridden, every attestation recorded), 1 when not,
2 when no such event exists or the code is ambiguous (one line on stderr).
"""

from __future__ import annotations

import json
import sys
from datetime import date

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from tournaments.acceptability_report import evaluate_event
from tournaments.models import Event

NO_SUCH_EVENT = 2
NOT_ACCEPTABLE = 1


def _day(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise CommandError(
            f"--today must be a date like 2026-11-21, not {text!r}", returncode=NO_SUCH_EVENT
        ) from None


class Command(BaseCommand):
    help = "Check an event against its federation's acceptability rules (RULES.md §6)."
    # A read-only report: its stderr carries only its own one-line error.
    requires_system_checks = []

    def add_arguments(self, parser):
        parser.add_argument("code", help="the event's code, e.g. T261107Z")
        parser.add_argument("--federation", help="the federation's code, when codes repeat")
        parser.add_argument("--json", action="store_true", help="print the report as JSON")
        parser.add_argument("--today", help="judge as of this date (default: today)")

    def handle(self, *args, code, federation, today, **options):
        as_json = options["json"]
        day = _day(today) if today else timezone.localdate()
        events = Event.objects.filter(code=code).select_related("federation")
        if federation:
            events = events.filter(federation__code=federation)
        found = list(events[:10])
        where = f" in federation {federation}" if federation else ""
        if not found:
            raise CommandError(f"no event with code {code!r}{where}", returncode=NO_SUCH_EVENT)
        if len(found) > 1:
            feds = ", ".join(sorted(e.federation.code for e in found))
            raise CommandError(
                f"{len(found)} events have code {code!r} (federations {feds}); "
                f"name one with --federation",
                returncode=NO_SUCH_EVENT,
            )
        report = evaluate_event(found[0], today=day)
        if as_json:
            self.stdout.write(json.dumps(report.to_dict(), indent=2, ensure_ascii=False))
        else:
            self.stdout.write(report.as_text())
        if not report.acceptable:
            sys.exit(NOT_ACCEPTABLE)
