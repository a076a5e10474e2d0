"""The command lines' output written column by column (``run_text``) against the canonical
text of the contract's dicts (``jsonio.dumps(run_json(data))``): the same bytes, or the same
error, for generated inputs and for odd values (floats of every kind, ids of any text)."""

from __future__ import annotations

import json
import sys
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.engines.__main__ import main
from ratings.engines.core import jsonio
from ratings.engines.core.errors import EngineInputError
from ratings.engines.egf import columns as egf_columns
from ratings.engines.egf import contract as egf_contract
from ratings.engines.egf.types import HistoryArrays, RatedHistory
from ratings.engines.iccf import contract as iccf_contract
from ratings.engines.iccf import rate as iccf_rate
from ratings.engines.iccf.types import PeriodOutcome
from tests.ratings.engines.egf.test_columns import USUAL, history
from tests.ratings.engines.iccf.test_columns import period


def _text_or_error(write, *args):
    try:
        return write(*args)
    except Exception as exc:  # noqa: BLE001  the same error, whatever it is
        return f"{type(exc).__name__}: {exc}"


ODD_FLOATS = st.one_of(
    st.floats(),  # NaN, infinities, -0.0, subnormals, 1e+16 and 1e-05 style reprs
    st.sampled_from([0.0, -0.0, 5e-324, 1e16, 1e-5, 0.1, 1e22, 123456789.5, 2.0**53, 1e308]),
    st.floats(1000, 3000),
)
IDS = st.text(min_size=1, max_size=6)  # quotes, backslashes, control characters, non-ASCII


@settings(max_examples=300, deadline=None)
@given(period())
def test_iccf_text_is_the_canonical_text_of_the_dicts(data):
    expected = _text_or_error(lambda d: jsonio.dumps(iccf_contract.run_json(d)), data)
    assert _text_or_error(iccf_contract.run_text, data) == expected


@st.composite
def outcomes(draw):
    n = draw(st.integers(0, 6))
    ids = tuple(draw(st.lists(IDS, min_size=n, max_size=n, unique=True)))
    floats = st.lists(ODD_FLOATS, min_size=n, max_size=n)
    rated = np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)), dtype=bool)
    rating, rd = np.array(draw(floats), dtype=float), np.array(draw(floats), dtype=float)
    rating[~rated] = np.nan
    rd[~rated] = np.nan
    games = np.array(draw(st.lists(st.integers(0, 2**62), min_size=n, max_size=n)), np.int64)
    empty = np.zeros(0, dtype=np.intp)
    return ids, PeriodOutcome(rating, rd, games, rated, rating, rd, empty, empty)


@settings(max_examples=500, deadline=None)
@given(outcomes())
def test_iccf_rows_print_every_float_and_id_as_json_dumps(case):
    ids, out = case
    expected = _text_or_error(lambda: jsonio.dumps(iccf_contract._outcome_to_json(ids, out)))
    assert _text_or_error(lambda: iccf_contract._outcome_text(ids, out)) == expected


def _period_with_substitutions(draw_subs):
    players = [{"id": str(i), "rating": 1800.0 + i, "rd": 60.0} for i in range(6)]
    games = [
        {"white": "0", "black": "1", "result": 1},
        {"white": "2", "black": "3", "result": 0.5},
        {"white": "4", "black": "5", "result": 0},
        {"white": "1", "black": "2", "result": 1},
    ]
    return {"players": players, "games": games, "substitutions": draw_subs}


SUBSTITUTION = st.fixed_dictionaries(
    {
        "game": st.one_of(
            st.integers(-1, 4), st.sampled_from([1.0, True, "1", 2**64, -(2**63) - 1])
        ),
        "side": st.sampled_from(["white", "black", "white", "black", "left", 0]),
        "replaces": st.one_of(st.sampled_from([str(i) for i in range(7)]), st.just(3)),
    }
)


@settings(max_examples=500, deadline=None)
@given(st.lists(SUBSTITUTION, max_size=4))
def test_bulk_substitutions_agree_with_the_entry_checks(subs):
    """Taken in bulk only where every entry passes the checks, and then recorded alike."""
    data = _period_with_substitutions(subs)
    columns = iccf_contract._columns_from_json(data["players"], data["games"])
    bulk = iccf_rate.bulk_arrays(columns)
    taken = iccf_contract._bulk_substitutions(bulk, subs)
    entries = iccf_rate.bulk_arrays(columns)
    try:
        sides = iccf_contract._GameSides(columns.white, columns.black)
        iccf_rate.with_substitutions(entries, iccf_contract._substitutions_from_json(data), sides)
    except EngineInputError:
        assert not taken
        return
    if taken:
        assert (bulk.white_original == entries.white_original).all()
        assert (bulk.black_original == entries.black_original).all()
    else:  # refused in bulk, accepted entry by entry: only an unusual shape may do that
        assert any(type(s["game"]) is not int or type(s["replaces"]) is not str for s in subs)


def test_usual_substitutions_are_taken_in_bulk(monkeypatch):
    def refuse(_data):
        raise AssertionError("read entry by entry")

    monkeypatch.setattr(iccf_contract, "_substitutions_from_json", refuse)
    subs = [
        {"game": 0, "side": "white", "replaces": "5"},
        {"game": 1, "side": "black", "replaces": "0"},
    ]
    text = iccf_contract.run_text(_period_with_substitutions(subs))
    assert text.startswith('{"players": [{"id": "0", "rating": ')


@pytest.mark.parametrize("value", [float("nan"), float("inf"), -float("inf")])
def test_a_non_finite_rating_fails_as_the_dicts_fail(value):
    out = PeriodOutcome(
        np.array([value]), np.array([50.0]), np.array([1]), np.array([True]), *([None] * 4)
    )
    expected = _text_or_error(lambda: jsonio.dumps(iccf_contract._outcome_to_json(("a",), out)))
    assert expected.split(":")[0] in ("InvalidOperation", "ValueError")  # never a text
    assert _text_or_error(lambda: iccf_contract._outcome_text(("a",), out)) == expected


@settings(max_examples=300, deadline=None)
@given(history())
def test_egf_text_is_the_canonical_text_of_the_dicts(data):
    expected = _text_or_error(lambda d: jsonio.dumps(egf_contract.run_json(d)), data)
    assert _text_or_error(egf_contract.run_text, data) == expected


@st.composite
def rated_histories(draw):
    tournaments = draw(st.integers(0, 4))
    sizes = draw(st.lists(st.integers(0, 4), min_size=tournaments, max_size=tournaments))
    n = sum(sizes)
    player_ids = draw(st.lists(IDS, min_size=1, max_size=5, unique=True))
    floats = st.lists(ODD_FLOATS, min_size=n, max_size=n)
    arrays = HistoryArrays(
        tournament_ids=draw(st.lists(IDS, min_size=tournaments, max_size=tournaments)),
        tournament_classes=["A"] * tournaments,
        player_ids=player_ids,
        entry_offsets=np.concatenate([[0], np.cumsum(sizes, dtype=np.int64)]),
        entry_player=np.array(
            draw(st.lists(st.integers(0, len(player_ids) - 1), min_size=n, max_size=n)),
            dtype=np.int64,
        ),
        entry_grade=["1d"] * n,
        entry_rating=np.full(n, np.nan),
        game_offsets=np.zeros(tournaments + 1, dtype=np.int64),
        game_white=np.zeros(0, dtype=np.int64),
        game_black=np.zeros(0, dtype=np.int64),
        game_result=np.zeros(0),
        game_handicap=np.zeros(0),
    )
    games = np.array(draw(st.lists(st.integers(0, 2**62), min_size=n, max_size=n)), np.int64)
    before, after = np.array(draw(floats), dtype=float), np.array(draw(floats), dtype=float)
    for i in range(1, n):  # carried: an earlier entry's after (or -0.0 for 0.0), text reused
        if draw(st.booleans()):
            earlier = after[draw(st.integers(0, i - 1))]
            before[i] = -earlier if earlier == 0 and draw(st.booleans()) else earlier
    return RatedHistory(arrays, before, after, games, np.full(n, "grade"))


@settings(max_examples=500, deadline=None)
@given(rated_histories())
def test_egf_rows_print_every_float_and_id_as_json_dumps(rated):
    expected = _text_or_error(lambda: jsonio.dumps(egf_columns.rated_to_json(rated)))
    assert _text_or_error(lambda: egf_columns.rated_to_text(rated)) == expected


def test_egf_ids_of_another_type_are_left_to_dumps():
    """A columnar caller's integer ids print as dumps prints them (no quotes)."""
    arrays = HistoryArrays(
        tournament_ids=[7],
        tournament_classes=["A"],
        player_ids=[12, "x"],
        entry_offsets=np.array([0, 2]),
        entry_player=np.array([0, 1]),
        entry_grade=["1d", "2d"],
        entry_rating=np.full(2, np.nan),
        game_offsets=np.array([0, 0]),
        game_white=np.zeros(0, dtype=np.int64),
        game_black=np.zeros(0, dtype=np.int64),
        game_result=np.zeros(0),
        game_handicap=np.zeros(0),
    )
    rated = RatedHistory(
        arrays, np.array([100.0, 1e16]), np.array([-0.0, 1e-5]), np.array([0, 3]), None
    )
    text = egf_columns.rated_to_text(rated)
    assert text == jsonio.dumps(egf_columns.rated_to_json(rated))
    assert '"id": 12, "before": 100.0, "after": -0.0' in text and "1e+16" in text


@pytest.mark.parametrize("content", [b"", b"   ", b'{"players": [], "games": []}', b"[1,]"])
def test_the_program_reads_a_mapped_file_as_it_reads_stdin(tmp_path, capsys, monkeypatch, content):
    path = tmp_path / "input.json"
    path.write_bytes(content)
    by_file = (main(["iccf", str(path)]), capsys.readouterr())
    with path.open("rb") as handle:
        monkeypatch.setattr(sys, "stdin", SimpleNamespace(buffer=handle))
        by_stdin = (main(["iccf", "-"]), capsys.readouterr())
    assert by_file == by_stdin


MAPPED_INPUTS = {
    "iccf": {
        "players": [{"id": "a", "rating": 1900, "rd": 50}, {"id": "b", "unrated": True}],
        "games": [{"white": "a", "black": "b", "result": 1, "white_start": 1850}],
        "params": {"c": 30},
        "substitutions": [],
    },
    "egf": {**USUAL, "params": {"epsilon": 0.02}},
}


@pytest.mark.parametrize("system", sorted(MAPPED_INPUTS))
def test_the_program_gives_a_mapped_files_text_as_stdins(tmp_path, capsys, monkeypatch, system):
    """A mapped file with params gives what stdin gives, the canonical text of the document
    read by jsonio.loads; ``keep`` receives what was decoded."""
    path = tmp_path / "input.json"
    path.write_text(json.dumps(MAPPED_INPUTS[system]))
    kept: list = []
    by_file = (main([system, str(path)], keep=kept), capsys.readouterr())
    assert kept, "the program keeps what it decoded"
    with path.open("rb") as handle:
        monkeypatch.setattr(sys, "stdin", SimpleNamespace(buffer=handle))
        by_stdin = (main([system, "-"]), capsys.readouterr())
    assert by_file == by_stdin
    contract = {"iccf": iccf_contract, "egf": egf_contract}[system]
    assert by_file[1].out == contract.run_text(jsonio.loads(path.read_bytes())) + "\n"


@pytest.mark.parametrize("system", ["iccf", "egf"])
def test_the_program_words_deep_nesting(tmp_path, capsys, system):
    """Params nested deeper than the decoders go: the strict reader's error, not a traceback."""
    head = '{"players": [], "games": []' if system == "iccf" else '{"tournaments": []'
    path = tmp_path / "input.json"
    path.write_text(head + ', "params": ' + "[" * 100_000 + "]" * 100_000 + "}")
    assert main([system, str(path)]) == 2
    assert capsys.readouterr().err == "input: nested too deeply\n"


def test_egf_a_game_of_a_player_entered_elsewhere_fails_as_entry_by_entry():
    """Games are numbered among their own tournament's players: one naming a player of another
    tournament goes to the entry-by-entry reading, which fails as the columns would have."""
    players = [{"id": "a", "grade": "1d"}, {"id": "b", "grade": "2k"}]
    data = {
        "tournaments": [
            {"id": "T1", "class": "A", "players": players, "games": []},
            {
                "id": "T2",
                "class": "B",
                "players": [{"id": "c", "grade": "1k"}, {"id": "d", "grade": "3k"}],
                "games": [
                    {"white": "c", "black": "d", "result": 1},
                    {"white": "a", "black": "d", "result": 0},
                ],
            },
        ]
    }
    assert egf_columns.arrays_from_json(data["tournaments"]) is None
    expected = (
        "EngineInputError: tournaments[1].games[1].white: 'a' is not a player of this tournament"
    )
    assert _text_or_error(egf_contract.run_text, data) == expected
    data["tournaments"][1]["games"][1]["white"] = "c"  # now his own: read in columns
    data["tournaments"][1]["games"][1]["black"] = "d"
    assert egf_columns.arrays_from_json(data["tournaments"]) is not None
