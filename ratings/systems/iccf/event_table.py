"""ICCF's event table, the square crosstable: players × players, 1 / ½ / 0 from the row player's
side, team and board beside the name in a team event. Pure: plain functions over already-fetched
rows."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from ratings.systems.base import EventTable
from ratings.web.crosstable import ICCF_DEFAULT, ICCF_PLAYED, scores, sides


@dataclass(frozen=True)
class SquareLine:
    number: int
    player: object
    team: str  # "" outside team events
    board: int | None
    cells: list[str]  # one per opponent line; "" no game, "■" himself
    score: float
    games: int
    change: object | None


def square_crosstable(
    games, players_by_id: dict, boards: dict[int, tuple[str, int]], changes: dict
) -> list[SquareLine]:
    """Players × players by score (then name); in a team event by team and board.

    A cell holds every result of the row player against the column player, from his side.
    """
    total = scores(games)
    played: dict[int, int] = defaultdict(int)
    results: dict[int, dict[int, list[str]]] = defaultdict(lambda: defaultdict(list))
    for g in games:
        forfeit = g.result.endswith("ff")
        for me, opp, pts, _colour in sides(g):
            if opp is None:
                continue
            played[me] += 1
            notation = ICCF_DEFAULT if forfeit else ICCF_PLAYED
            results[me][opp].append(notation.get(pts, "*"))
    ids = set(total) | set(boards)
    if boards:
        order = sorted(
            ids,
            key=lambda pid: (*boards.get(pid, ("~", 99)), players_by_id[pid].full_name),
        )
    else:
        order = sorted(ids, key=lambda pid: (-total[pid], players_by_id[pid].full_name))
    lines = []
    for number, pid in enumerate(order, start=1):
        cells = ["■" if opp == pid else "".join(results[pid].get(opp, [])) for opp in order]
        team, board = boards.get(pid, ("", None))
        lines.append(
            SquareLine(
                number=number,
                player=players_by_id[pid],
                team=team,
                board=board,
                cells=cells,
                score=total[pid],
                games=played[pid],
                change=changes.get(pid),
            )
        )
    return lines


def _context(page, players_by_id: dict) -> dict:
    return {"lines": square_crosstable(page.games, players_by_id, page.boards, page.changes)}


EVENT_TABLE = EventTable("square", "ratings/event_tables/square.html", _context)
