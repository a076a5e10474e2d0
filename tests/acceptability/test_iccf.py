from __future__ import annotations

from datetime import date, timedelta
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.engines.core.errors import EngineInputError
from ratings.systems.iccf import calendar as iccf_calendar
from tournaments.acceptability import check_event, is_acceptable
from tournaments.acceptability.iccf import (
    MAX_LATE_LISTED,
    IccfEventFacts,
    IccfGameFacts,
    IccfTimeControl,
    list_for_report,
    place_result,
    reflection_days,
    reflection_rule,
    reporting_deadline,
    reporting_rule,
    webserver_rule,
)
from tournaments.acceptability.types import Status

TODAY = date(2027, 1, 10)


# rule 1.3: reflection time ----------------------------------------------------------------------


def test_postal_20_days_per_10_moves_passes_19_fails():
    assert reflection_rule("postal", IccfTimeControl(block_moves=10, days_per_block=20)).status is (
        Status.PASS
    )
    res = reflection_rule("postal", IccfTimeControl(block_moves=10, days_per_block=19))
    assert res.status is Status.FAIL
    assert res.message == "19 days for the first 10 moves (postal); at least 20 are required"


def test_electronic_150_days_per_50_moves():
    # "10 moves in 30 days" gives exactly 150 days for 50 moves; 29 gives 145
    assert reflection_rule(
        "electronic", IccfTimeControl(block_moves=10, days_per_block=30)
    ).status is (Status.PASS)
    res = reflection_rule("electronic", IccfTimeControl(block_moves=10, days_per_block=29))
    assert res.status is Status.FAIL
    assert res.message == "145 days for the first 50 moves (electronic); at least 150 are required"


def test_fischer_style_base_plus_increment():
    # 100 days + 1 day per move: 150 days for 50 moves (pass); 99 + 1: 149 (fail)
    ok = IccfTimeControl(base_days=100, increment_days=1)
    assert reflection_days(ok, 50) == 150
    assert reflection_rule("electronic", ok).status is Status.PASS
    assert reflection_rule(
        "electronic", IccfTimeControl(base_days=99, increment_days=1)
    ).status is (Status.FAIL)
    # postal: 10 days + 1 day per move = 20 for 10 moves
    assert reflection_rule("postal", IccfTimeControl(base_days=10, increment_days=1)).status is (
        Status.PASS
    )


def test_block_time_is_pro_rata_and_exact():
    # 7 moves in 14 days is the same rate as 20 days per 10 moves
    tc = IccfTimeControl(block_moves=7, days_per_block=14)
    assert reflection_days(tc, 10) == Fraction(20)
    assert reflection_rule("postal", tc).status is Status.PASS


def test_bad_time_control_is_bad_input():
    with pytest.raises(EngineInputError):
        IccfTimeControl(days_per_block=20)  # no block_moves
    with pytest.raises(EngineInputError):
        IccfTimeControl(base_days=-1)


# rule 1.3: webserver ----------------------------------------------------------------------------


def test_webserver_rule():
    assert webserver_rule("postal", True).status is Status.PASS
    assert webserver_rule("postal", False).status is Status.FAIL
    assert webserver_rule("postal", None).status is Status.NEEDS_ATTESTATION
    assert webserver_rule("electronic", None).status is Status.NOT_APPLICABLE


# rules 3 and 4: reporting deadline --------------------------------------------------------------


@pytest.mark.parametrize(
    ("finished", "valid_from"),
    [
        (date(2026, 9, 1), date(2027, 1, 1)),
        (date(2026, 11, 30), date(2027, 1, 1)),  # last day of the Sep-Nov window
        (date(2026, 12, 1), date(2027, 4, 1)),  # one day later: April list
        (date(2027, 2, 28), date(2027, 4, 1)),
        (date(2027, 3, 1), date(2027, 7, 1)),
        (date(2027, 5, 31), date(2027, 7, 1)),
        (date(2027, 6, 1), date(2027, 10, 1)),
        (date(2027, 8, 31), date(2027, 10, 1)),
    ],
)
def test_list_for_a_result_finished_and_reported_the_same_day(finished, valid_from):
    assert list_for_report(finished) == valid_from


def test_reporting_deadlines_exactly_one_month_before_validity():
    # "at least one month before the list becomes valid", read literally (as ratings.calendars)
    assert reporting_deadline(date(2027, 1, 1)) == date(2026, 12, 1)
    assert reporting_deadline(date(2027, 4, 1)) == date(2027, 3, 1)
    assert reporting_deadline(date(2027, 7, 1)) == date(2027, 6, 1)
    assert reporting_deadline(date(2027, 10, 1)) == date(2027, 9, 1)
    with pytest.raises(EngineInputError):
        reporting_deadline(date(2027, 2, 1))


def test_report_on_the_deadline_counts_one_day_later_rolls_over():
    on_deadline = place_result(date(2026, 11, 30), date(2026, 12, 1))
    assert not on_deadline.late and on_deadline.list_valid_from == date(2027, 1, 1)
    late = place_result(date(2026, 11, 30), date(2026, 12, 2))
    assert late.late and late.list_valid_from == date(2027, 4, 1)
    assert late.due_list_valid_from == date(2027, 1, 1)


@settings(max_examples=100, deadline=None)
@given(
    st.dates(min_value=date(1990, 1, 1), max_value=date(2100, 12, 31)),
    st.integers(min_value=0, max_value=400),
)
def test_acceptability_places_every_result_where_the_rating_periods_do(finished, delay):
    reported = finished + timedelta(days=delay)
    placement = place_result(finished, reported)
    assigned = iccf_calendar.period_for_report(reported, finished_on=finished)
    assert placement.list_valid_from == assigned.period.valid_from
    assert placement.late == assigned.late
    # in time exactly when reported by the deadline of the list its finish date belongs to
    assert placement.late == (reported > reporting_deadline(placement.due_list_valid_from))
    # a result never lands in a list whose deadline its report missed
    assert reported <= reporting_deadline(placement.list_valid_from)


def test_late_result_rolls_over_and_says_so():
    p = place_result(date(2026, 11, 20), date(2026, 12, 2))
    assert p.late and p.list_valid_from == date(2027, 4, 1)
    assert p.due_list_valid_from == date(2027, 1, 1)
    assert p.message == (
        "finished 2026-11-20, reported 2026-12-02, after the deadline 2026-12-01 for the list "
        "valid from 2027-01-01; rolls over to the list valid from 2027-04-01"
    )
    on_time = place_result(date(2026, 11, 20), date(2026, 12, 1))
    assert not on_time.late and on_time.list_valid_from == date(2027, 1, 1)
    with pytest.raises(EngineInputError):
        place_result(date(2026, 11, 20), date(2026, 11, 19))


def test_reporting_rule_warns_about_late_results_without_blocking():
    games = (
        IccfGameFacts(1, date(2026, 10, 2), date(2026, 10, 3)),
        IccfGameFacts(2, date(2026, 11, 29), date(2026, 12, 2)),
        IccfGameFacts(3),  # still in play
        IccfGameFacts(4, date(2026, 11, 29), date(2026, 12, 1)),  # on the deadline: in time
    )
    res = reporting_rule(games)
    assert res.status is Status.WARNING
    assert res.facts["lists"] == {"2027-01-01": 2, "2027-04-01": 1}
    assert "1 of 3 results reported late (game 2: finished 2026-11-29" in res.message
    assert res.facts["late_count"] == 1
    assert reporting_rule(games[:1]).status is Status.PASS
    assert reporting_rule(games[2:3]).status is Status.NOT_APPLICABLE


def test_reported_but_unfinished_game_is_bad_input():
    with pytest.raises(EngineInputError):
        IccfEventFacts("electronic", IccfTimeControl(), games=[IccfGameFacts(1, None, TODAY)])
    with pytest.raises(EngineInputError) as err:
        games = [IccfGameFacts(1, TODAY, TODAY), IccfGameFacts(2, TODAY, TODAY - timedelta(1))]
        IccfEventFacts("electronic", IccfTimeControl(), games=games)
    assert err.value.where == "games[1].reported_on"


def test_iccf_event_through_the_dispatch():
    good = IccfEventFacts(
        transmission="postal",
        time_control=IccfTimeControl(block_moves=10, days_per_block=30),
        administered_on_webserver=True,
        games=[IccfGameFacts(1, TODAY - timedelta(days=3), TODAY)],
    )
    results = check_event("iccf", good, TODAY)
    assert [r.rule_id for r in results] == ["ICCF-1.3-TIME", "ICCF-1.3-WEBSERVER", "ICCF-3"]
    assert is_acceptable(results)
    bad = IccfEventFacts(
        transmission="postal",
        time_control=IccfTimeControl(block_moves=10, days_per_block=19),
        administered_on_webserver=False,
    )
    assert [r.status for r in check_event("iccf", bad, TODAY)] == [
        Status.FAIL,
        Status.FAIL,
        Status.NOT_APPLICABLE,
    ]
    with pytest.raises(EngineInputError):
        IccfEventFacts("fax", IccfTimeControl())


def test_many_late_results_are_counted_and_a_few_named():
    games = tuple(
        IccfGameFacts(i, date(2026, 11, 29), date(2026, 12, 2)) for i in range(MAX_LATE_LISTED + 7)
    )
    res = reporting_rule(games)
    assert res.facts["late_count"] == MAX_LATE_LISTED + 7
    assert len(res.facts["late"]) == MAX_LATE_LISTED
    assert res.message.startswith(f"{MAX_LATE_LISTED + 7} of {MAX_LATE_LISTED + 7} results")
