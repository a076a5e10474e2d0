"""Event results as tables: the crosstable of a go/chess event and the score sheet of a solving one.

Plain functions over already-fetched rows (no queries), so the event page's query count stays
fixed. A crosstable line reads like an EGF results table: `5+/w` = beat number 5 with White;
handicap stones follow the colour (`/b3`), `0` is a free round.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal

POINTS = {
    "1-0": (1.0, 0.0),
    "1/2": (0.5, 0.5),
    "0-1": (0.0, 1.0),
    "1-0ff": (1.0, 0.0),
    "0-1ff": (0.0, 1.0),
    "0-0ff": (0.0, 0.0),
    "bye+": (1.0, 0.0),
    "bye=": (0.5, 0.0),
    "bye-": (0.0, 0.0),
}
SYMBOL = {1.0: "+", 0.5: "=", 0.0: "-"}


@dataclass(frozen=True)
class CrossLine:
    number: int
    player: object
    cells: list[str]  # one per round, "" when he did not play that round
    score: float


def crosstable(games, players_by_id: dict) -> tuple[list[int], list[CrossLine]]:
    """Rounds and one line per player, by score (then name); opponents by their line number."""
    rounds = sorted({g.round for g in games})
    score: dict[int, float] = defaultdict(float)
    cells: dict[int, dict[int, tuple[int | None, str]]] = defaultdict(dict)
    for g in games:
        white_pts, black_pts = POINTS.get(g.result, (None, None))
        if g.black_id is None:
            if white_pts is not None:
                score[g.white_id] += white_pts
            cells[g.white_id][g.round] = (None, f"0{SYMBOL.get(white_pts, '?')}")
            continue
        forfeit = g.result.endswith("ff")
        sep = "!" if forfeit else "/"
        for me, opp, pts, colour in (
            (g.white_id, g.black_id, white_pts, "w"),
            (g.black_id, g.white_id, black_pts, "b"),
        ):
            if pts is not None:
                score[me] += pts
            stones = str(g.handicap) if g.handicap else ""
            cells[me][g.round] = (opp, f"{SYMBOL.get(pts, '?')}{sep}{colour}{stones}")
    ids = sorted(cells, key=lambda pid: (-score[pid], players_by_id[pid].full_name))
    number = {pid: i + 1 for i, pid in enumerate(ids)}
    lines = []
    for pid in ids:
        row = []
        for r in rounds:
            opp, text = cells[pid].get(r, (None, ""))
            row.append(text if opp is None else f"{number[opp]}{text}")
        lines.append(CrossLine(number[pid], players_by_id[pid], row, score[pid]))
    return rounds, lines


@dataclass(frozen=True)
class SolvingLine:
    place: int
    solver: object
    per_problem: list[Decimal | None]
    per_round: list[Decimal]
    total: Decimal


def solving_sheet(
    problems, scores, solvers_by_id: dict
) -> tuple[list, list[int], list[SolvingLine]]:
    """Problems (in round/number order), rounds, and a line per solver by total (ties share)."""
    rounds = sorted({p.round for p in problems})
    points: dict[int, dict[int, Decimal]] = defaultdict(dict)
    for s in scores:
        points[s.solver_id][s.problem_id] = s.points
    lines = []
    for sid, mine in points.items():
        per_problem = [mine.get(p.id) for p in problems]
        per_round = [
            sum((mine.get(p.id, Decimal(0)) for p in problems if p.round == r), Decimal(0))
            for r in rounds
        ]
        lines.append((sum(per_round, Decimal(0)), sid, per_problem, per_round))
    lines.sort(key=lambda t: (-t[0], solvers_by_id[t[1]].full_name))
    out, place, previous = [], 0, None
    for i, (total, sid, per_problem, per_round) in enumerate(lines):
        if total != previous:
            place, previous = i + 1, total
        out.append(SolvingLine(place, solvers_by_id[sid], per_problem, per_round, total))
    return problems, rounds, out
