"""Calendars at their boundaries (RULES §5, §2.5, §4.2), written from the rules' tables."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from ratings.calendars import (
    CalendarParams,
    due_periods,
    list_valid_on,
    next_period,
    period_by_code,
    period_for,
    previous_period,
)
from ratings.engines.core.errors import EngineInputError
from ratings.engines.core.months import add_months
from ratings.systems.egf.calendar import is_active as egf_is_active
from ratings.systems.egf.calendar import tournament_order_key as egf_tournament_order_key
from ratings.systems.iccf.calendar import period_for_report as iccf_period_for_report
from ratings.systems.wfcc.calendar import has_expired as wfcc_expired
from ratings.systems.wfcc.calendar import next_list_rating as wfcc_next_list_rating
from ratings.systems.wfcc.calendar import period_for_tournament as wfcc_period_for_tournament

D = date

# --- ICCF: the table of Appendix 1 rules 3/4 ------------------------------------------------------

# (a day in the window, window, published, valid from, valid until, code)
ICCF_TABLE = [
    (D(2025, 10, 15), D(2025, 9, 1), D(2025, 11, 30), D(2025, 12, 15), D(2026, 1, 1),
     D(2026, 3, 31), "2026Q1"),
    (D(2026, 1, 20), D(2025, 12, 1), D(2026, 2, 28), D(2026, 3, 15), D(2026, 4, 1),
     D(2026, 6, 30), "2026Q2"),
    (D(2026, 4, 30), D(2026, 3, 1), D(2026, 5, 31), D(2026, 6, 15), D(2026, 7, 1),
     D(2026, 9, 30), "2026Q3"),
    (D(2026, 7, 4), D(2026, 6, 1), D(2026, 8, 31), D(2026, 9, 15), D(2026, 10, 1),
     D(2026, 12, 31), "2026Q4"),
]  # fmt: skip


@pytest.mark.parametrize("day, starts, ends, published, valid_from, valid_until, code", ICCF_TABLE)
def test_iccf_table_rows(day, starts, ends, published, valid_from, valid_until, code):
    period = period_for("iccf", day)
    assert (period.starts_on, period.ends_on) == (starts, ends)
    assert period.list_published_on == published
    assert (period.valid_from, period.valid_until) == (valid_from, valid_until)
    assert period.code == code
    assert period_by_code("iccf", code) == period


def test_iccf_report_deadline_is_one_month_before_validity():
    assert period_by_code("iccf", "2026Q1").report_deadline == D(2025, 12, 1)
    assert period_by_code("iccf", "2026Q2").report_deadline == D(2026, 3, 1)
    assert period_by_code("iccf", "2026Q3").report_deadline == D(2026, 6, 1)
    assert period_by_code("iccf", "2026Q4").report_deadline == D(2026, 9, 1)


def test_iccf_window_edges_and_leap_february():
    assert period_for("iccf", D(2025, 9, 1)).code == "2026Q1"
    assert period_for("iccf", D(2025, 8, 31)).code == "2025Q4"
    assert period_for("iccf", D(2025, 11, 30)).code == "2026Q1"
    assert period_for("iccf", D(2025, 12, 1)).code == "2026Q2"
    assert period_for("iccf", D(2028, 2, 29)).code == "2028Q2"
    assert period_for("iccf", D(2028, 2, 29)).ends_on == D(2028, 2, 29)
    assert period_for("iccf", D(2028, 3, 1)).code == "2028Q3"


def test_iccf_game_finished_on_last_day_of_window_reported_same_day():
    result = iccf_period_for_report(D(2025, 11, 30))
    assert result.period.code == "2026Q1"
    assert not result.late


# "29 vs 31 days": counted before the day the list becomes VALID (rules 3/4 count the month from
# there). The game finished on the last day of the window; reported 31 days before validity it
# meets the deadline, 29 days before it is late and rolls into the next period.
@pytest.mark.parametrize(
    "last_window_day, valid_from, code, next_code",
    [
        (D(2025, 11, 30), D(2026, 1, 1), "2026Q1", "2026Q2"),
        (D(2026, 2, 28), D(2026, 4, 1), "2026Q2", "2026Q3"),
        (D(2026, 5, 31), D(2026, 7, 1), "2026Q3", "2026Q4"),
        (D(2026, 8, 31), D(2026, 10, 1), "2026Q4", "2027Q1"),
    ],
)
def test_iccf_reported_29_vs_31_days_before_validity(last_window_day, valid_from, code, next_code):
    early = iccf_period_for_report(valid_from - timedelta(days=31), finished_on=last_window_day)
    late = iccf_period_for_report(valid_from - timedelta(days=29), finished_on=last_window_day)
    assert (early.period.code, early.late) == (code, False)
    assert (late.period.code, late.late) == (next_code, True)
    assert "rolls into " + next_code in late.reason
    assert "after its deadline" in late.reason


def test_iccf_report_on_the_deadline_day():
    # Finished 30 Nov, reported 1 Dec: exactly one month before 1 Jan -> still in that list.
    on_time = iccf_period_for_report(D(2025, 12, 1), finished_on=D(2025, 11, 30))
    assert (on_time.period.code, on_time.late) == ("2026Q1", False)
    # Finished and reported on 1 Dec: the game belongs to the Dec-Feb window.
    next_window = iccf_period_for_report(D(2025, 12, 1))
    assert (next_window.period.code, next_window.late) == ("2026Q2", False)
    # Finished in October, reported on 2 Mar (after the 1 Dec deadline, and even after 1 Mar):
    # late, into the window containing the report date.
    very_late = iccf_period_for_report(D(2026, 3, 2), finished_on=D(2025, 10, 1))
    assert (very_late.period.code, very_late.late) == ("2026Q3", True)


def test_iccf_finish_after_report_is_an_error():
    with pytest.raises(EngineInputError) as error:
        iccf_period_for_report(D(2025, 11, 1), finished_on=D(2025, 11, 2))
    assert error.value.where == "finished_on"


def test_iccf_publication_day_is_a_setting():
    period = period_for("iccf", D(2025, 10, 1), params=CalendarParams(iccf_publication_day=20))
    assert period.list_published_on == D(2025, 12, 20)


# --- WFCC -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "last_day_of_quarter, list_day, code",
    [
        (D(2025, 12, 31), D(2026, 1, 1), "2026Q1"),
        (D(2026, 3, 31), D(2026, 4, 1), "2026Q2"),
        (D(2026, 6, 30), D(2026, 7, 1), "2026Q3"),
        (D(2026, 9, 30), D(2026, 10, 1), "2026Q4"),
    ],
)
def test_wfcc_lists_from_tournaments_completed_by_quarter_end(last_day_of_quarter, list_day, code):
    period = period_for("wfcc", last_day_of_quarter)
    assert period.code == code
    assert period.ends_on == period.report_deadline == last_day_of_quarter
    assert period.list_published_on == period.valid_from == list_day
    assert period_for("wfcc", list_day).code != code


def test_wfcc_tournament_spanning_two_quarters():
    placement = wfcc_period_for_tournament(D(2026, 3, 28), D(2026, 4, 2))
    # Counted in the period in which it ends (Apr-Jun 2026 -> list of 1 Jul 2026) ...
    assert placement.counted_in.code == "2026Q3"
    assert placement.counted_in.valid_from == D(2026, 7, 1)
    # ... rated with the list valid at its start (the list of 1 Jan 2026).
    assert placement.rated_with.code == "2026Q1"
    assert placement.rated_with.valid_from == D(2026, 1, 1)


def test_wfcc_tournament_within_one_quarter_uses_previous_list():
    placement = wfcc_period_for_tournament(D(2026, 5, 9), D(2026, 5, 10))
    assert placement.counted_in.code == "2026Q3"
    assert placement.rated_with.code == "2026Q2"


def test_wfcc_tournament_starting_on_a_list_day_uses_that_list():
    placement = wfcc_period_for_tournament(D(2026, 4, 1), D(2026, 4, 1))
    assert placement.rated_with.valid_from == D(2026, 4, 1)


def test_wfcc_report_after_quarter_end_rolls_on():
    on_time = wfcc_period_for_tournament(D(2026, 3, 30), D(2026, 3, 31), reported_on=D(2026, 3, 31))
    late = wfcc_period_for_tournament(D(2026, 3, 30), D(2026, 3, 31), reported_on=D(2026, 4, 2))
    assert on_time.counted_in.valid_from == D(2026, 4, 1)
    assert late.counted_in.valid_from == D(2026, 7, 1)
    assert late.rated_with == on_time.rated_with


def test_wfcc_end_before_start_is_an_error():
    with pytest.raises(EngineInputError):
        wfcc_period_for_tournament(D(2026, 3, 2), D(2026, 3, 1))


def test_wfcc_expiry_after_five_years():
    assert not wfcc_expired(D(2021, 3, 15), D(2026, 1, 1))
    assert wfcc_expired(D(2021, 3, 15), D(2026, 4, 1))
    assert wfcc_expired(D(2021, 4, 1), D(2026, 4, 1))  # exactly five years
    assert not wfcc_expired(D(2021, 4, 2), D(2026, 4, 1))
    assert wfcc_expired(D(2020, 2, 29), D(2025, 2, 28))  # leap day: five years end on 28 Feb
    assert not wfcc_expired(D(2020, 2, 29), D(2025, 2, 27))


def test_wfcc_accumulation_adds_each_rounded_change():
    # 2000 + 12.35 (12.345 half-up) + (-3.34) (-3.335 away from zero) = 2009.01
    assert wfcc_next_list_rating(2000.0, [12.345, -3.335]) == 2009.01
    assert wfcc_next_list_rating(2134.56, []) == 2134.56
    # float summation would give 0.30000000000000004 + 2000
    assert wfcc_next_list_rating(2000.0, [0.1, 0.2]) == 2000.3


# --- EGF ------------------------------------------------------------------------------------------


def test_egf_order_by_end_then_start_then_code():
    tournaments = [
        (D(2026, 3, 8), D(2026, 3, 7), "T260307B"),
        (D(2026, 3, 8), D(2026, 3, 7), "T260307A"),
        (D(2026, 3, 8), D(2026, 3, 1), "T260301A"),
        (D(2026, 3, 2), D(2026, 2, 28), "T260228A"),
    ]
    ordered = sorted(tournaments, key=lambda t: egf_tournament_order_key(*t))
    assert [code for _, _, code in ordered] == ["T260228A", "T260301A", "T260307A", "T260307B"]


@pytest.mark.parametrize(
    "grade, last, list_day, active",
    [
        # dan/pro: two years, the list's own year not counted -> year >= Y - 2
        ("3d", D(2024, 1, 1), D(2026, 12, 1), True),
        ("3d", D(2023, 12, 31), D(2026, 1, 1), False),
        ("1P", D(2024, 6, 1), D(2026, 6, 1), True),
        ("7D", D(2023, 12, 31), D(2026, 6, 1), False),
        # 1-10 kyu: 12 months, the list's month not counted -> month >= M - 12
        ("5k", D(2025, 6, 1), D(2026, 6, 30), True),
        ("10k", D(2025, 5, 31), D(2026, 6, 1), False),
        ("1K", D(2025, 6, 30), D(2026, 6, 1), True),
        # 11-20 kyu and weaker: 6 months -> month >= M - 6
        ("11k", D(2025, 12, 1), D(2026, 6, 15), True),
        ("11k", D(2025, 11, 30), D(2026, 6, 15), False),
        ("30k", D(2025, 12, 31), D(2026, 6, 1), True),
        ("15", D(2025, 11, 30), D(2026, 6, 1), False),  # bare number = kyu
        ("10k", D(2025, 11, 30), D(2026, 6, 1), True),  # the same date keeps a 10 kyu
    ],
)
def test_egf_inactivity(grade, last, list_day, active):
    assert egf_is_active(grade, last, list_day) is active


@pytest.mark.parametrize("grade", ["", "0k", "3x", "100k", "d3", "-1k"])
def test_egf_bad_grade(grade):
    with pytest.raises(EngineInputError) as error:
        egf_is_active(grade, D(2026, 1, 1), D(2026, 2, 1))
    assert error.value.where == "grade"


def test_egf_snapshot_schedule_is_a_setting():
    quarterly = CalendarParams(egf_snapshot_months=3)
    period = period_for("egf", D(2026, 5, 20), params=quarterly)
    assert (period.code, period.starts_on, period.ends_on) == (
        "2026-04",
        D(2026, 4, 1),
        D(2026, 6, 30),
    )
    assert period.list_published_on == D(2026, 7, 1)
    assert period.valid_until == D(2026, 9, 30)


# --- PlayChess ------------------------------------------------------------------------------------


def test_playchess_monthly_batch():
    period = period_for("playchess", D(2026, 3, 31))
    assert period.code == "2026-03"
    assert (period.starts_on, period.ends_on) == (D(2026, 3, 1), D(2026, 3, 31))
    assert period.list_published_on == period.valid_from == D(2026, 4, 1)
    assert period.valid_until == D(2026, 4, 30)
    assert period.report_deadline is None
    assert period_for("playchess", D(2026, 4, 1)).code == "2026-04"


def test_playchess_two_month_batches():
    params = CalendarParams(playchess_batch_months=2)
    period = period_for("playchess", D(2026, 2, 28), params=params)
    assert (period.code, period.starts_on, period.ends_on) == (
        "2026-01",
        D(2026, 1, 1),
        D(2026, 2, 28),
    )
    assert next_period(period, params=params).code == "2026-03"
    with pytest.raises(EngineInputError) as error:
        period_by_code("playchess", "2026-02", params=params)
    assert "2026-01" in str(error.value)


@pytest.mark.parametrize("months", [0, 13, 1.0, True])
def test_bad_batch_length(months):
    with pytest.raises(EngineInputError):
        CalendarParams(playchess_batch_months=months)


# --- codes, neighbours, runs, list validity -------------------------------------------------------


@pytest.mark.parametrize(
    "system, code",
    [("iccf", "2026Q5"), ("iccf", "2026-01"), ("wfcc", "26Q1"), ("egf", "2026-13"),
     ("playchess", "2026Q1"), ("playchess", "0000-01"), ("iccf", "0000Q1")],
)  # fmt: skip
def test_bad_codes(system, code):
    with pytest.raises(EngineInputError) as error:
        period_by_code(system, code)
    assert error.value.where == "code"


def test_unknown_system():
    with pytest.raises(EngineInputError) as error:
        period_for("fide", D(2026, 1, 1))
    assert error.value.where == "system"


def test_neighbours_across_a_year():
    assert next_period(period_by_code("iccf", "2025Q4")).code == "2026Q1"
    assert previous_period(period_by_code("wfcc", "2026Q1")).code == "2025Q4"
    assert next_period(period_by_code("egf", "2025-12")).code == "2026-01"


def test_iccf_run_due_after_the_report_deadline():
    assert due_periods("iccf", "2025Q4", D(2025, 12, 1)) == ()
    assert [p.code for p in due_periods("iccf", "2025Q4", D(2025, 12, 2))] == ["2026Q1"]
    # catching up after a pause, oldest first
    codes = [p.code for p in due_periods("iccf", "2025Q2", D(2026, 3, 2))]
    assert codes == ["2025Q3", "2025Q4", "2026Q1", "2026Q2"]
    # a fresh federation starts with the latest due period
    assert [p.code for p in due_periods("iccf", None, D(2025, 12, 2))] == ["2026Q1"]
    assert [p.code for p in due_periods("iccf", None, D(2025, 12, 1))] == ["2025Q4"]


def test_wfcc_playchess_egf_runs_due_on_the_list_day():
    assert due_periods("wfcc", "2025Q4", D(2025, 12, 31)) == ()
    assert [p.code for p in due_periods("wfcc", "2025Q4", D(2026, 1, 1))] == ["2026Q1"]
    assert [p.code for p in due_periods("playchess", "2026-02", D(2026, 4, 1))] == ["2026-03"]
    assert [p.code for p in due_periods("egf", "2026-01", D(2026, 4, 1))] == ["2026-02", "2026-03"]
    assert due_periods("egf", "2026-03", D(2026, 4, 1)) == ()


def test_list_valid_on():
    lists = [D(2026, 4, 1), D(2025, 10, 1), D(2026, 1, 1)]
    assert list_valid_on(lists, D(2026, 4, 1)) == D(2026, 4, 1)
    assert list_valid_on(lists, D(2026, 3, 31)) == D(2026, 1, 1)
    assert list_valid_on(lists, D(2030, 1, 1)) == D(2026, 4, 1)
    assert list_valid_on(lists, D(2025, 9, 30)) is None
    assert list_valid_on([], D(2026, 1, 1)) is None


def test_add_months_clamps_to_month_end():
    assert add_months(D(2026, 1, 31), 1) == D(2026, 2, 28)
    assert add_months(D(2028, 1, 31), 1) == D(2028, 2, 29)
    assert add_months(D(2026, 3, 31), -1) == D(2026, 2, 28)
    assert add_months(D(2026, 1, 1), -1) == D(2025, 12, 1)
    assert add_months(D(2026, 1, 15), 24) == D(2028, 1, 15)
