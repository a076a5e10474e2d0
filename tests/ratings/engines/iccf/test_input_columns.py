"""The ICCF input held as columns (what a rating run builds) against its JSON document.

For every generated period, valid or not: ``canonical_bytes()`` is byte for byte
``provenance.canonical_bytes(to_json())`` (the stored input and its digest), or both refuse;
``run_json`` of the columns gives the output, or the error, of ``run_json`` of the document.
"""

from __future__ import annotations

from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.engines.core import jsonio
from ratings.engines.core.errors import EngineInputError
from ratings.engines.iccf import contract, input_columns
from ratings.engines.iccf.input_columns import InputColumns
from ratings.services import provenance

# Usual values, values repr writes with an exponent, -0.0 and the bounds ...
FLOAT = st.one_of(st.floats(1000, 2800), st.sampled_from([1800.0, 0.0, -0.0, 1e-05, 4000.0]))
RD = st.one_of(st.floats(30, 250), st.sampled_from([250.0, 1e-300]))
RESULT = st.sampled_from([1.0, 0.5, 0.0, -0.0])
# ... and, now and then, one value the checks refuse, or an odd id
BAD = {
    "rating": [-1.0, 4000.5, 1e16, np.nan, np.inf],
    "rd": [np.nan, 0.0, 300.0],
    "fide": [-1.0, 5000.0],
    "result": [0.25, 2.0, np.nan],
    "white_start": [4000.5, -1e-05],
}
IDS = st.sampled_from(["", "0", "é", "\u2028", '"', "12"])


@st.composite
def period(draw) -> InputColumns:
    count = draw(st.integers(2, 7))
    ids = [str(10 * i + 3) for i in range(count)]
    if draw(st.integers(0, 5)) == 0:  # sometimes an odd id: empty, a duplicate, non-ASCII
        ids[draw(st.integers(0, count - 1))] = draw(IDS)
    unrated = np.array([draw(st.integers(0, 2)) == 0 for _ in ids])
    rating = np.array([np.nan if u else draw(FLOAT) for u in unrated])
    rd = np.array([np.nan if u else draw(RD) for u in unrated])
    fide = np.array([draw(FLOAT) if u and draw(st.booleans()) else np.nan for u in unrated])
    games = draw(st.integers(0, 10))
    white, black = [], []
    for _ in range(games):
        pair = draw(st.permutations(range(count)))[:2]
        if draw(st.integers(0, 25)) == 0:
            pair = [pair[0], pair[0]]  # someone playing himself
        white.append(pair[0])
        black.append(pair[1])
    starts = draw(st.sampled_from(["none", "all", "some", "one side"]))

    def start_column(side: str) -> np.ndarray:
        values = []
        for _ in range(games):
            given_here = {
                "none": False,
                "all": True,
                "some": draw(st.booleans()),
                "one side": side == "white" and draw(st.booleans()),
            }[starts]
            values.append(draw(FLOAT) if given_here else np.nan)
        return np.array(values, dtype=np.float64)

    white_start, black_start = start_column("white"), start_column("black")
    substitutions = []
    if games and draw(st.booleans()):
        substitutions = [
            {
                "game": draw(st.integers(-1, games)),
                "side": draw(st.sampled_from(["white", "black", "left"])),
                "replaces": draw(st.sampled_from(ids)),
            }
        ]
    params = draw(st.sampled_from([{}, {}, {}, {"c": 55.0}, {"rd_cap": None}, {"c": -1.0}]))
    columns = dict(rating=rating, rd=rd, fide=fide, white_start=white_start)
    result = np.array([draw(RESULT) for _ in range(games)], dtype=np.float64)
    columns["result"] = result
    if draw(st.integers(0, 3)) == 0:
        name = draw(st.sampled_from(sorted(BAD)))
        if len(columns[name]):
            columns[name][draw(st.integers(0, len(columns[name]) - 1))] = draw(
                st.sampled_from(BAD[name])
            )
    return InputColumns(
        params=params,
        ids=tuple(ids),
        unrated=unrated,
        rating=rating,
        rd=rd,
        fide=fide,
        white=np.array(white, dtype=np.int64),
        black=np.array(black, dtype=np.int64),
        result=result,
        white_start=white_start,
        black_start=black_start,
        substitutions=substitutions,
    )


def _outcome(call, *args):
    try:
        return call(*args)
    except (EngineInputError, ValueError) as exc:
        return f"{type(exc).__name__}: {exc}"


def _document(output):
    """The output as a document, and the command line's text of it."""
    if isinstance(output, contract.RatedColumns):
        return output.to_json(), output.text()
    return output, None if isinstance(output, str) else jsonio.dumps(output)


@settings(max_examples=500, deadline=None)
@given(period(), st.integers(1, 5))
def test_columns_write_the_documents_canonical_bytes(columns, piece_rows):
    """Whatever the number of games formatted per step (a period's are formatted in pieces)."""
    with mock.patch.object(input_columns, "PIECE_ROWS", piece_rows):
        by_columns = _outcome(columns.canonical_bytes)
    by_document = _outcome(provenance.canonical_bytes, columns.to_json())
    if isinstance(by_document, str):  # json.dumps refuses NaN and infinities: so do the columns
        assert isinstance(by_columns, str)
    else:
        assert by_columns == by_document


@settings(max_examples=500, deadline=None)
@given(period())
def test_columns_rate_as_the_document_does(columns):
    """The same output (as a document and as text) or the same error."""
    by_columns = _document(_outcome(contract.run_json, columns))
    by_document = _document(_outcome(contract.run_json, columns.to_json()))
    assert by_columns == by_document


def _usual(games: int = 3) -> InputColumns:
    return InputColumns(
        params={},
        ids=("1", "2", "3"),
        unrated=np.array([False, False, True]),
        rating=np.array([1900.0, 1850.5, np.nan]),
        rd=np.array([80.0, 120.0, np.nan]),
        fide=np.array([np.nan, np.nan, 2100.0]),
        white=np.array([0, 1, 2][:games]),
        black=np.array([1, 2, 0][:games]),
        result=np.array([1.0, 0.5, 0.0][:games]),
        white_start=np.array([1900.0, 1850.5, 2100.0][:games]),
        black_start=np.array([1850.5, 2100.0, 1900.0][:games]),
        substitutions=[],
    )


def test_usual_columns_skip_the_document(monkeypatch):
    """The columns go to the core without dicts (else the agreement above proves little)."""

    def refuse(*_args):
        raise AssertionError("read as a document")

    monkeypatch.setattr(contract, "_rate", refuse)
    monkeypatch.setattr(InputColumns, "to_json", refuse)
    output = contract.run_json(_usual())
    assert isinstance(output, contract.RatedColumns)
    assert [row["games"] for row in output.to_json()["players"]] == [2, 2, 2]


def test_the_generated_periods_take_both_paths():
    """Both the column path and the fallback to the document are exercised by the generator
    (the same 200 periods each time, so that the bound does not fail now and then for nothing)."""
    taken = []

    @settings(max_examples=200, deadline=None, database=None, derandomize=True)
    @given(period())
    def count(columns):
        taken.append(columns.period_arrays() is not None)

    count()
    assert 0.3 < sum(taken) / len(taken) < 0.95


@pytest.mark.parametrize(
    "change, text",
    [
        ({}, '{"black":"2","black_start":1850.5,"result":1.0,"white":"1","white_start":1900.0}'),
        ({"white_start": np.full(3, np.nan)}, '{"black":"2","black_start":1850.5,"result":1.0'),
        ({"rd": np.array([np.nan, 120.0, np.nan])}, '{"id":"1","rating":1900.0,"rd":null}'),
        ({}, '{"fide":2100.0,"id":"3","unrated":true}'),
    ],
)
def test_canonical_text_of_usual_columns(change, text):
    fields = {**_usual().__dict__, **change}
    columns = InputColumns(**fields)
    written = columns.canonical_bytes().decode()
    assert text in written
    assert written == provenance.canonical_bytes(columns.to_json()).decode()
