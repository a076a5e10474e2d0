"""The periods a rating officer may run now: what the run-request form offers and the dashboard
lists. Open = inside the federation's calendar (services.calendar_bounds) and either due and not
yet published, marked for a re-run, or holding accepted events not yet rated."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import date

from django.db.models import Count

from federation.models import Federation
from ratings import calendars
from ratings.models import ListStatus, RatingList, RatingPeriod
from ratings.services.runs import calendar_bounds, calendar_of
from tournaments.models import Event, EventStatus


@dataclass(frozen=True)
class OpenPeriod:
    federation_id: int
    code: str
    valid_from: date
    ends_on: date
    published: bool  # a list of it is published already (a run is a correction)
    draft_id: int | None  # a draft awaiting publication
    events: int  # accepted events not yet rated whose games end in its window
    results: int  # their games (or solving scores)
    rerun_reason: str  # why it is marked for a re-run, or ""

    @property
    def label(self) -> str:
        parts = [f"{self.events} event{'s' * (self.events != 1)}", f"{self.results} results"]
        if self.rerun_reason:
            parts.append(f"re-run: {self.rerun_reason}")
        elif self.published:
            parts.append("published (a run is a correction)")
        if self.draft_id:
            parts.append(f"draft {self.draft_id} awaits publication")
        return f"{self.code} (list valid from {self.valid_from}): " + ", ".join(parts)


def _unrated_by_period(federation: Federation, params) -> tuple[Counter, Counter]:
    events = Event.objects.filter(federation=federation, status=EventStatus.ACCEPTED).annotate(
        game_count=Count("games", distinct=True),
        score_count=Count("problems__scores", distinct=True),
    )
    event_counts, result_counts = Counter(), Counter()
    for event in events:
        code = calendars.period_for(federation.system, event.end, params=params).code
        event_counts[code] += 1
        result_counts[code] += event.game_count + event.score_count
    return event_counts, result_counts


def open_periods(federation: Federation, today: date | None = None) -> list[OpenPeriod]:
    params = calendar_of(federation)
    first, last = calendar_bounds(federation, today)
    stored = {p.code: p for p in RatingPeriod.objects.filter(federation=federation)}
    published = set(
        RatingList.objects.filter(federation=federation, status=ListStatus.PUBLISHED).values_list(
            "period__code", flat=True
        )
    )
    drafts = dict(
        RatingList.objects.filter(federation=federation, status=ListStatus.DRAFT).values_list(
            "period__code", "pk"
        )
    )
    event_counts, result_counts = _unrated_by_period(federation, params)
    newest = max((stored[c].valid_from for c in published), default=None)
    found = []
    for spec in _calendar_backwards(federation.system, first, last, params):
        period = stored.get(spec.code)
        reason = period.needs_rerun_reason if period and period.needs_rerun else ""
        due = newest is None or spec.valid_from > newest
        if due or reason or event_counts[spec.code] or spec.code in drafts:
            found.append(
                OpenPeriod(
                    federation.pk,
                    spec.code,
                    spec.valid_from,
                    spec.ends_on,
                    spec.code in published,
                    drafts.get(spec.code),
                    event_counts[spec.code],
                    result_counts[spec.code],
                    reason,
                )
            )
    return found


def _calendar_backwards(system: str, first, last, params):
    """From the last open period back to the first list's period (only the last, for a
    federation without a list: it starts there)."""
    spec = calendars.period_by_code(system, last.code, params=params)
    yield spec
    if first is None:
        return
    while True:
        spec = calendars.previous_period(spec, params=params)
        if spec.valid_from < first.valid_from:
            return
        yield spec
