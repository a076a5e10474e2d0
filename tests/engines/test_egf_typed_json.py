"""The EGF command line's typed reading (egf/typed_json.py) against the dict reading: where it
takes a document, the same output to the byte; where it does not, the dict reading decides.

The documents are generated histories (now and then one of the column tests' odd ones), written
as JSON in several ways: integers for floats, decimals longer than a float holds, long digit
runs, keys out of order, a key given twice, an unknown key, params."""

from __future__ import annotations

import json
import sys
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.engines.__main__ import main
from ratings.engines.egf import contract, typed_json
from tests.engines.test_egf_columns import USUAL, history
from tests.engines.test_iccf_columns import BROKEN, JSON_TEXTS
from tests.engines.typed_reading import by_dicts, json_writer, now_and_then, typed_share


def _by_dicts(raw: bytes) -> str:
    return by_dicts(contract, raw)


GRADES = st.sampled_from(["20k", "5k", "1k", "1d", "4d", "7d", "2p"])


@st.composite
def usual_history(draw) -> dict:
    """A history of the usual shape, now and then an odd one of the column tests (which alone
    would rarely be of the usual shape at all)."""
    if draw(now_and_then(5)):
        return draw(history())
    tournaments = []
    for t in range(draw(st.integers(1, 4))):
        ids = draw(st.lists(st.sampled_from([f"p{i}" for i in range(8)]), min_size=2, max_size=6))
        ids = list(dict.fromkeys(ids)) if draw(st.integers(0, 20)) else ids  # rarely: twice
        players = []
        for pid in ids:
            player = {"id": pid, "grade": draw(GRADES)}
            if draw(now_and_then(3)):
                player["rating"] = draw(
                    st.one_of(st.none(), st.floats(100, 2800), st.integers(100, 2800))
                )
            if draw(now_and_then(6)):
                player["highest_grade"] = draw(st.one_of(st.none(), GRADES))
            players.append(player)
        games = []
        for _ in range(draw(st.integers(0, 6)) if len(ids) > 1 else 0):
            white, black = draw(st.permutations(ids))[:2]
            game = {"white": white, "black": black}
            game["result"] = draw(st.sampled_from([1, 0, 0.5, 1.0, 0.0]))
            if draw(st.booleans()):
                game["handicap"] = draw(st.integers(0, 9))
            games.append(game)
        tournament = {
            "id": f"T{t}",
            "class": draw(st.sampled_from("ABCD")),
            "players": players,
            "games": games,
        }
        if draw(st.booleans()):
            tournament["date"] = draw(st.sampled_from(["2024-05-01", None]))
        tournaments.append(tournament)
    return {"tournaments": tournaments}


@st.composite
def documents(draw) -> bytes:
    """A generated history written as JSON text, numbers and layout varied."""
    data = draw(usual_history())
    text = json_writer(draw, twice_one_in=60, unknown_one_in=100)
    if draw(now_and_then(8)):
        data["params"] = draw(
            st.sampled_from(
                [None, {}, {"epsilon": 0.02}, {"weight_before_cap": False}, {"x": 1}, [1]]
            )
        )
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


def _one(player: str = '{"id": "a", "grade": "1k"}', game: str = "", **tournament) -> str:
    fields = {"id": '"T"', "class": '"A"', **tournament}
    head = ", ".join(f'"{k}": {v}' for k, v in fields.items())
    players = f'[{player}, {{"id": "b", "grade": "2k"}}]'
    return f'{{"tournaments": [{{{head}, "players": {players}, "games": [{game}]}}]}}'


GAME = '{"white": "a", "black": "b", "result": %s}'


@pytest.mark.parametrize(
    "text",
    [
        _one(player='{"id": "a", "grade": "1k", "club": "x"}'),  # a key it does not know
        # ...whose value msgspec would skip unread, where the dict reading refuses it
        _one(player='{"id": "a", "grade": "1k", "note": 1e400}'),
        _one(game='{"white": "a", "black": "b", "result": 1, "handicap": 2.0}'),
        _one(game='{"white": "a", "black": "b", "result": 1, "handicap": null}'),
        _one(game='{"white": "a", "black": "b", "result": 1, "handicap": -1}'),
        _one(game=GAME % "true"),
        _one(game=GAME % "0.25"),
        _one(game=GAME % "1e400"),
        _one(game='{"white": "a", "black": "zz", "result": 1}'),  # not entered
        _one(player='{"id": 1, "grade": "1k"}'),
        _one(player='{"id": "", "grade": "1k"}'),
        _one(player='{"id": "b", "grade": "1k"}'),  # entered twice
        _one(player='{"id": "a", "grade": "1k", "rating": 1' + "0" * 18 + "}"),  # 19 digits
        _one(player='{"id": "\\ud800", "grade": "1k"}'),
        _one(**{"class": "7"}),
        _one(**{"class": '"X"'}),  # a class the engine refuses: the dict reading words it
        _one(id='""'),
        _one(date="5"),
        '{"tournaments": [], "params": {"epsilon": 1}}',
        '{"tournaments": [], "params": ' + "[" * 100_000 + "]" * 100_000 + "}",
        '{"tournaments": [], "x": 1}',
        '{"tournaments": {}}',
        "[]",
        "\ufeff{}",
        '{"tournaments": []} x',
    ],
)
def test_documents_the_typed_reading_leaves_to_the_dicts(text):
    """Each holds something only the dict reading may decide (an unknown key, a null or float
    where a whole number goes, a result the contract does not know, an id of another type, a
    lone surrogate, a long digit run, params the engine refuses, nesting deeper than the
    decoder goes...)."""
    raw = text.encode("utf-8", "surrogatepass")
    assert contract.run_text_of_bytes(raw) is None


def test_a_usual_document_takes_the_typed_reading():
    text = _one(game=GAME % "0.5", date='"2024-05-01"')
    assert contract.run_text_of_bytes(text.encode()) == _by_dicts(text.encode())


def test_the_program_takes_the_typed_reading_for_a_mapped_file(tmp_path, capsys, monkeypatch):
    """A mapped file with params (their text refers to the mapping until it is read) gives
    what stdin gives, and what the dict reading gives."""
    data = {**USUAL, "params": {"epsilon": 0.02}}
    path = tmp_path / "input.json"
    path.write_text(json.dumps(data))
    assert contract.run_text_of_bytes(path.read_bytes()) is not None
    kept: list = []
    by_file = (main(["egf", str(path)], keep=kept), capsys.readouterr())
    assert kept, "the typed reading keeps what it decoded"
    with path.open("rb") as handle:
        monkeypatch.setattr(sys, "stdin", SimpleNamespace(buffer=handle))
        by_stdin = (main(["egf", "-"]), capsys.readouterr())
    assert by_file == by_stdin
    assert by_file[1].out == _by_dicts(path.read_bytes()) + "\n"


def test_a_long_digit_run_is_left_to_the_strict_reader():
    """The switch the dict reading itself uses: a run of 19 digits anywhere, a string's too."""
    text = _one(player='{"id": "a' + "1" * 19 + '", "grade": "1k"}')
    assert typed_json.decode(text.encode()) is None
    assert typed_json.decode(_one().encode()) is not None


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
