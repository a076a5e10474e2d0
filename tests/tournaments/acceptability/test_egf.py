from __future__ import annotations

from datetime import date
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.engines.core.errors import EngineInputError
from tournaments.acceptability import check_event, is_acceptable
from tournaments.acceptability.egf import (
    EgfEventFacts,
    EgfTimeControl,
    adjusted_time_minutes,
    class_allowed,
    class_rule,
    date_rule,
    highest_offline_class,
    recognition_rule,
    time_rule,
)
from tournaments.acceptability.types import Status

TODAY = date(2026, 6, 1)


def byo(bt, seconds):
    return EgfTimeControl("byoyomi", bt, byoyomi_seconds=seconds)


def canadian(bt, minutes, stones):
    return EgfTimeControl("canadian", bt, canadian_minutes=minutes, canadian_stones=stones)


def fischer(bt, bonus):
    return EgfTimeControl("fischer", bt, fischer_bonus_seconds=bonus)


def sd(bt):
    return EgfTimeControl("sudden_death", bt)


def event(cls="A", tc=None, start=date(2026, 3, 1), attest=("EGF-RECOGNIZED",)):
    return EgfEventFacts(start, start, cls, tc or byo(60, 30), frozenset(attest))


# adjusted time -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tc", "ta"),
    [
        (byo(60, 20), 75),  # 45 moves x 20 s = 15 min
        (byo(60, 30), Fraction(165, 2)),  # 45 x 30 s = 22.5 min
        (canadian(60, 5, 15), 80),  # 60 moves at 5 min / 15 stones = 20 min
        (canadian(40, 5, 30), 50),
        (canadian(40, 5, 7), 40 + Fraction(300, 7)),
        (fischer(45, 15), 75),  # table: 45 min + 15 s
        (fischer(30, 10), 50),
        (fischer(20, 5), 30),
        (sd(90), 90),
    ],
)
def test_adjusted_time(tc, ta):
    assert adjusted_time_minutes(tc) == ta


@pytest.mark.parametrize(
    ("tc", "best"),
    [
        (byo(60, 20), "A"),  # BT 60, TA 75: the A minimums exactly
        (byo(59, 30), "B"),  # BT under 60
        (byo(60, 19), "B"),  # TA 74.25
        (fischer(45, 15), "A"),  # Fischer A: 45 / 75
        (fischer(44, 16), "B"),  # TA 76 but BT 44 < 45
        (fischer(45, 14), "B"),  # TA 73
        (fischer(30, 10), "B"),
        (fischer(29, 11), "C"),
        (fischer(20, 5), "C"),
        (fischer(19, 6), None),  # TA 31 but Fischer BT 19 < 20
        (sd(75), "A"),
        (sd(74), "B"),
        (sd(30), "C"),
        (sd(29), None),
        (canadian(40, 5, 30), "B"),
        (canadian(25, 1, 12), "C"),  # TA exactly 30
    ],
)
def test_highest_class_at_the_boundaries(tc, best):
    assert highest_offline_class(tc) == best


def test_class_d_uses_the_b_minimums():
    assert class_allowed("D", fischer(30, 10))
    assert not class_allowed("D", fischer(30, 9))
    assert class_allowed("D", byo(40, 14))  # 40 + 10.5 = 50.5
    assert not class_allowed("D", byo(39, 60))
    with pytest.raises(EngineInputError):
        class_allowed("E", sd(90))


minutes = st.integers(0, 200)


@settings(max_examples=100, deadline=None)
@given(
    st.one_of(
        st.builds(byo, minutes, st.integers(0, 120)),
        st.builds(canadian, minutes, st.integers(0, 20), st.integers(1, 40)),
        st.builds(fischer, minutes, st.integers(0, 60)),
        st.builds(sd, minutes),
    )
)
def test_classes_are_nested_and_ta_never_below_bt(tc):
    assert adjusted_time_minutes(tc) >= tc.basic_minutes
    if class_allowed("A", tc):
        assert class_allowed("B", tc)
    if class_allowed("B", tc):
        assert class_allowed("C", tc) and class_allowed("D", tc)
    if class_allowed("C", tc):
        assert adjusted_time_minutes(tc) >= 30


# rules ---------------------------------------------------------------------------------------------


def test_declared_class_above_the_time_control_fails():
    res = class_rule(event("A", byo(60, 19)))
    assert res.status is Status.FAIL
    assert res.message == (
        "declared class A needs basic time at least 60 min and adjusted time at least 75 min; "
        "basic time 60 min, adjusted time 74.25 min (byoyomi) permits at most class B"
    )
    assert class_rule(event("B", byo(60, 19))).status is Status.PASS
    assert class_rule(event("C", byo(60, 19))).status is Status.PASS  # demoting is allowed


def test_undeclared_class_fails():
    res = class_rule(event(None))
    assert res.status is Status.FAIL and "no class declared" in res.message


def test_class_d_only_from_2015():
    assert class_rule(event("D", fischer(30, 10), start=date(2015, 1, 1))).status is Status.PASS
    res = class_rule(event("D", fischer(30, 10), start=date(2014, 12, 31)))
    assert res.status is Status.FAIL and "since 2015-01-01" in res.message


def test_games_under_30_minutes_are_not_rated():
    assert time_rule(event("C", sd(30))).status is Status.PASS
    res = time_rule(event("C", sd(29)))
    assert res.status is Status.FAIL
    assert res.message == "adjusted time 29 minutes; games under 30 minutes are not rated"


def test_events_before_1996_are_not_rated():
    assert date_rule(event(start=date(1996, 1, 1))).status is Status.PASS
    res = date_rule(event(start=date(1995, 12, 31)))
    assert res.status is Status.FAIL
    assert res.message == "started on 1995-12-31; events before 1996-01-01 are not rated"


def test_recognition_needs_an_attestation():
    pending = recognition_rule(event("A", attest=()))
    assert pending.status is Status.NEEDS_ATTESTATION
    assert "no handicaps in the top group" in pending.message
    assert recognition_rule(event("A")).status is Status.PASS


def test_dispatch_and_verdict():
    good = check_event("egf", event("A", byo(60, 30)), TODAY)
    assert [r.rule_id for r in good] == ["EGF-DATE", "EGF-TIME", "EGF-CLASS", "EGF-RECOGNIZED"]
    assert is_acceptable(good)
    assert not is_acceptable(check_event("egf", event("A", byo(45, 30)), TODAY))


def test_bad_time_controls():
    with pytest.raises(EngineInputError):
        EgfTimeControl("hourglass", 60)
    with pytest.raises(EngineInputError):
        EgfTimeControl("byoyomi", 60)  # seconds missing
    with pytest.raises(EngineInputError):
        canadian(60, 5, 0)
    with pytest.raises(EngineInputError):
        sd(-1)
