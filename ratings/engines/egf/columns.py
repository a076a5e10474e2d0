"""The EGF JSON contract read column by column, and the result written from the arrays.

A history of the usual shape (objects with string ids, number results, whole-number handicaps)
goes from the decoded JSON straight into HistoryArrays, without a dataclass per game or per
player; anything else returns None and is read entry by entry (contract.tournaments_from_json),
which names the first bad entry. Both readings give the same arrays, or the same error
(tests/ratings/engines/egf/test_columns.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import chain, count, repeat
from operator import itemgetter
from typing import Any

import numpy as np

from ratings.engines.core import jsonio
from ratings.engines.egf.types import HistoryArrays, RatedHistory

_ID, _GRADE, _CLASS = itemgetter("id"), itemgetter("grade"), itemgetter("class")
_PLAYERS, _GAMES = itemgetter("players"), itemgetter("games")
_WHITE, _BLACK, _RESULT = itemgetter("white"), itemgetter("black"), itemgetter("result")
_RESULTS = frozenset((0, 0.5, 1))
_NAN = float("nan")


def _plain(values: list, kinds: set) -> bool:
    return set(map(type, values)) <= kinds


@dataclass(frozen=True)
class ContractColumns:
    """The contract's values over every tournament in order, one list per field: what
    arrays_from_json reads of a document's entries and gives history_arrays_of."""

    tournament_ids: list[str]
    classes: list
    entry_counts: list[int]  # players entered in each tournament
    game_counts: list[int]
    entry_ids: list[str]
    grades: list[str]
    ratings: list  # int, float or None (not stated)
    highest: list  # str or None
    whites: list[str]
    blacks: list[str]
    results: list  # int or float
    stones: list[int]


def arrays_from_json(items: Any) -> HistoryArrays | None:
    """HistoryArrays of the contract's "tournaments" list, or None when any entry is unusual.

    Every column is read in one pass over all tournaments' entries (or games) at once."""
    if not isinstance(items, list) or not _plain(items, {dict}):
        return None
    try:
        player_lists, game_lists = list(map(_PLAYERS, items)), list(map(_GAMES, items))
        tournament_ids = list(map(_ID, items))
        classes = list(map(_CLASS, items))
    except KeyError:
        return None
    if not (_plain(player_lists, {list}) and _plain(game_lists, {list})):
        return None
    players = list(chain.from_iterable(player_lists))
    games = list(chain.from_iterable(game_lists))
    if not (_plain(players, {dict}) and _plain(games, {dict})):
        return None
    try:
        entry_ids, grades = list(map(_ID, players)), list(map(_GRADE, players))
        whites, blacks = list(map(_WHITE, games)), list(map(_BLACK, games))
        results = list(map(_RESULT, games))
    except KeyError:
        return None
    ratings = list(map(dict.get, players, repeat("rating")))
    highest = list(map(dict.get, players, repeat("highest_grade")))
    stones = list(map(dict.get, games, repeat("handicap"), repeat(0)))
    dates = list(map(dict.get, items, repeat("date")))
    if not (
        _plain(tournament_ids, {str})
        and _plain(dates, {str, type(None)})
        and _plain(entry_ids, {str})
        and _plain(grades, {str})
        and _plain(ratings, {int, float, type(None)})
        and _plain(highest, {str, type(None)})
        and _plain(whites, {str})
        and _plain(blacks, {str})
        and _plain(results, {int, float})
        and _plain(stones, {int})
    ):
        return None
    return history_arrays_of(
        ContractColumns(
            tournament_ids=tournament_ids,
            classes=classes,
            entry_counts=list(map(len, player_lists)),
            game_counts=list(map(len, game_lists)),
            entry_ids=entry_ids,
            grades=grades,
            ratings=ratings,
            highest=highest,
            whites=whites,
            blacks=blacks,
            results=results,
            stones=stones,
        )
    )


def history_arrays_of(c: ContractColumns) -> HistoryArrays | None:
    """HistoryArrays of a document's values, or None where the entry-by-entry reading must
    decide (an empty id, a result other than 0, 0.5 and 1, a player entered twice in one
    tournament, a game of somebody not entered, a negative handicap)."""
    if "" in c.tournament_ids or not set(c.results) <= _RESULTS:
        return None
    # One look-up per entry: the first entry of its id. Players are numbered in the order of
    # their first entries, so a player's number is the rank of his first entry among them.
    first_of: dict[str, int] = {}
    first = np.array(list(map(first_of.setdefault, c.entry_ids, count())), dtype=np.int64)
    if "" in first_of:
        return None
    entry_player = np.searchsorted(np.array(list(first_of.values()), dtype=np.int64), first)
    entry_offsets, game_offsets = _offsets(c.entry_counts), _offsets(c.game_counts)
    if _entered_twice(entry_player, entry_offsets, len(first_of)):
        return None  # named by the entry-by-entry reading
    try:
        game_white, game_black = _game_numbers(
            c.entry_ids, entry_player, c.whites, c.blacks, entry_offsets, game_offsets
        )
    except KeyError:  # a game of somebody not entered there: named by the entry-by-entry reading
        return None
    handicap = np.asarray(c.stones, dtype=float).reshape(len(c.stones))
    if len(handicap) and handicap.min() < 0:
        return None
    ratings = c.ratings
    if ratings.count(None):
        ratings = [_NAN if r is None else r for r in ratings]
    highest = c.highest
    return HistoryArrays(
        tournament_ids=c.tournament_ids,
        tournament_classes=c.classes,
        player_ids=list(first_of),
        entry_offsets=entry_offsets,
        entry_player=entry_player,
        entry_grade=c.grades,
        entry_highest_grade=highest if highest.count(None) != len(highest) else None,
        entry_rating=np.asarray(ratings, dtype=float).reshape(len(ratings)),
        game_offsets=game_offsets,
        game_white=game_white,
        game_black=game_black,
        game_result=np.asarray(c.results, dtype=float).reshape(len(c.results)),
        game_handicap=handicap,
    )


def _offsets(counts: list[int]) -> np.ndarray:
    offsets = np.zeros(len(counts) + 1, dtype=np.int64)
    np.cumsum(np.array(counts, dtype=np.int64), out=offsets[1:])
    return offsets


def _game_numbers(
    entry_ids: list[str],
    entry_player: np.ndarray,
    whites: list[str],
    blacks: list[str],
    entry_offsets: np.ndarray,
    game_offsets: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """Player number of each game's White and Black, looked up among the players of the game's
    own tournament: a few dozen ids, whose table stays in the cache, where one table of every
    player would be fetched from memory for each of millions of games. KeyError for a game of
    somebody not entered in its tournament."""
    numbers = entry_player.tolist()
    eo, go = entry_offsets.tolist(), game_offsets.tolist()
    white: list[int] = []
    black: list[int] = []
    for t in range(len(eo) - 1):
        number_of = dict(zip(entry_ids[eo[t] : eo[t + 1]], numbers[eo[t] : eo[t + 1]], strict=True))
        white += map(number_of.__getitem__, whites[go[t] : go[t + 1]])
        black += map(number_of.__getitem__, blacks[go[t] : go[t + 1]])
    return np.array(white, dtype=np.int64), np.array(black, dtype=np.int64)


def _entered_twice(entry_player: np.ndarray, offsets: np.ndarray, n_players: int) -> bool:
    """Whether any tournament lists a player twice: (tournament, player) pairs all distinct."""
    if len(entry_player) < 2:
        return False
    tournament = np.repeat(np.arange(len(offsets) - 1, dtype=np.int64), np.diff(offsets))
    pairs = np.sort(tournament * n_players + entry_player)
    return bool((pairs[1:] == pairs[:-1]).any())


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


_ENTRY_ROW = '{"id": %s, "before": %s, "after": %s, "games": %s}'
_TOURNAMENT = '{"id": %s, "players": [%s]}'


def rated_to_text(rated: RatedHistory) -> str:
    """``jsonio.dumps(rated_to_json(rated))``, one format per row without a dict per entry:
    the same separators, str encoder and repr of floats and ints as json.dumps. Anything that
    is not plainly a str id or a finite float is left to dumps itself."""
    a = rated.arrays
    if not (
        np.isfinite(rated.before).all()
        and np.isfinite(rated.after).all()
        and _plain(a.player_ids, {str})
        and _plain(a.tournament_ids, {str})
    ):
        return jsonio.dumps(rated_to_json(rated))
    names = jsonio.string_texts(a.player_ids)  # each player's id encoded once
    after = jsonio.float_texts(rated.after)
    rows = list(
        map(
            _ENTRY_ROW.__mod__,
            zip(
                map(names.__getitem__, a.entry_player.tolist()),
                _before_texts(a.entry_player, rated.before, rated.after, after),
                after,
                rated.games.tolist(),
                strict=True,
            ),
        )
    )
    offsets = a.entry_offsets.tolist()
    tournaments = [
        _TOURNAMENT % (tid, ", ".join(rows[offsets[t] : offsets[t + 1]]))
        for t, tid in enumerate(jsonio.string_texts(a.tournament_ids))
    ]
    return '{"tournaments": [' + ", ".join(tournaments) + "]}"


def _before_texts(
    player: np.ndarray, before: np.ndarray, after: np.ndarray, after_texts: list[str]
) -> list[str]:
    """repr of each ``before``. A rating carried from the player's previous entry is bit for bit
    that entry's ``after``, whose text is already written: reused, not formatted again."""
    n = len(player)
    previous = np.full(n, -1, dtype=np.int64)
    if n > 1:
        order = np.argsort(player, kind="stable")  # by player, then entry order
        same = player[order[1:]] == player[order[:-1]]
        previous[order[1:][same]] = order[:-1][same]
    reused = np.flatnonzero(previous >= 0)
    reused = reused[before.view(np.int64)[reused] == after.view(np.int64)[previous[reused]]]
    fresh = np.ones(n, dtype=bool)
    fresh[reused] = False
    fresh = np.flatnonzero(fresh)
    texts = np.empty(n, dtype=object)
    texts[fresh] = np.array(jsonio.float_texts(before[fresh]), dtype=object)
    texts[reused] = np.array(
        list(map(after_texts.__getitem__, previous[reused].tolist())), dtype=object
    )
    return texts.tolist()
