"""PlayChess's acceptability facts (tournaments.acceptability.playchess) from an event's games."""

from __future__ import annotations

from collections import defaultdict

from tournaments.acceptability import playchess as rules
from tournaments.models import Event, Game, Result

# Results that are no game to rate (the players did not play it): left out of the PlayChess facts.
NOT_PLAYED = {
    Result.WHITE_WINS_BY_DEFAULT,
    Result.BLACK_WINS_BY_DEFAULT,
    Result.DOUBLE_FORFEIT,
    Result.BOTH_WIN,
    Result.BOTH_LOSE,
}
PLAYCHESS_RESULT = {Result.WHITE_WINS: "1-0", Result.BLACK_WINS: "0-1", Result.DRAW: "1/2-1/2"}


def rows(events: list[Event]) -> dict[int, list[rules.PlaychessGameFacts]]:
    ids = [e.pk for e in events]
    out: dict[int, list[rules.PlaychessGameFacts]] = defaultdict(list)
    rows = (
        Game.objects.filter(event_id__in=ids, black__isnull=False)
        .exclude(result__in=NOT_PLAYED)
        .order_by("event_id", "round", "id")
        .values_list("event_id", "id", "white_id", "black_id", "result")
    )
    for event_id, game_id, white, black, result in rows:
        # Every Player row is a registered, rated account (guests never enter the database).
        out[event_id].append(
            rules.PlaychessGameFacts(game_id, white, black, PLAYCHESS_RESULT.get(result, result))
        )
    return out


def facts(event: Event, games, attestations) -> rules.PlaychessEventFacts:
    return rules.PlaychessEventFacts(tuple(games or ()))
