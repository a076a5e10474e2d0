"""Strict JSON reading for the engine command lines: no NaN, no Infinity, clear positions."""

from __future__ import annotations

import json
import math
from json.encoder import encode_basestring
from typing import Any

import msgspec

from ratings.engines.core.errors import EngineInputError


def _reject_constant(name: str) -> Any:
    raise EngineInputError("input", f"{name} is not a number JSON allows")


MAX_INTEGER_DIGITS = 30  # far beyond any rating, count or id written as a number


def _parse_int(text: str) -> int:
    # Checked before int(): Python refuses to convert more than 4300 digits with a ValueError.
    if len(text.lstrip("-")) > MAX_INTEGER_DIGITS:
        raise EngineInputError("input", f"a {len(text)}-digit integer is not a number we use")
    return int(text)


def _parse_float(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise EngineInputError("input", f"{text[:40]} is out of the range of numbers")
    return number


# The strict reader refuses integers of more than MAX_INTEGER_DIGITS digits, which msgspec reads:
# a text with a run of this many digits anywhere takes the strict reader (a float's long
# mantissa too, though msgspec rounds it as float() does: the switch need not tell them apart).
_LONG_RUN = 19
_DIGITS_TO_ZERO = bytes.maketrans(b"123456789", b"000000000")
_SMALL = 1 << 16


def loads(text: str | bytes | memoryview) -> Any:
    """The document, or EngineInputError naming what is wrong.

    msgspec reads the common case three times faster (a 12 MiB ICCF period: 0.12 s against
    0.36 s); whatever it refuses, or may read differently (long digit runs), goes through the
    strict reader, which decides and words the error, so both give the same value or the same
    message."""
    if isinstance(text, memoryview):  # a mapped file: read in place, never copied whole
        raw = text
    else:
        raw = text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass")
    value = _by_msgspec(raw)
    if value is _UNREAD:
        return _strict_loads(bytes(text) if isinstance(text, memoryview) else text)
    return value


def loads_as_stdlib(text: str) -> Any:
    """What ``json.loads(text)`` gives, read by msgspec where it reads the same (several times
    faster): a text with a long digit run, or one msgspec refuses (NaN, lone surrogates), goes
    to ``json.loads`` itself. For JSON the database wrote, where ``loads`` would word errors."""
    value = _by_msgspec(text.encode("utf-8", "surrogatepass"))
    return json.loads(text) if value is _UNREAD else value


_UNREAD = object()
_DECODE = msgspec.json.Decoder().decode
_ENCODE = msgspec.json.Encoder().encode


def _by_msgspec(raw: bytes | memoryview) -> Any:
    """msgspec's value of `raw` where it is the standard reader's too, else _UNREAD: a long
    digit run (see _LONG_RUN) or a text msgspec refuses (NaN, a number out of range, a lone
    surrogate, invalid UTF-8, nesting deeper than it goes) is left to the caller's own reader."""
    if has_long_digits(raw):
        return _UNREAD
    try:
        return _DECODE(raw)
    except (msgspec.DecodeError, UnicodeDecodeError, RecursionError):
        return _UNREAD


_CHUNK = 1 << 20


def has_long_digits(raw: bytes | memoryview, chunk: int = _CHUNK, small: int = _SMALL) -> bool:
    """Whether ``raw`` holds a run of _LONG_RUN digits: NumPy over the bytes in place,
    chunk by chunk (each overlapping the previous one by a run less one byte), five times
    faster than translating a copy. A run of 2**k digits from i is one of 2**(k-1) from i and
    one from i + 2**(k-1); 16 and 3 more make 19."""
    if len(raw) <= small:  # the few microseconds of NumPy's calls would be most of the work
        return _LONG_RUN * b"0" in bytes(raw).translate(_DIGITS_TO_ZERO)
    import numpy as np  # (here: the command line imports NumPy after setting its thread count)

    steps = (1, 2, 4, 8, _LONG_RUN - 16)
    data = np.frombuffer(raw, dtype=np.uint8)
    for start in range(0, len(data), chunk):
        run = data[max(start - _LONG_RUN + 1, 0) : start + chunk] - np.uint8(48) <= 9  # digits
        for step in steps:
            run = run[:-step] & run[step:]
            if not run.any():
                break
        else:
            return True
    return False


def _strict_loads(text: str | bytes) -> Any:
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise EngineInputError("input", f"not UTF-8 (byte {exc.start})") from None
    if not text.strip():
        raise EngineInputError("input", "empty")
    try:
        return json.loads(
            text, parse_constant=_reject_constant, parse_int=_parse_int, parse_float=_parse_float
        )
    except json.JSONDecodeError as exc:
        raise EngineInputError(
            "input", f"malformed JSON at line {exc.lineno} column {exc.colno}: {exc.msg}"
        ) from None
    except RecursionError:
        raise EngineInputError("input", "nested too deeply") from None


def dumps(data: Any) -> str:
    """The canonical text: run records digest it and the command lines print it (an exported
    run's input prints exactly its stored output), so its formatting must not change."""
    return json.dumps(data, ensure_ascii=False, allow_nan=False)


def string_texts(values: list[str]) -> list[str]:
    """``dumps`` of each string, for output written piece by piece: the encoder json.dumps
    itself uses for strings when ``ensure_ascii`` is off."""
    return list(map(encode_basestring, values))


# Python writes a float's shortest digits positionally, as msgspec does, for 1e-4 <= |x| < 1e16
# (and for zero); outside, repr takes an exponent ("1e-05") where msgspec may not ("0.00001").
_POSITIONAL_FROM, _POSITIONAL_BELOW = 1e-4, 1e16


def float_texts(values) -> list[str]:
    """``dumps`` of each float of a NumPy array (repr; finite values, as dumps allows): msgspec
    writes those in the range where its text is repr's, five times faster than repr for the
    millions of ratings of an EGF history (1.2 million: 0.17 s against 0.82 s); repr writes
    the rest."""
    import numpy as np

    values = np.ascontiguousarray(values, dtype=np.float64)
    if not len(values):
        return []
    magnitude = np.abs(values)
    usual = ((magnitude >= _POSITIONAL_FROM) & (magnitude < _POSITIONAL_BELOW)) | (values == 0)
    if usual.all():
        return _msgspec_texts(values)
    texts = np.empty(len(values), dtype=object)
    texts[~usual] = list(map(float.__repr__, values[~usual].tolist()))
    if usual.any():
        texts[usual] = _msgspec_texts(values[usual])
    return texts.tolist()


def float_texts_once(values, nan_text: str | None = None) -> list[str]:
    """``float_texts`` of each value, each distinct value written once (a player's rating
    repeats at every game and event of his period): distinct by bits, since -0.0 is written
    apart from 0.0. NaN is written ``nan_text`` where one is given."""
    return float_text_array(values, nan_text).tolist()


def float_text_array(values, nan_text: str | None = None):
    """``float_texts_once`` as a NumPy array of the texts (objects), for callers that slice or
    place them without a list in between."""
    import numpy as np

    values = np.ascontiguousarray(values, dtype=np.float64)
    bits, slot = np.unique(values.view(np.int64), return_inverse=True)
    distinct = bits.view(np.float64)
    texts = np.empty(len(distinct), dtype=object)
    written = distinct == distinct if nan_text is not None else np.ones(len(distinct), bool)
    texts[~written] = nan_text
    texts[written] = float_texts(distinct[written])
    return texts[slot]


def _msgspec_texts(values) -> list[str]:
    return _ENCODE(values.tolist())[1:-1].decode().split(",")


def require_object(value: Any, where: str) -> dict:
    if not isinstance(value, dict):
        raise EngineInputError(where, "must be an object")
    return value


def require_list(value: Any, where: str) -> list:
    if not isinstance(value, list):
        raise EngineInputError(where, "must be a list")
    return value


def require_number(value: Any, where: str, *, positive: bool = False) -> float:
    """A finite JSON number (bool is not a number here)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise EngineInputError(where, f"must be a number, not {value!r}")
    number = float(value)
    if not math.isfinite(number):
        raise EngineInputError(where, f"must be finite, not {value!r}")
    if positive and number <= 0:
        raise EngineInputError(where, f"must be positive, not {value!r}")
    return number


def require_id(value: Any, where: str) -> str:
    """Player ids are strings in JSON; integers are accepted and turned into strings."""
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise EngineInputError(where, f"must be a string id, not {value!r}")
    text = str(value)
    if not text:
        raise EngineInputError(where, "must not be empty")
    return text


def require_result(value: Any, where: str) -> float:
    """A game result for White: 1, 0.5 or 0."""
    number = require_number(value, where)
    if number not in (0.0, 0.5, 1.0):
        raise EngineInputError(where, f"result must be 1, 0.5 or 0, not {value!r}")
    return number
