"""EGF's event table, the EGD tournament card: the official placement order (the results file's),
grade, GoR before and after, and each round as opponent's place, result, colour and handicap:
`12+/w2`. Pure: plain functions over already-fetched rows."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from ratings.systems.base import EventTable
from ratings.web.crosstable import scores, sides

EGF_SYMBOL = {1.0: "+", 0.5: "=", 0.0: "-"}


@dataclass(frozen=True)
class EgdLine:
    place: int
    player: object
    grade: str
    cells: list[str]  # one per round: "12+/w2", "0+" (free round), "" (not paired)
    score: float
    change: object | None  # the player's EventChange at this event (before, after, change)


def egd_table(
    games, players_by_id: dict, placements: dict[int, tuple[int, str]], changes: dict
) -> tuple[list[int], list[EgdLine], bool]:
    """Rounds, lines in the official order, and whether that order is the results file's.

    `placements` (player id -> (place, grade declared)) come from the imported file; without
    them (an event entered by hand) the order is computed: score, then the sum of the
    opponents' scores, then GoR before, then name.
    """
    rounds = sorted({g.round for g in games})
    total = scores(games)
    opponents: dict[int, list[int]] = defaultdict(list)
    for g in games:
        for me, opp, _pts, _colour in sides(g):
            if opp is not None:
                opponents[me].append(opp)
    ids = set(total) | set(placements)
    from_file = bool(placements) and ids <= set(placements)
    if from_file:
        order = sorted(ids, key=lambda pid: placements[pid][0])
    else:

        def before(pid):
            change = changes.get(pid)
            return change.before if change is not None and change.before is not None else 0.0

        order = sorted(
            ids,
            key=lambda pid: (
                -total[pid],
                -sum(total[o] for o in opponents[pid]),
                -before(pid),
                players_by_id[pid].full_name,
            ),
        )
    place = {pid: placements[pid][0] if from_file else i + 1 for i, pid in enumerate(order)}
    cells: dict[int, dict[int, str]] = defaultdict(dict)
    for g in games:
        forfeit = g.result.endswith("ff")
        for me, opp, pts, colour in sides(g):
            symbol = EGF_SYMBOL.get(pts, "?")
            if opp is None:
                cells[me][g.round] = f"0{symbol}"
            else:
                sep = "!" if forfeit else "/"
                cells[me][g.round] = f"{place[opp]}{symbol}{sep}{colour}{g.handicap or 0}"
    lines = [
        EgdLine(
            place=place[pid],
            player=players_by_id[pid],
            grade=(placements.get(pid) or (None, ""))[1] or players_by_id[pid].grade,
            cells=[cells[pid].get(r, "") for r in rounds],
            score=total[pid],
            change=changes.get(pid),
        )
        for pid in order
    ]
    return rounds, lines, from_file


def _context(page, players_by_id: dict) -> dict:
    rounds, lines, from_file = egd_table(page.games, players_by_id, page.placements, page.changes)
    return {"rounds": rounds, "lines": lines, "order_from_file": from_file}


EVENT_TABLE = EventTable("egd", "ratings/event_tables/egd.html", _context)
