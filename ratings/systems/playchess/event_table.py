"""PlayChess's event table: each player's games of the period (opponent, colour, result, the
opponent's rating), since a monthly event has no rounds to speak of. Pure: plain functions over
already-fetched rows."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from ratings.systems.base import EventTable
from ratings.web.crosstable import ICCF_DEFAULT, ICCF_PLAYED, scores, sides


@dataclass(frozen=True)
class GameRow:
    opponent: object | None  # None: a free round
    colour: str  # "w" / "b"
    result: str  # from the player's side: 1, ½, 0 (+ / − by default)
    opponent_rating: float | None  # the opponent's rating the game was rated with


@dataclass(frozen=True)
class PlayerGames:
    player: object
    games: list[GameRow] = field(default_factory=list)
    score: float = 0.0
    change: object | None = None


def game_lists(games, players_by_id: dict, changes: dict) -> list[PlayerGames]:
    """Every player's games of the event, by score then name: each game appears on both sides."""
    total = scores(games)
    rows: dict[int, list[GameRow]] = defaultdict(list)
    for g in games:
        forfeit = g.result.endswith("ff")
        for me, opp, pts, colour in sides(g):
            notation = ICCF_DEFAULT if forfeit or opp is None else ICCF_PLAYED
            before = changes.get(opp).before if opp in changes else None
            rows[me].append(
                GameRow(
                    opponent=players_by_id.get(opp) if opp is not None else None,
                    colour=colour,
                    result=notation.get(pts, "*"),
                    opponent_rating=before,
                )
            )
    order = sorted(rows, key=lambda pid: (-total[pid], players_by_id[pid].full_name))
    return [
        PlayerGames(players_by_id[pid], rows[pid], total[pid], changes.get(pid)) for pid in order
    ]


def _context(page, players_by_id: dict) -> dict:
    return {"lines": game_lists(page.games, players_by_id, page.changes)}


EVENT_TABLE = EventTable("games", "ratings/event_tables/games.html", _context)
