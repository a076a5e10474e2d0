"""The ICCF contract's column-by-column reading against its entry-by-entry reading.

run_json reads entries of the usual shape straight into columns and falls back to the
entry-by-entry reading for anything else; both must give the same output, or the same error,
for every input, valid or not.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.engines.core.errors import EngineInputError
from ratings.engines.iccf import contract

# Mostly good values, sometimes a bad one of each kind the checks know.
ODD = st.sampled_from([None, True, "1", -5.0, 5000.0, [], {}, 0, ""])
RATING = st.one_of(st.floats(1000, 2800), st.integers(1000, 2800), ODD)
RD = st.one_of(st.floats(30, 250), ODD)
RESULT = st.one_of(st.sampled_from([1.0, 0.5, 0.0, 1, 0]), ODD)


@st.composite
def period(draw) -> dict:
    count = draw(st.integers(2, 8))
    ids = [str(i) for i in range(count)]
    if draw(st.booleans()):  # sometimes an unusual id: an integer, a duplicate, an empty one
        ids[draw(st.integers(0, count - 1))] = draw(st.sampled_from([7, "0", "", None]))
    players = []
    for pid in ids:
        kind = draw(st.sampled_from(["rated", "rated", "unrated", "fide", "odd"]))
        if kind == "rated":
            player = {"id": pid, "rating": draw(RATING), "rd": draw(RD)}
        elif kind == "unrated":
            player = {"id": pid, "unrated": True}
        elif kind == "fide":
            player = {"id": pid, "unrated": True, "fide": draw(RATING)}
        else:
            player = draw(
                st.sampled_from(
                    [
                        {"id": pid, "unrated": True, "rating": 1800.0},
                        {"id": pid, "rating": 1800.0},
                        {"id": pid, "rating": None, "rd": 50.0},
                        {"id": pid, "rating": 1800.0, "rd": 50.0, "unrated": 1},
                        {"id": pid, "rating": 1800.0, "rd": 50.0, "colour": "x"},
                        {"id": pid, "rating": 1800.0, "rd": 50.0, "unrated": False, "fide": "x"},
                        [pid],
                    ]
                )
            )
        players.append(player)
    games = []
    for _ in range(draw(st.integers(0, 12))):
        white, black = draw(st.permutations(range(count)))[:2]
        game = {"white": str(white), "black": str(black), "result": draw(RESULT)}
        if draw(st.integers(0, 5)) == 0:
            game["white_start"] = draw(RATING)
        if draw(st.integers(0, 20)) == 0:
            game.pop(draw(st.sampled_from(["white", "black", "result"])))
        if draw(st.integers(0, 20)) == 0:
            game["board"] = 1
        if draw(st.integers(0, 30)) == 0:
            game["black"] = game.get("white", "0")
        games.append(game)
    data = {"players": players, "games": games}
    if games and draw(st.booleans()):
        data["substitutions"] = [
            {
                "game": draw(st.integers(-1, len(games))),
                "side": draw(st.sampled_from(["white", "black", "left"])),
                "replaces": str(draw(st.integers(0, count))),
            }
        ]
    if draw(st.integers(0, 6)) == 0:
        data["params"] = {"c": draw(st.sampled_from([55.0, -1.0, "x"]))}
    return data


def _outcome(read, data):
    try:
        return read(data)
    except EngineInputError as exc:
        return f"error: {exc}"


@settings(max_examples=400, deadline=None)
@given(period())
def test_columns_and_entries_agree(data):
    by_columns = _outcome(contract.run_json, data)
    try:
        params = contract._params_from_json(data.get("params"))
        by_entries = _outcome(lambda d: contract._run_entry_by_entry(d, params), data)
    except EngineInputError as exc:
        by_entries = f"error: {exc}"
    assert by_columns == by_entries


def test_usual_shape_takes_the_column_path(monkeypatch):
    """The fast path is really taken for ordinary input (else the test above proves little)."""

    def refuse(*_args):
        raise AssertionError("read entry by entry")

    monkeypatch.setattr(contract, "_run_entry_by_entry", refuse)
    data = {
        "players": [{"id": "a", "rating": 1900.0, "rd": 80.0}, {"id": "b", "unrated": True}],
        "games": [{"white": "a", "black": "b", "result": 1}],
        "substitutions": [],
    }
    assert [row["games"] for row in contract.run_json(data)["players"]] == [1, 1]
