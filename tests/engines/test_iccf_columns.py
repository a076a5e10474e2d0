"""The ICCF contract's column-by-column reading against its entry-by-entry reading.

run_json reads entries of the usual shape straight into columns and falls back to the
entry-by-entry reading for anything else; both must give the same output, or the same error,
for every input, valid or not. jsonio.loads likewise: msgspec's reading against the strict one;
and the vectorised half-up rounding of the output against the scalar one.
"""

from __future__ import annotations

import json
import math

import msgspec
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.engines.core import jsonio
from ratings.engines.core.errors import EngineInputError
from ratings.engines.core.rounding import half_up_int, half_up_ints
from ratings.engines.iccf import contract
from tests.json_values import json_values

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


JSON_TEXTS = json_values().map(json.dumps)

BROKEN = st.sampled_from(
    ["", " ", "NaN", "[Infinity]", '{"a": 1e400}', "[" * 3000 + "]" * 3000, '"\\ud800"', "[1,]"]
    + ['{"n": ' + "9" * 40 + "}", '{"n": 18446744073709551616}', "\ufeff[]", "[1] x"]
)


@settings(max_examples=300, deadline=None)
@given(st.one_of(JSON_TEXTS, BROKEN, JSON_TEXTS.map(lambda t: t[: len(t) // 2])))
def test_fast_and_strict_json_reading_agree(text):
    fast = _outcome(jsonio.loads, text.encode("utf-8", "surrogatepass"))
    strict = _outcome(jsonio._strict_loads, text.encode("utf-8", "surrogatepass"))
    assert fast == strict
    assert type(fast) is type(strict)


def _stdlib_outcome(read, text: str):
    """The value as text json.dumps writes it (NaN equal to itself), or the kind of error."""
    try:
        return json.dumps(read(text))
    except (ValueError, RecursionError) as exc:  # json.JSONDecodeError is a ValueError
        return f"error: {type(exc).__name__}"


@settings(max_examples=300, deadline=None)
@given(st.one_of(JSON_TEXTS, BROKEN))
def test_reading_as_the_stdlib_reads_what_json_loads_reads(text):
    """jsonio.loads_as_stdlib: msgspec where it reads the same, json.loads itself elsewhere
    (base_entries reads every list entry's engine state with it)."""
    assert _stdlib_outcome(jsonio.loads_as_stdlib, text) == _stdlib_outcome(json.loads, text)


@pytest.mark.parametrize("text", ['{"n": 18446744073709551616}', '{"n": 1e400}', "[1e308]"])
def test_numbers_msgspec_refuses_are_read_strictly(text):
    assert _outcome(jsonio.loads, text) == _outcome(jsonio._strict_loads, text)


DECIMALS = st.builds(
    lambda sign, digits, point, exponent: (
        sign
        + (digits[:point] or "0")
        + ("." + digits[point:] if digits[point:] else "")
        + (f"e{exponent}" if exponent is not None else "")
    ),
    st.sampled_from(["", "-"]),
    st.text("0123456789", min_size=1, max_size=40).map(lambda d: d.lstrip("0") or "0"),
    st.integers(0, 40),
    st.one_of(st.none(), st.integers(-330, 310)),
)


@settings(max_examples=3000, deadline=None)
@given(DECIMALS)
def test_msgspec_reads_a_number_as_json_loads_does(text):
    """jsonio's fast reader gives the number json.loads gives, of the same type and to the
    bit, or refuses it (out of range): the strict reader then decides."""
    try:
        fast = jsonio._DECODE(text.encode())
    except msgspec.DecodeError:
        return
    expected = json.loads(text)
    assert type(fast) is type(expected) and repr(fast) == repr(expected)


@settings(max_examples=2000, deadline=None)
@given(
    st.one_of(
        st.floats(allow_nan=True, allow_infinity=True),
        st.floats(0, 5000),
        st.integers(-3000, 3000).map(lambda k: k / 2),  # exact halves
        st.floats(0, 1),
        st.sampled_from([0.49999999999999994, 0.5, 2047.5, 2.0**52 - 0.5, 2.0**53, -2.5]),
    )
)
def test_vectorised_half_up_matches_the_scalar_rounding(x):
    if not math.isfinite(x):
        with pytest.raises((ValueError, OverflowError, ArithmeticError)):
            half_up_int(x)
        return
    assert half_up_ints(np.array([x, 1834.5])) == [half_up_int(x), 1835]
