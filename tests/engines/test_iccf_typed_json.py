"""The ICCF command line's typed reading (iccf/typed_json.py) against the dict reading: where
it takes a document, the same output to the byte; where it does not, the dict reading decides.

The documents are the column tests' generated periods (odd values of every kind the checks
know), written as JSON in several ways: integers for floats, decimals longer than a float
holds, integers beyond 64 bits, spaces, keys out of order, a key given twice, params."""

from __future__ import annotations

import json
import sys
from types import SimpleNamespace

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.engines.__main__ import main
from ratings.engines.iccf import contract, typed_json
from tests.engines.test_iccf_columns import BROKEN, JSON_TEXTS, period
from tests.engines.typed_reading import by_dicts, json_writer, now_and_then, typed_share


def _by_dicts(raw: bytes) -> str:
    return by_dicts(contract, raw)


@st.composite
def usual_period(draw) -> dict:
    """A period of the usual shape, now and then with one entry of another (from the column
    tests' odd periods, which alone would rarely be of the usual shape at all)."""
    if draw(now_and_then(4)):
        return draw(period())
    count = draw(st.integers(2, 8))
    players = []
    for i in range(count):
        kind = draw(st.sampled_from(["rated", "rated", "rated", "unrated", "fide"]))
        if kind == "rated":
            rating = draw(st.one_of(st.floats(1000, 2800), st.integers(1000, 2800)))
            players.append({"id": str(i), "rating": rating, "rd": draw(st.floats(30, 250))})
        else:
            player = {"id": str(i), "unrated": True}
            if kind == "fide":
                player["fide"] = draw(st.one_of(st.none(), st.floats(1000, 2800)))
            players.append(player)
    games = []
    for _ in range(draw(st.integers(0, 12))):
        white, black = draw(st.permutations(range(count)))[:2]
        game = {"white": str(white), "black": str(black)}
        game["result"] = draw(st.sampled_from([1.0, 0.5, 0.0, 1, 0]))
        for side in ("white_start", "black_start"):
            if draw(now_and_then(4)):
                game[side] = draw(st.one_of(st.none(), st.floats(1000, 2800)))
        games.append(game)
    data = {"players": players, "games": games}
    if games and draw(st.booleans()):
        data["substitutions"] = [
            {
                "game": draw(st.integers(0, len(games) - 1)),
                "side": draw(st.sampled_from(["white", "black"])),
                "replaces": str(draw(st.integers(0, count - 1))),
            }
        ]
    return data


@st.composite
def documents(draw) -> bytes:
    """A generated period written as JSON text, numbers and layout varied."""
    data = draw(usual_period())
    text = json_writer(draw, twice_one_in=30)
    if draw(now_and_then(8)):
        data["params"] = draw(
            st.sampled_from([None, {}, {"c": 30}, {"rd_cap": None}, {"c": "9" * 40}, [1]])
        )
    if draw(now_and_then(10)):
        data["substitutions"] = None
    return text(data).encode()


@settings(max_examples=600, deadline=None)
@given(documents())
def test_typed_reading_gives_the_dict_readings_text_or_leaves_it(raw):
    typed = contract.run_text_of_bytes(raw)
    if typed is not None:
        assert typed == _by_dicts(raw)


def test_the_generated_documents_take_the_typed_reading_often():
    """Else the test above would compare little."""
    assert 0.3 < typed_share(contract, documents()) < 0.95


@pytest.mark.parametrize(
    "text",
    [
        '{"players": [{"id": "a", "rating": null, "rd": 50}], "games": []}',
        '{"players": [{"id": "a", "unrated": true, "rd": 50}], "games": []}',
        '{"players": [{"id": "a", "rating": 1800}], "games": []}',
        '{"players": [{"id": 1, "rating": 1800, "rd": 50}], "games": []}',
        '{"players": [{"id": "a", "rating": 1800, "rd": 50, "x": 1}], "games": []}',
        '{"players": [{"id": "a", "rating": true, "rd": 50}], "games": []}',
        '{"players": [], "games": [], "x": 1}',
        '{"players": []}',
        '{"players": [{"id": "a", "rating": 1e400, "rd": 50}], "games": []}',
        '{"players": [{"id": "\\ud800", "rating": 1800, "rd": 50}], "games": []}',
        '{"players": [{"id": "a", "rating": 18' + "0" * 30 + ', "rd": 50}], "games": []}',
        '{"players": [], "games": [], "params": {"c": 1' + "0" * 40 + "}}",
        '{"players": [], "games": [], "substitutions": [{"game": 1.0, "side": "white"}]}',
        '{"players": [], "games": [], "params": ' + "[" * 100_000 + "]" * 100_000 + "}",
        "[]",
        "\ufeff{}",
        '{"players": [], "games": []} x',
    ],
)
def test_documents_the_typed_reading_leaves_to_the_dicts(text):
    """Each holds something only the dict reading may decide (a null, a missing RD, an id of
    another type, an unknown key, a lone surrogate, a number of more than 30 digits, nesting
    deeper than the decoder goes...)."""
    raw = text.encode("utf-8", "surrogatepass")
    assert contract.run_text_of_bytes(raw) is None


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
def test_msgspec_reads_a_number_as_the_dict_reading_does(text):
    """float(json.loads(text)) is the value the dict reading ends with (NumPy reads its ints
    and floats as float64); msgspec must give the same float, or refuse the number."""
    try:
        typed = msgspec.json.decode(text.encode(), type=float)
    except msgspec.DecodeError:
        return
    expected = float(json.loads(text))
    assert typed == expected and repr(typed) == repr(expected)


def test_the_program_takes_the_typed_reading_for_a_mapped_file(tmp_path, capsys, monkeypatch):
    """A mapped file with params (their text refers to the mapping until it is read) gives
    what stdin gives, and what the dict reading gives."""
    data = {
        "players": [{"id": "a", "rating": 1900, "rd": 50}, {"id": "b", "unrated": True}],
        "games": [{"white": "a", "black": "b", "result": 1, "white_start": 1850}],
        "params": {"c": 30},
        "substitutions": [],
    }
    path = tmp_path / "input.json"
    path.write_text(json.dumps(data))
    assert contract.run_text_of_bytes(path.read_bytes()) is not None
    kept: list = []
    by_file = (main(["iccf", str(path)], keep=kept), capsys.readouterr())
    assert kept, "the typed reading keeps what it decoded"
    with path.open("rb") as handle:
        monkeypatch.setattr(sys, "stdin", SimpleNamespace(buffer=handle))
        by_stdin = (main(["iccf", "-"]), capsys.readouterr())
    assert by_file == by_stdin
    assert by_file[1].out == _by_dicts(path.read_bytes()) + "\n"


def test_columns_need_a_rated_players_rating_and_rd():
    document = typed_json.decode(b'{"players": [{"id": "a", "rd": 50}], "games": []}')
    assert document is not None and typed_json.columns(document) is None


def test_the_program_words_deep_nesting_as_before(tmp_path, capsys):
    """Params nested deeper than msgspec goes: the dict reading's error, not a traceback."""
    path = tmp_path / "input.json"
    path.write_text('{"players": [], "games": [], "params": ' + "[" * 100_000 + "]" * 100_000 + "}")
    assert main(["iccf", str(path)]) == 2
    assert capsys.readouterr().err == "input: nested too deeply\n"


@settings(max_examples=400, deadline=None)
@given(
    st.one_of(
        JSON_TEXTS, BROKEN, documents().map(bytes.decode), st.binary().map(repr), st.text()
    ).map(lambda t: t[: len(t) // 2] if len(t) % 3 == 0 else t)
)
def test_the_typed_reading_answers_or_declines_never_raises(text):
    """Whatever the bytes (broken, cut short, of another shape), a text or None: the dict
    reading then words what is wrong."""
    result = contract.run_text_of_bytes(text.encode("utf-8", "surrogatepass"))
    assert result is None or isinstance(result, str)
