"""The EGF contract's column-by-column reading against its entry-by-entry reading: the same
output, or the same error, for generated histories, valid or not."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.engines.core.errors import EngineInputError
from ratings.engines.egf import columns, contract
from ratings.engines.egf.rate import history_arrays, rate_arrays

ODD = st.sampled_from([None, True, 7, "", [], {}, -1, 2.5, "x"])
GRADE = st.one_of(st.sampled_from(["20k", "5k", "1k", "1d", "4d", "7d", "2p"]), ODD)


@st.composite
def history(draw) -> dict:
    tournaments = []
    for t in range(draw(st.integers(1, 4))):
        count = draw(st.integers(2, 6))
        ids = [f"p{draw(st.integers(0, 8))}" for _ in range(count)]
        players = []
        for pid in ids:
            player = {"id": pid if draw(st.integers(0, 15)) else draw(ODD), "grade": draw(GRADE)}
            if draw(st.integers(0, 3)) == 0:
                player["rating"] = draw(st.one_of(st.floats(100, 2800), st.integers(100, 2800)))
            if draw(st.integers(0, 6)) == 0:
                player["highest_grade"] = draw(GRADE)
            if draw(st.integers(0, 25)) == 0:
                player.pop(draw(st.sampled_from(["id", "grade"])))
            players.append(player)
        games = []
        for _ in range(draw(st.integers(0, 6))):
            game = {
                "white": draw(st.sampled_from(ids)),
                "black": draw(st.sampled_from(ids + ["stranger"])),
                "result": draw(st.one_of(st.sampled_from([1, 0, 0.5, 1.0, 0.0]), ODD)),
            }
            if draw(st.booleans()):
                game["handicap"] = draw(st.one_of(st.integers(0, 9), ODD))
            if draw(st.integers(0, 25)) == 0:
                game.pop(draw(st.sampled_from(["white", "black", "result"])))
            games.append(game if draw(st.integers(0, 40)) else [game])
        tournament = {
            "id": f"T{t}" if draw(st.integers(0, 20)) else draw(ODD),
            "class": draw(st.one_of(st.sampled_from("ABCD"), ODD)),
            "players": players,
            "games": games,
        }
        if draw(st.booleans()):
            tournament["date"] = draw(st.one_of(st.just("2024-05-01"), ODD))
        tournaments.append(tournament)
    return {"tournaments": tournaments}


def _outcome(read, data):
    try:
        return read(data)
    except EngineInputError as exc:
        return f"error: {exc}"


def _entry_by_entry(data: dict) -> dict:
    params = contract.params_from_json(data.get("params"))
    arrays = history_arrays(contract.tournaments_from_json(data["tournaments"]))
    return columns.rated_to_json(rate_arrays(arrays, params))


def _through_dataclasses(data: dict) -> dict:
    """The output as the engine's dataclasses give it (RatedHistory.changes)."""
    changes = rate_arrays(history_arrays(contract.tournaments_from_json(data["tournaments"])))
    return {
        "tournaments": [
            {
                "id": c.id,
                "players": [
                    {"id": p.id, "before": p.before, "after": p.after, "games": p.games}
                    for p in c.players
                ],
            }
            for c in changes.changes()
        ]
    }


@settings(max_examples=400, deadline=None)
@given(history())
def test_columns_and_entries_agree(data):
    assert _outcome(contract.run_json, data) == _outcome(_entry_by_entry, data)
    assert _outcome(contract.run_json, data) == _outcome(_through_dataclasses, data)


# A history of the usual shape: one tournament, a rating given, a handicap game.
USUAL = {
    "tournaments": [
        {
            "id": "T1",
            "class": "A",
            "players": [{"id": "a", "grade": "3k"}, {"id": "b", "grade": "1d", "rating": 2150}],
            "games": [{"white": "a", "black": "b", "result": 1, "handicap": 2}],
        }
    ]
}


def test_usual_shape_takes_the_column_path():
    data = USUAL
    arrays = columns.arrays_from_json(data["tournaments"])
    assert arrays is not None
    assert arrays.game_handicap.tolist() == [2.0]
    assert contract.run_json(data) == _entry_by_entry(data)


@pytest.mark.parametrize(
    "game",
    [
        {"white": "a", "black": "b", "result": 2},
        {"white": "a", "black": "b", "result": 1, "handicap": 1.0},
        {"white": "a", "black": "b", "result": True},
        {"white": "a", "black": "zz", "result": 1},
    ],
)
def test_unusual_games_are_read_entry_by_entry(game):
    items = [
        {
            "id": "T",
            "class": "A",
            "players": [{"id": "a", "grade": "1k"}, {"id": "b", "grade": "2k"}],
            "games": [game],
        }
    ]
    assert columns.arrays_from_json(items) is None
