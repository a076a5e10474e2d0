"""What the systems' event tables (``ratings/systems/<code>/event_table.py``) share: the points of
a stored result, each game from both players' sides, and the chess notation of ICCF and PlayChess.
Pure: plain functions over already-fetched rows (no queries, so the event page's query count
stays fixed)."""

from __future__ import annotations

from collections import defaultdict

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
# The chess notation (ICCF, PlayChess): 1 ½ 0 for played games, + − = for results by default
# (not played).
ICCF_PLAYED = {1.0: "1", 0.5: "½", 0.0: "0"}
ICCF_DEFAULT = {1.0: "+", 0.5: "=", 0.0: "−"}


def sides(game):
    """(me, opponent, my points, my colour) for both players of a game; points None if unknown."""
    white_pts, black_pts = POINTS.get(game.result, (None, None))
    yield game.white_id, game.black_id, white_pts, "w"
    if game.black_id is not None:
        yield game.black_id, game.white_id, black_pts, "b"


def scores(games) -> dict[int, float]:
    total: dict[int, float] = defaultdict(float)
    for g in games:
        for me, _opp, pts, _colour in sides(g):
            total[me] += pts or 0.0
    return total
