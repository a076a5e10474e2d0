"""jsonio.loads, the engines' one JSON reader: msgspec's reading against the strict one (the
same value or the same error for every text), loads_as_stdlib against json.loads, the switch
to the strict reader (long digit runs) and a mapped file read in place."""

from __future__ import annotations

import json

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.engines.core import jsonio
from ratings.engines.core.errors import EngineInputError
from tests.json_values import json_values


def _outcome(read, data):
    try:
        return read(data)
    except EngineInputError as exc:
        return f"error: {exc}"


def _text_or_error(read, *args):
    try:
        return read(*args)
    except Exception as exc:  # noqa: BLE001  the same error, whatever it is
        return f"{type(exc).__name__}: {exc}"


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


PIECES = st.sampled_from([b"1", b"0", b"9876543", b"x", b'"', b"/", b":", b"12345678901234567"])


@settings(max_examples=500, deadline=None)
@given(st.lists(PIECES, max_size=30).map(b"".join), st.integers(1, 40))
def test_long_digit_runs_are_found_across_chunk_edges(raw, chunk):
    whole = b"0" * jsonio._LONG_RUN in raw.translate(bytes.maketrans(b"123456789", b"0" * 9))
    assert jsonio.has_long_digits(raw, chunk) == whole  # small: translated
    assert jsonio.has_long_digits(raw, chunk, small=0) == whole  # by NumPy, chunk by chunk
    assert jsonio.has_long_digits(memoryview(raw), chunk, small=0) == whole


@settings(max_examples=300, deadline=None)
@given(st.one_of(JSON_TEXTS, BROKEN, JSON_TEXTS.map(lambda t: t[: len(t) // 2])))
def test_a_mapped_file_reads_as_its_bytes(text):
    """The command line hands the decoder a view of the mapped file, not bytes."""
    raw = text.encode("utf-8", "surrogatepass")
    assert _text_or_error(jsonio.loads, memoryview(raw)) == _text_or_error(jsonio.loads, raw)
