"""WFCC's event table, the solving sheet: points per problem, per round with the time used, total
and place. Pure: plain functions over already-fetched rows."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal

import numpy as np

from ratings.engines.wfcc import places
from ratings.systems.base import EventTable


@dataclass(frozen=True)
class SolvingLine:
    place: int
    solver: object
    per_problem: list[Decimal | None]
    per_round: list[Decimal]
    minutes_per_round: list[int | None]
    total: Decimal
    minutes: int | None
    change: object | None = None


def solving_sheet(
    problems, scores, solvers_by_id: dict, changes: dict | None = None
) -> tuple[list, list[int], list[SolvingLine]]:
    """Problems, rounds, and a line per solver, placed by the engine's own rule (total, then less
    time used; ratings.engines.wfcc.places), from the time the run gives it (minutes summed)."""
    changes = changes or {}
    rounds = sorted({p.round for p in problems})
    round_of = {p.id: p.round for p in problems}
    points: dict[int, dict[int, Decimal]] = defaultdict(dict)
    minutes: dict[int, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    timed: dict[int, set[int]] = defaultdict(set)
    for s in scores:
        points[s.solver_id][s.problem_id] = s.points
        used = getattr(s, "time_used_minutes", None)
        if used is not None:
            minutes[s.solver_id][round_of[s.problem_id]] += used
            timed[s.solver_id].add(round_of[s.problem_id])
    rows = []
    for sid, mine in points.items():
        per_round = [
            sum((mine.get(p.id, Decimal(0)) for p in problems if p.round == r), Decimal(0))
            for r in rounds
        ]
        per_time = [minutes[sid][r] if r in timed[sid] else None for r in rounds]
        time_total = sum(minutes[sid].values()) if timed[sid] else None
        rows.append((sum(per_round, Decimal(0)), time_total, sid, per_round, per_time))
    ranked = (
        places(
            np.array([float(t[0]) for t in rows], dtype=float),
            np.array([float(t[1] or 0) for t in rows], dtype=float),
        )
        if rows
        else []
    )
    order = sorted(range(len(rows)), key=lambda i: (ranked[i], solvers_by_id[rows[i][2]].full_name))
    out = []
    for i in order:
        total, time_total, sid, per_round, per_time = rows[i]
        place = int(ranked[i])
        out.append(
            SolvingLine(
                place=place,
                solver=solvers_by_id[sid],
                per_problem=[points[sid].get(p.id) for p in problems],
                per_round=per_round,
                minutes_per_round=per_time,
                total=total,
                minutes=time_total,
                change=changes.get(sid),
            )
        )
    return problems, rounds, out


def _context(page, players_by_id: dict) -> dict:
    problems, rounds, lines = solving_sheet(page.problems, page.scores, players_by_id, page.changes)
    return {"problems": problems, "rounds": rounds, "lines": lines}


EVENT_TABLE = EventTable("solving", "ratings/event_tables/solving.html", _context)
