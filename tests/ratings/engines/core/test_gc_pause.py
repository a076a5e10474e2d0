"""cycle_collector_paused: off inside, as it was afterwards, whatever happens inside."""

from __future__ import annotations

import gc

import pytest

from ratings.engines.core.gc_pause import cycle_collector_paused


@pytest.fixture(autouse=True)
def _collector_back_on():
    yield
    gc.enable()


def test_off_inside_and_on_again_after():
    gc.enable()
    with cycle_collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_a_caller_that_had_it_off_keeps_it_off():
    gc.disable()
    with cycle_collector_paused():
        assert not gc.isenabled()
    assert not gc.isenabled()


def test_on_again_after_an_error_inside():
    gc.enable()
    with pytest.raises(ValueError), cycle_collector_paused():
        raise ValueError("bad input")
    assert gc.isenabled()
