"""ICCF's acceptability facts (tournaments.acceptability.iccf) from an event and its games."""

from __future__ import annotations

from collections import defaultdict

from tournaments.acceptability import iccf as rules
from tournaments.models import Event, Game, Transmission
from tournaments.selectors.common import missing

_TRANSMISSION = {
    Transmission.POSTAL_WEBSERVER: ("postal", True),
    Transmission.POSTAL_OFF: ("postal", False),
    Transmission.ELECTRONIC: ("electronic", None),
}


def rows(events: list[Event]) -> dict[int, list[rules.IccfGameFacts]]:
    ids = [e.pk for e in events]
    out: dict[int, list[rules.IccfGameFacts]] = defaultdict(list)
    rows = (
        Game.objects.filter(event_id__in=ids)
        .order_by("event_id", "round", "id")
        .values_list("event_id", "id", "finished_on", "reported_on")
    )
    for event_id, game_id, finished, reported in rows:
        # No separate finish date: the report date stands for it (as in ratings.calendars).
        if reported is not None and finished is None:
            finished = reported
        out[event_id].append(rules.IccfGameFacts(game_id, finished, reported))
    return out


def facts(event: Event, games, attestations) -> rules.IccfEventFacts:
    if event.transmission not in _TRANSMISSION:
        raise missing("transmission", "the transmission (postal or electronic)")
    if not event.reflection_days or not event.reflection_moves:
        raise missing("reflection_days", "the reflection time (days per number of moves)")
    transmission, on_webserver = _TRANSMISSION[event.transmission]
    control = rules.IccfTimeControl(
        block_moves=event.reflection_moves, days_per_block=event.reflection_days
    )
    return rules.IccfEventFacts(transmission, control, on_webserver, tuple(games or ()))
