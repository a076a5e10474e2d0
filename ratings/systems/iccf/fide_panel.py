"""Rule 2.1a checks of an ICCF event's unrated players, for the acceptability panel (provided to
tournaments through tournaments.ports)."""

from __future__ import annotations

from datetime import date

from ratings import systems
from ratings.services.runs import calendar_of
from ratings.systems.common import published_list_valid_on
from ratings.systems.iccf.fide_checks import as_report, fide_checks, with_players
from tournaments.models import Game


def event_fide_checks(event, today: date) -> list[dict]:
    """The rule 2.1a checks an ICCF event's unrated players need, against the FIDE list for the
    ICCF list their results go into next (acceptability screen)."""
    system = systems.of(event.federation)
    if not system.verifies_fide_ratings:
        return []
    period = system.calendar.period_for(today, params=calendar_of(event.federation))
    iccf_list_date = period.valid_from
    ids = set()
    for white, black in Game.objects.filter(event=event).values_list("white_id", "black_id"):
        ids.update(pid for pid in (white, black) if pid is not None)
    current = published_list_valid_on(event.federation, iccf_list_date)
    if current is not None:
        ids -= set(current.entries.filter(player_id__in=ids).values_list("player_id", flat=True))
    checks = fide_checks(event.federation, ids, iccf_list_date)
    return with_players(as_report(checks.values()))
