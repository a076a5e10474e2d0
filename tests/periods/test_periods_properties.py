"""Properties of the calendars on generated days and settings (hypothesis)."""

from __future__ import annotations

from datetime import date, timedelta

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from ratings.calendars import (
    SYSTEMS,
    CalendarParams,
    due_periods,
    list_valid_on,
    next_period,
    period_by_code,
    period_for,
    previous_period,
)
from ratings.engines.core.months import add_months
from ratings.systems.egf.calendar import is_active as egf_is_active
from ratings.systems.iccf.calendar import period_for_report as iccf_period_for_report
from ratings.systems.wfcc.calendar import has_expired as wfcc_expired
from ratings.systems.wfcc.calendar import next_list_rating as wfcc_next_list_rating
from ratings.systems.wfcc.calendar import period_for_tournament as wfcc_period_for_tournament

ONE_DAY = timedelta(days=1)
FAST = settings(max_examples=100, deadline=None)

# Period codes are accepted from FIRST_YEAR (1900); a period around 1900-01-01 (or its previous
# neighbour) is coded 1899-…, which period_by_code rightly refuses: the properties are about
# periods whose codes and neighbours' codes are accepted, so days start a year later.
days = st.dates(min_value=date(1901, 1, 1), max_value=date(2200, 12, 31))
systems = st.sampled_from(SYSTEMS)
params_st = st.builds(
    CalendarParams,
    playchess_batch_months=st.integers(1, 12),
    egf_snapshot_months=st.integers(1, 12),
    iccf_publication_day=st.integers(1, 28),
)


def window_months(system: str, params: CalendarParams) -> int:
    return {
        "iccf": 3,
        "wfcc": 3,
        "playchess": params.playchess_batch_months,
        "egf": params.egf_snapshot_months,
    }[system]


@FAST
@given(systems, days, params_st)
def test_every_day_belongs_to_exactly_one_period(system, day, params):
    period = period_for(system, day, params=params)
    after = next_period(period, params=params)
    before = previous_period(period, params=params)
    # The window contains the day, and its neighbours tile the calendar without gap or overlap,
    # so no other period contains it.
    assert period.contains(day)
    assert after.starts_on == period.ends_on + ONE_DAY
    assert before.ends_on == period.starts_on - ONE_DAY
    assert period_for(system, period.starts_on, params=params) == period
    assert period_for(system, period.ends_on, params=params) == period
    # Windows are whole calendar months of the configured length.
    assert period.starts_on.day == 1 and (period.ends_on + ONE_DAY).day == 1
    assert add_months(period.starts_on, window_months(system, params)) == period.ends_on + ONE_DAY


@FAST
@given(systems, days, params_st)
def test_neighbours_invert_and_codes_round_trip(system, day, params):
    period = period_for(system, day, params=params)
    assert next_period(previous_period(period, params=params), params=params) == period
    assert previous_period(next_period(period, params=params), params=params) == period
    assert period_by_code(system, period.code, params=params) == period
    # Codes sort as the periods do.
    assert previous_period(period, params=params).code < period.code
    assert period.code < next_period(period, params=params).code


@FAST
@given(systems, days, params_st)
def test_dates_of_a_period_are_in_order(system, day, params):
    period = period_for(system, day, params=params)
    assert period.starts_on <= period.ends_on < period.list_published_on <= period.valid_from
    assert period.valid_from <= period.valid_until
    if period.report_deadline is not None:
        assert period.ends_on <= period.report_deadline < period.valid_from
        assert period.report_deadline <= period.list_published_on
    assert period.ends_on < period.due_on <= period.valid_from
    # Lists follow each other: each is valid until the next becomes valid.
    after = next_period(period, params=params)
    assert after.valid_from == period.valid_until + ONE_DAY


@FAST
@given(days, st.integers(0, 400), params_st)
def test_iccf_assignment(reported_on, days_before, params):
    finished_on = reported_on - timedelta(days=days_before)
    plain = iccf_period_for_report(reported_on, params=params)
    assert plain.period == period_for("iccf", reported_on, params=params) and not plain.late

    result = iccf_period_for_report(reported_on, finished_on=finished_on, params=params)
    home = period_for("iccf", finished_on, params=params)
    # Eligible iff reported at least one month before the home list becomes valid.
    on_time = add_months(reported_on, 1) <= home.valid_from
    assert result.late is (not on_time)
    assert result.period == (home if on_time else period_for("iccf", reported_on, params=params))
    assert reported_on <= result.period.report_deadline
    assert result.period.starts_on >= home.starts_on


@FAST
@given(days, st.integers(0, 60), st.integers(0, 40))
def test_wfcc_placement(start, length, report_delay):
    end = start + timedelta(days=length)
    reported_on = end + timedelta(days=report_delay)
    placement = wfcc_period_for_tournament(start, end, reported_on=reported_on)
    rated_with, counted_in = placement.rated_with, placement.counted_in
    assert rated_with.valid_from <= start <= rated_with.valid_until
    assert counted_in.contains(reported_on)
    assert rated_with.ends_on < start and rated_with.code < counted_in.code
    # The same list as the generic "newest list whose validity start <= day" rule gives.
    list_days = [add_months(date(start.year - 1, 1, 1), 3 * k) for k in range(12)]
    assert list_valid_on(list_days, start) == rated_with.valid_from


@FAST
@given(days, days)
def test_wfcc_expiry(last_end, list_day):
    assume(not (last_end.month == 2 and last_end.day == 29))
    assert wfcc_expired(last_end, list_day) is (
        list_day >= last_end.replace(year=last_end.year + 5)
    )


@FAST
@given(st.integers(0, 300_000), st.lists(st.integers(-50_000, 50_000), max_size=8), st.randoms())
def test_wfcc_accumulation_in_cents(list_cents, change_cents, rng):
    expected = (list_cents + sum(change_cents)) / 100
    changes = [c / 100 for c in change_cents]
    assert wfcc_next_list_rating(list_cents / 100, changes) == expected
    rng.shuffle(changes)
    assert wfcc_next_list_rating(list_cents / 100, changes) == expected


grades = st.one_of(
    st.builds(lambda n: f"{n}k", st.integers(1, 30)),
    st.builds(lambda n: f"{n}d", st.integers(1, 9)),
    st.builds(lambda n: f"{n}p", st.integers(1, 9)),
)


def months_between(earlier: date, later: date) -> int:
    return (later.year - earlier.year) * 12 + later.month - earlier.month


@FAST
@given(grades, days, st.integers(0, 1500))
def test_egf_inactivity_windows(grade, last, gap):
    list_day = last + timedelta(days=gap)
    active = egf_is_active(grade, last, list_day)
    number, kind = int(grade[:-1]), grade[-1]
    if kind in "dp":
        assert active is (list_day.year - last.year <= 2)
    else:
        assert active is (months_between(last, list_day) <= (12 if number <= 10 else 6))
    # Stronger grades never drop out earlier.
    if egf_is_active("15k", last, list_day):
        assert egf_is_active("5k", last, list_day)
    if egf_is_active("5k", last, list_day):
        assert egf_is_active("1d", last, list_day)


# Days from which eight periods of up to twelve months back stay within the calendar's years (a
# code before FIRST_YEAR is refused, rightly: hypothesis found 1899-12 from early 1900).
days_with_history = st.dates(min_value=date(1910, 1, 1), max_value=date(2200, 12, 31))


@FAST
@given(systems, days_with_history, st.integers(0, 8), params_st)
def test_due_periods_are_the_consecutive_closed_ones(system, today, back, params):
    last_rated = period_for(system, today, params=params)
    for _ in range(back):
        last_rated = previous_period(last_rated, params=params)
    due = due_periods(system, last_rated.code, today, params=params)
    expected_first = next_period(last_rated, params=params)
    if due:
        assert due[0] == expected_first
    for earlier, later in zip(due, due[1:], strict=False):
        assert next_period(earlier, params=params) == later
    assert all(p.due_on <= today for p in due)
    after = next_period(due[-1], params=params) if due else expected_first
    assert after.due_on > today
    fresh = due_periods(system, None, today, params=params)
    assert len(fresh) == 1 and fresh[0].due_on <= today
    assert next_period(fresh[0], params=params).due_on > today


@FAST
@given(st.lists(days, max_size=12), days)
def test_list_valid_on_is_the_newest_not_after(list_days, day):
    candidates = [d for d in list_days if d <= day]
    assert list_valid_on(list_days, day) == (max(candidates) if candidates else None)
