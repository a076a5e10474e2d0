"""EGF GoR with columnar input (``rate_arrays``): what the database side feeds in bulk."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from ratings.engines import egf
from ratings.engines.core.errors import EngineInputError


def example_three_then_rematch() -> egf.HistoryArrays:
    """T1: Ex.3 (2400 beats 2400, eps = 0); T2: the same two meet again, B wins."""
    return egf.HistoryArrays(
        tournament_ids=["T1", "T2"],
        tournament_classes=["A", "A"],
        player_ids=["A", "B"],
        entry_offsets=np.array([0, 2, 4]),
        entry_player=np.array([0, 1, 1, 0]),
        entry_grade=["4d", "4d", "4d", "4d"],
        entry_rating=np.array([2400.0, 2400.0, np.nan, np.nan]),
        game_offsets=np.array([0, 1, 2]),
        game_white=np.array([1, 0]),
        game_black=np.array([0, 1]),
        game_result=np.array([0.0, 0.0]),
        game_handicap=np.array([0, 0]),
    )


def test_columns_in_columns_out():
    rated = egf.rate_arrays(example_three_then_rematch(), egf.Params(epsilon=0.0))
    assert rated.before[:2].tolist() == [2400.0, 2400.0]
    assert rated.after[:2].tolist() == [2407.5, 2392.5]
    # T2 lists B first: B carries 2392.5, A carries 2407.5; B (Black) wins.
    assert rated.before[2:].tolist() == [2392.5, 2407.5]
    assert rated.start.tolist() == ["given", "given", "carried", "carried"]
    assert rated.games.tolist() == [1, 1, 1, 1]
    (t1, t2) = rated.changes()
    assert [p.id for p in t2.players] == ["B", "A"] and t2.players[0].after > 2392.5


@pytest.mark.parametrize(
    ("change", "where"),
    [
        ({"game_offsets": np.array([0, 2, 1])}, "game_offsets"),
        ({"entry_offsets": np.array([0, 2, 5])}, "entry_offsets"),
        ({"game_white": np.array([1, 5])}, "game_white"),
        ({"entry_grade": ["4d"]}, "entry_grade"),
        ({"entry_player": np.array([0, 0, 1, 0])}, "tournaments[0].players[1]"),
        ({"tournament_classes": ["A"]}, "tournament_classes"),
    ],
)
def test_inconsistent_columns_are_rejected(change, where):
    arrays = dataclasses.replace(example_three_then_rematch(), **change)
    with pytest.raises(EngineInputError) as info:
        egf.rate_arrays(arrays)
    assert info.value.where.startswith(where)
