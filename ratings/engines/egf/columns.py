"""The EGF JSON contract read column by column, and the result written from the arrays.

A history of the usual shape (objects with string ids, number results, whole-number handicaps)
goes from the decoded JSON straight into HistoryArrays, without a dataclass per game or per
player; anything else returns None and is read entry by entry (contract.tournaments_from_json),
which names the first bad entry. Both readings give the same arrays, or the same error
(tests/engines/test_egf_columns.py).
"""

from __future__ import annotations

from operator import itemgetter
from typing import Any

import numpy as np

from ratings.engines.egf.types import HistoryArrays, RatedHistory

_ID, _GRADE = itemgetter("id"), itemgetter("grade")
_WHITE, _BLACK, _RESULT = itemgetter("white"), itemgetter("black"), itemgetter("result")
_RESULTS = frozenset((0, 0.5, 1))


def _plain(values: list, kinds: set) -> bool:
    return set(map(type, values)) <= kinds


def arrays_from_json(items: Any) -> HistoryArrays | None:
    """HistoryArrays of the contract's "tournaments" list, or None when any entry is unusual."""
    if not isinstance(items, list) or not _plain(items, {dict}):
        return None
    entry_ids: list = []
    grades: list = []
    ratings: list = []
    highest: list = []
    whites: list = []
    blacks: list = []
    results: list = []
    stones: list = []
    entry_offsets, game_offsets = [0], [0]
    try:
        for item in items:
            players, games = item["players"], item["games"]
            if type(players) is not list or type(games) is not list:
                return None
            # An entry that is not an object fails in itemgetter or .get below.
            ids = list(map(_ID, players))
            if len(set(ids)) != len(ids):
                return None
            entry_ids += ids
            grades += map(_GRADE, players)
            ratings += (p.get("rating") for p in players)
            highest += (p.get("highest_grade") for p in players)
            entry_offsets.append(len(entry_ids))
            whites += map(_WHITE, games)
            blacks += map(_BLACK, games)
            results += map(_RESULT, games)
            stones += (g.get("handicap", 0) for g in games)
            game_offsets.append(len(whites))
        tournament_ids = list(map(_ID, items))
        classes = [item["class"] for item in items]
    except (KeyError, TypeError, AttributeError):  # a missing key, an entry not an object
        return None
    dates = [item.get("date") for item in items]
    if not (
        _plain(tournament_ids, {str})
        and "" not in tournament_ids
        and _plain(dates, {str, type(None)})
        and _plain(entry_ids, {str})
        and "" not in set(entry_ids)
        and _plain(grades, {str})
        and _plain(ratings, {int, float, type(None)})
        and _plain(highest, {str, type(None)})
        and _plain(whites, {str})
        and _plain(blacks, {str})
        and _plain(results, {int, float})
        and set(results) <= _RESULTS
        and _plain(stones, {int})
    ):
        return None
    number_of = {pid: i for i, pid in enumerate(dict.fromkeys(entry_ids))}
    try:
        game_white = np.fromiter(map(number_of.__getitem__, whites), np.int64, len(whites))
        game_black = np.fromiter(map(number_of.__getitem__, blacks), np.int64, len(blacks))
    except KeyError:  # a game of somebody not entered: named by the entry-by-entry reading
        return None
    handicap = np.asarray(stones, dtype=float)
    if len(handicap) and handicap.min() < 0:
        return None
    return HistoryArrays(
        tournament_ids=tournament_ids,
        tournament_classes=classes,
        player_ids=list(number_of),
        entry_offsets=np.asarray(entry_offsets, dtype=np.int64),
        entry_player=np.fromiter(map(number_of.__getitem__, entry_ids), np.int64, len(entry_ids)),
        entry_grade=grades,
        entry_highest_grade=highest if any(g is not None for g in highest) else None,
        entry_rating=np.asarray([np.nan if r is None else r for r in ratings], dtype=float),
        game_offsets=np.asarray(game_offsets, dtype=np.int64),
        game_white=game_white,
        game_black=game_black,
        game_result=np.asarray(results, dtype=float),
        game_handicap=handicap,
    )


def rated_to_json(rated: RatedHistory) -> dict:
    """The contract's output, written from the arrays (what RatedHistory.changes() holds)."""
    a = rated.arrays
    ids = [a.player_ids[p] for p in a.entry_player.tolist()]
    before, after, games = rated.before.tolist(), rated.after.tolist(), rated.games.tolist()
    offsets = a.entry_offsets.tolist()
    rows = [
        {"id": pid, "before": b, "after": f, "games": g}
        for pid, b, f, g in zip(ids, before, after, games, strict=True)
    ]
    return {
        "tournaments": [
            {"id": tid, "players": rows[offsets[t] : offsets[t + 1]]}
            for t, tid in enumerate(a.tournament_ids)
        ]
    }
