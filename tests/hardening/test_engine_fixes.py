"""The engine input bugs the hostile-input hunt found, one test each (exit 2, not a traceback)."""

from __future__ import annotations

import pytest

from ratings.engines import egf, playchess
from ratings.engines.core import jsonio
from ratings.engines.core.errors import EngineInputError
from ratings.engines.core.rounding import half_up_2, half_up_int


def test_a_5000_digit_integer_is_refused_not_a_valueerror():
    # json.loads alone raises ValueError ("Exceeds the limit (4300 digits)").
    with pytest.raises(EngineInputError, match="^input: a 5000-digit integer"):
        jsonio.loads('{"players": [' + "9" * 5000 + "]}")


def test_a_float_beyond_the_double_range_is_refused():
    # 1e400 parses to inf without the hook; NaN and Infinity were already refused.
    with pytest.raises(EngineInputError, match="^input: 1e400 is out of the range"):
        jsonio.loads('{"rating": 1e400}')
    assert jsonio.loads('{"rating": 1e300, "n": 123456789012345678901234567890}') == {
        "rating": 1e300,
        "n": 123456789012345678901234567890,
    }


def test_half_up_rounding_of_huge_finite_numbers():
    # Decimal's default 28 digits made quantize raise InvalidOperation from 1e28 upwards.
    assert half_up_int(1e28) == 10**28
    assert half_up_int(2.5e300) == 25 * 10**299  # via repr, as every rounding here
    assert half_up_2(1e30) == 1e30
    assert half_up_int(2.5) == 3 and half_up_int(-2.5) == -3


def test_egf_class_that_is_a_list_is_refused():
    with pytest.raises(EngineInputError, match=r"^tournaments\[0\]\.class: class must be"):
        egf.run_json({"tournaments": [{"id": "T", "class": [], "players": [], "games": []}]})


def test_playchess_game_count_beyond_int64_is_refused():
    data = {"players": [{"id": "a", "rating": 2200.0, "games": 2**63}], "games": []}
    with pytest.raises(EngineInputError, match=r"^players\[0\]\.games: must be at most"):
        playchess.run_json(data)
