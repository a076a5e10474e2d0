"""Each federation's own event table, as plain functions over already-fetched rows (no queries,
so the event page's query count stays fixed).

- EGD table (EGF): the official placement order (the results file's), grade, GoR before and
  after, and each round as opponent's place, result, colour and handicap: `12+/w2`.
- Square crosstable (ICCF): players × players, 1 / ½ / 0 from the row player's side, team and
  board beside the name in a team event.
- Game lists (PlayChess): each player's games of the period (opponent, colour, result, the
  opponent's rating), since a monthly event has no rounds to speak of.
- Solving sheet (WFCC): points per problem, per round with the time used, total and place.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal

import numpy as np

from ratings.engines.wfcc import places

# Points of (white, black) per stored result; byes score for white only.
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
EGF_SYMBOL = {1.0: "+", 0.5: "=", 0.0: "-"}
# ICCF's notation: 1 ½ 0 for played games, + − = for results by default (not played).
ICCF_PLAYED = {1.0: "1", 0.5: "½", 0.0: "0"}
ICCF_DEFAULT = {1.0: "+", 0.5: "=", 0.0: "−"}


def event_layout(kind: str, system_table: str) -> str:
    """The table of an event's page: a solving event's sheet, else its system's own table
    (``ratings.systems.System.event_table``)."""
    return "solving" if kind == "solving" else system_table


def _sides(game):
    """(me, opponent, my points, my colour) for both players of a game; points None if unknown."""
    white_pts, black_pts = POINTS.get(game.result, (None, None))
    yield game.white_id, game.black_id, white_pts, "w"
    if game.black_id is not None:
        yield game.black_id, game.white_id, black_pts, "b"


def scores(games) -> dict[int, float]:
    total: dict[int, float] = defaultdict(float)
    for g in games:
        for me, _opp, pts, _colour in _sides(g):
            total[me] += pts or 0.0
    return total


# ---------------------------------------------------------------------------------------------
# EGF: the EGD tournament card


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
        for me, opp, _pts, _colour in _sides(g):
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
        for me, opp, pts, colour in _sides(g):
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


# ---------------------------------------------------------------------------------------------
# ICCF: the square crosstable


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
        for me, opp, pts, _colour in _sides(g):
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


# ---------------------------------------------------------------------------------------------
# PlayChess: each player's games


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
        for me, opp, pts, colour in _sides(g):
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


# ---------------------------------------------------------------------------------------------
# WFCC: the solving sheet


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
