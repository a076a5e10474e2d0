"""ICCF rule 2.1a against the database: each unrated player's declared FIDE rating checked
against the imported FIDE list valid on the ICCF list's date (the rule itself: ratings.systems.iccf.fide_rule).

The run uses ``FideCheck.used``; the run and acceptability screens show the checks that need the
officer's attention, with the official value.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date

from django.db.models import Q

from federation.models import Federation, FideList, FideRating, Player
from ratings.systems.iccf.fide_rule import FideCheck, check, fide_list_date_for

_LISTED_IDS = 1000


def fide_checks(
    federation: Federation, player_ids: Iterable[int], iccf_list_date: date
) -> dict[int, FideCheck]:
    """The checks of those of ``player_ids`` who declared a FIDE rating or FIDE ID."""
    wanted = set(player_ids)
    players = Player.objects.filter(federation=federation)
    if len(wanted) <= _LISTED_IDS:  # an event's players: by id
        players = players.filter(id__in=wanted)
    # else a run's 20,000: the federation's declarations, kept if wanted (20,000 query
    # parameters cost more than reading those who declared one)
    declared = [
        row
        for row in players.filter(Q(fide_rating__isnull=False) | ~Q(fide_id="")).values_list(
            "id", "fide_rating", "fide_id"
        )
        if row[0] in wanted
    ]
    target = fide_list_date_for(iccf_list_date)
    fide_list = FideList.objects.filter(federation=federation, valid_from=target).first()
    official: dict[str, int | None] = {}
    if fide_list is not None:
        official = dict(
            FideRating.objects.filter(
                fide_list=fide_list, fide_id__in=[f for _, _, f in declared if f]
            ).values_list("fide_id", "rating")
        )
    return {
        pid: check(
            player_id=pid,
            declared=rating,
            fide_id=fide_id,
            fide_list=target,
            list_imported=fide_list is not None,
            listed=fide_id in official,
            official=official.get(fide_id),
        )
        for pid, rating, fide_id in declared
    }


def as_report(checks: Iterable[FideCheck]) -> list[dict]:
    """The checks an officer must see (all but the verified), as JSON for a run's report."""
    return [
        {
            "player": c.player_id,
            "declared": c.declared,
            "fide_id": c.fide_id,
            "fide_list": c.fide_list.isoformat(),
            "official": c.official,
            "status": c.status,
            "used": c.used,
        }
        for c in sorted(checks, key=lambda c: c.player_id)
        if c.needs_attention
    ]


def with_players(rows: list[dict]) -> list[dict]:
    """Report rows (as_report) with their Player objects, for the officer's screens."""
    players = Player.objects.in_bulk([row["player"] for row in rows])
    return [{**row, "player_obj": players.get(row["player"])} for row in rows]
