from __future__ import annotations

import json
from dataclasses import replace
from datetime import date, timedelta
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.engines.core.errors import EngineInputError
from tests.tournaments.acceptability.wfcc_factory import (
    SIX_GROUPS,
    START,
    TODAY,
    passing_event,
    problems,
    scores,
    solvers,
)
from tournaments.acceptability import check_event, is_acceptable
from tournaments.acceptability.types import Status
from tournaments.acceptability.wfcc import (
    ProblemFacts,
    RoundFacts,
    ScoreFacts,
    kt_rule,
    n1_rated_countries,
    n2_strong_participants,
    n3_single_location,
    norms_possible,
    propose_category,
    r1_announcement,
    r2_full_rated,
    r3_publication,
    r3_quality,
    r4_problem_count,
    r5_groups_known,
    r6_groups_represented,
    r7_per_group,
    r8_rounds,
    r9_points,
    r10_fairy,
    r11_documentation,
    r12_sheets,
)


def by_id(results):
    return {r.rule_id: r for r in results}


def test_passing_event_passes_every_blocking_rule_and_is_acceptable():
    results = check_event("wfcc", passing_event(), TODAY)
    ids = [r.rule_id for r in results]
    assert ids[:13] == [
        "WFCC-R1", "WFCC-R2", "WFCC-R3", "WFCC-R3Q", "WFCC-R4", "WFCC-R5", "WFCC-R6",
        "WFCC-R7", "WFCC-R8", "WFCC-R9", "WFCC-R10", "WFCC-R11", "WFCC-R12",
    ]  # fmt: skip
    statuses = {r.rule_id: r.status for r in results}
    assert statuses["WFCC-R10"] is Status.NOT_APPLICABLE  # no fairy problems
    unmet_norms = ("WFCC-N1", "WFCC-N2")
    assert all(
        s is Status.PASS for rid, s in statuses.items() if rid not in unmet_norms + ("WFCC-R10",)
    )
    # 12 solvers rated 2000-2110: no norms possible (N1 wants 15, N2 five at 2350+), but unmet
    # norm conditions never block acceptance
    assert statuses["WFCC-N1"] is Status.WARNING and statuses["WFCC-N2"] is Status.WARNING
    assert is_acceptable(results)
    json.dumps([r.to_dict() for r in results])  # the --json report must serialise


# R1 ------------------------------------------------------------------------------------------


def test_r1_exactly_two_months_before_passes_one_day_later_warns():
    assert r1_announcement(passing_event(announced_on=date(2026, 3, 16)), TODAY).status is (
        Status.PASS
    )
    late = r1_announcement(passing_event(announced_on=date(2026, 3, 17)), TODAY)
    assert late.status is Status.WARNING
    assert late.message == (
        "announced 60 days before the start on 2026-05-16, after 2026-03-16; "
        "the rules ask for at least two months"
    )


def test_r1_exactly_7_days_before_warns_6_days_fails():
    assert r1_announcement(passing_event(announced_on=date(2026, 5, 9)), TODAY).status is (
        Status.WARNING
    )
    fail = r1_announcement(passing_event(announced_on=date(2026, 5, 10)), TODAY)
    assert fail.status is Status.FAIL
    assert fail.message == (
        "announced 6 days before the start on 2026-05-16; at least 7 are required"
    )
    assert fail.facts["days_before"] == 6


def test_r1_two_months_before_a_month_end_is_clamped():
    start = date(2026, 4, 30)
    ev = passing_event(start=start, end=start, rounds=(RoundFacts(1, start), RoundFacts(2, start)))
    assert r1_announcement(replace(ev, announced_on=date(2026, 2, 28)), TODAY).status is (
        Status.PASS
    )
    assert r1_announcement(replace(ev, announced_on=date(2026, 3, 1)), TODAY).status is (
        Status.WARNING
    )


def test_r1_missing_announcement_is_pending_until_the_hard_deadline_then_fails():
    ev = passing_event(announced_on=None)
    assert r1_announcement(ev, START - timedelta(days=7)).status is Status.NEEDS_ATTESTATION
    gone = r1_announcement(ev, START - timedelta(days=6))
    assert gone.status is Status.FAIL
    assert "2026-05-09" in gone.message


# R2 ------------------------------------------------------------------------------------------


def test_r2_nine_full_rated_fail_ten_pass_half_rated_do_not_count():
    ten = solvers([2000] * 10 + [None, None])
    assert r2_full_rated(passing_event(solvers=tuple(ten))).status is Status.PASS
    nine = solvers([2000] * 9 + [None] * 3)
    res = r2_full_rated(passing_event(solvers=tuple(nine)))
    assert res.status is Status.FAIL
    assert res.message == "9 solvers with a full rating; at least 10 are required"


# R3 ------------------------------------------------------------------------------------------


def _with_published(year: int):
    ev = passing_event()
    first = replace(ev.problems[0], original=False, first_published_year=year)
    return replace(ev, problems=(first,) + ev.problems[1:])


def test_r3_published_six_calendar_years_before_passes_five_fails():
    assert r3_publication(_with_published(2020)).status is Status.PASS  # 2026 - 2020 = 6 > 5
    res = r3_publication(_with_published(2021))  # 2026 - 2021 = 5, not more than 5
    assert res.status is Status.FAIL
    assert "1.1 (2021)" in res.message and "published in 2020 or earlier" in res.message


def test_r3_reprint_without_year_is_bad_input():
    with pytest.raises(EngineInputError):
        ProblemFacts(round=1, number=1, group="endgame", original=False)


def test_r3_quality_and_r12_need_attestations():
    ev = passing_event(attestations=frozenset())
    assert r3_quality(ev).status is Status.NEEDS_ATTESTATION
    assert r12_sheets(ev).status is Status.NEEDS_ATTESTATION
    assert not is_acceptable(check_event("wfcc", ev, TODAY))
    ev = passing_event(attestations={"WFCC-R3Q", "WFCC-R12"})
    assert r3_quality(ev).status is Status.PASS and r12_sheets(ev).status is Status.PASS


# R4-R7 -----------------------------------------------------------------------------------------


def test_r4_eleven_problems_fail_twelve_pass():
    eleven = problems([g for g in SIX_GROUPS for _ in range(2)][:11])
    res = r4_problem_count(passing_event(problems=tuple(eleven)))
    assert res.status is Status.FAIL
    assert res.message == "11 problems; at least 12 are required"
    assert r4_problem_count(passing_event()).status is Status.PASS


def test_r5_unknown_group_fails():
    groups = [g for g in SIX_GROUPS for _ in range(2)]
    groups[3] = "study"
    res = r5_groups_known(passing_event(problems=tuple(problems(groups))))
    assert res.status is Status.FAIL
    assert "1 problem outside the seven groups: 1.4 (study)" in res.message


def test_r6_four_groups_fail_five_pass():
    four = ["twomover", "threemover", "endgame", "helpmate"] * 3  # 12 problems, 3 each
    res = r6_groups_represented(passing_event(problems=tuple(problems(four))))
    assert res.status is Status.FAIL
    assert res.message.endswith("; at least 5 are required")
    assert res.message.startswith("4 groups represented")
    five = ["twomover", "threemover", "endgame", "helpmate", "selfmate"] * 2
    five += ["twomover", "endgame"]
    assert r6_groups_represented(passing_event(problems=tuple(problems(five)))).status is (
        Status.PASS
    )


def test_r7_three_in_a_group_pass_four_fail():
    three = ["endgame"] * 3 + ["twomover", "threemover", "moremover", "helpmate", "selfmate"] * 2
    three = three[:12]
    assert r7_per_group(passing_event(problems=tuple(problems(three)))).status is Status.PASS
    four = ["endgame"] * 4 + ["twomover", "threemover", "moremover", "helpmate"] * 2
    res = r7_per_group(passing_event(problems=tuple(problems(four))))
    assert res.status is Status.FAIL
    assert res.message == "4 endgames; at most 3 problems per group are allowed"
    fairy = ["fairy"] * 4 + ["twomover", "threemover", "moremover", "helpmate"] * 2
    assert r7_per_group(passing_event(problems=tuple(problems(fairy)))).message.startswith(
        "4 fairy problems;"
    )


# R8 ------------------------------------------------------------------------------------------


def test_r8_round_outside_event_dates_fails():
    ev = passing_event(rounds=(RoundFacts(1, START), RoundFacts(2, START + timedelta(days=1))))
    res = r8_rounds(ev)
    assert res.status is Status.FAIL
    assert "round 2 on 2026-05-17 is outside 2026-05-16..2026-05-16" in res.message


def test_r8_two_days_allowed_and_missing_round_scores_fail():
    end = START + timedelta(days=1)
    ev = passing_event(end=end, rounds=(RoundFacts(1, START), RoundFacts(2, end)))
    ok = r8_rounds(ev)
    assert ok.status is Status.PASS and ok.facts["days"] == 2
    only_round_1 = tuple(s for s in ev.scores if s.round == 1)
    res = r8_rounds(replace(ev, scores=only_round_1))
    assert res.status is Status.FAIL and "rounds without recorded scores [2]" in res.message


def test_r8_problem_in_undeclared_round_fails():
    res = r8_rounds(passing_event(rounds=(RoundFacts(1, START),)))
    assert res.status is Status.FAIL and "problems in undeclared rounds [2]" in res.message


def test_r8_scores_for_unknown_problems_or_solvers_fail():
    ev = passing_event()
    stray = ev.scores + (ScoreFacts(99, 1, 1, Decimal(1)), ScoreFacts(1, 2, 9, Decimal(1)))
    res = r8_rounds(replace(ev, scores=stray))
    assert res.status is Status.FAIL
    assert "scores for unknown problems ['2.9']" in res.message
    assert "scores for unknown solvers ['99']" in res.message


# R9 ------------------------------------------------------------------------------------------


def _with_score(points: str):
    ev = passing_event()
    return replace(ev, scores=(ScoreFacts(1, 1, 1, Decimal(points)),) + ev.scores[1:])


def test_r9_five_point_zero_zero_passes_five_point_zero_zero_one_fails():
    assert r9_points(_with_score("5.00")).status is Status.PASS
    res = r9_points(_with_score("5.001"))
    assert res.status is Status.FAIL
    assert "1 score outside 0..5 points or with more than two decimals: 5.001" in res.message


@pytest.mark.parametrize(
    ("points", "ok"),
    [("4.99", True), ("4.995", False), ("0", True), ("-0.01", False), ("5.01", False),
     ("2.500", True)],
)  # fmt: skip
def test_r9_score_bounds_and_decimals(points, ok):
    assert (r9_points(_with_score(points)).status is Status.PASS) is ok


def test_r9_problem_worth_other_than_five_fails():
    ev = passing_event()
    first = replace(ev.problems[0], max_points=Decimal(4))
    res = r9_points(replace(ev, problems=(first,) + ev.problems[1:]))
    assert res.status is Status.FAIL and "1.1 worth 4" in res.message


def test_r9_float_points_are_bad_input():
    with pytest.raises(EngineInputError):
        ScoreFacts(1, 1, 1, 2.5)


@settings(max_examples=100, deadline=None)
@given(st.integers(-2000, 800000), st.integers(0, 5))
def test_r9_points_property(mantissa, places):
    points = Decimal(mantissa).scaleb(-places)
    # independent statement: in [0, 5] and a whole number of hundredths
    expected = 0 <= mantissa <= 5 * 10**places and (mantissa * 100) % 10**places == 0
    assert (r9_points(_with_score(str(points))).status is Status.PASS) is expected


# R10 -----------------------------------------------------------------------------------------


def _with_fairy(announced):
    ev = passing_event(fairy_announced_on=announced)
    first = replace(ev.problems[0], group="fairy")
    return replace(ev, problems=(first,) + ev.problems[1:])


def test_r10_fairy_announced_exactly_two_months_before_passes_a_day_later_fails():
    assert r10_fairy(passing_event(), TODAY).status is Status.NOT_APPLICABLE
    assert r10_fairy(_with_fairy(date(2026, 3, 16)), TODAY).status is Status.PASS
    res = r10_fairy(_with_fairy(date(2026, 3, 17)), TODAY)
    assert res.status is Status.FAIL
    assert res.message == (
        "fairy elements announced on 2026-03-17, after 2026-03-16 "
        "(two months before the start on 2026-05-16)"
    )


def test_r10_unrecorded_fairy_announcement():
    assert r10_fairy(_with_fairy(None), date(2026, 3, 16)).status is Status.NEEDS_ATTESTATION
    assert r10_fairy(_with_fairy(None), date(2026, 3, 17)).status is Status.FAIL


# R11 -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("multi", "days", "status"),
    [(False, 5, Status.PASS), (False, 6, Status.FAIL), (True, 10, Status.PASS),
     (True, 11, Status.FAIL)],
)  # fmt: skip
def test_r11_documentation_day_5_vs_6_and_day_10_multi_location(multi, days, status):
    ev = passing_event(multi_location=multi, documentation_sent_on=START + timedelta(days=days))
    assert r11_documentation(ev, TODAY).status is status


def test_r11_message_names_the_days():
    ev = passing_event(documentation_sent_on=START + timedelta(days=6))
    assert r11_documentation(ev, TODAY).message == (
        "documentation sent 6 days after the end; at most 5 are allowed for a tournament"
    )


def test_r11_unsent_documentation_pending_then_failing():
    ev = passing_event(documentation_sent_on=None)
    pending = r11_documentation(ev, START + timedelta(days=5))
    assert pending.status is Status.NEEDS_ATTESTATION
    assert "due by 2026-05-21" in pending.message
    assert r11_documentation(ev, START + timedelta(days=6)).status is Status.FAIL


# KT category -----------------------------------------------------------------------------------


def _rated(ratings, countries=None, **changes):
    return passing_event(solvers=tuple(solvers(ratings, countries)), **changes)


@pytest.mark.parametrize(
    ("ratings", "code", "kt"),
    [
        ([2300] * 5 + [2000] * 7, "W25", "2.5"),
        ([2300] * 4 + [2299.99] + [2000] * 7, "W20", "2"),
        ([2200] * 5 + [2000] * 7, "W20", "2"),
        ([2100] * 5 + [2000] * 7, "W15", "1.5"),
        ([2100] * 4 + [2000] * 8, "W10", "1"),
    ],
)
def test_kt_proposal_under_wcsc_rules(ratings, code, kt):
    got_code, got_kt, _reason = propose_category(_rated(ratings))
    assert (got_code, got_kt) == (code, Decimal(kt))


def test_kt_championships():
    assert propose_category(passing_event(championship="WCSC"))[:2] == ("W40", Decimal(4))
    assert propose_category(passing_event(championship="ECSC"))[:2] == ("W40", Decimal(4))
    assert propose_category(passing_event(championship="WCSC_TYPE_NORMS"))[:2] == (
        "W30",
        Decimal(3),
    )
    open_ = passing_event(rules="O", championship="WCCC_OPEN")
    assert propose_category(open_)[:2] == ("O20", Decimal(2))
    with pytest.raises(EngineInputError):
        passing_event(rules="O", championship="WCSC")
    with pytest.raises(EngineInputError):
        passing_event(rules="W", championship="ECSC_OPEN")


def test_kt_o15_boundaries():
    strong = [2350] * 5 + [2000] * 10  # 15 rated
    assert propose_category(_rated(strong, rules="O"))[0] == "O15"
    assert propose_category(_rated(strong[1:], rules="O"))[0] == "O10"  # 14 rated, 4 strong
    assert propose_category(_rated([2350] * 4 + [2349] + [2000] * 10, rules="O"))[0] == "O10"
    two_countries = ["CZ", "DE"]
    code, _, reason = propose_category(_rated(strong, two_countries, rules="O"))
    assert code == "O10"
    assert reason == (
        "15 rated solvers from 2 countries, 5 rated 2350 or higher "
        "(O15 needs 15 from 3 countries and 5)"
    )
    half_rated = [2350] * 5 + [2000] * 9 + [None]
    assert propose_category(_rated(half_rated, rules="O"))[0] == "O10"


def test_kt_rule_needs_the_representatives_confirmation():
    res = kt_rule(passing_event(attestations={"WFCC-R3Q", "WFCC-R12"}))
    assert res.status is Status.NEEDS_ATTESTATION
    assert res.facts["category"] == "W10" and res.facts["kt"] == "1"


# Norms -----------------------------------------------------------------------------------------


def test_n1_fifteen_full_rated_from_three_countries():
    assert n1_rated_countries(_rated([2000] * 15)).status is Status.PASS
    res = n1_rated_countries(_rated([2000] * 14 + [None]))
    assert res.status is Status.WARNING
    assert res.message == (
        "14 solvers with a full rating from 4 countries; norms need at least 15 from at least 3 "
        "countries"
    )
    assert n1_rated_countries(_rated([2000] * 15, ["CZ", "DE"])).status is Status.WARNING


def test_n2_levels_and_n3_multi_location():
    ratings = [2550] * 4 + [2450] + [2350] * 5 + [2000] * 5
    res = n2_strong_participants(_rated(ratings))
    assert res.facts["counts"] == {"GM": 4, "IM": 5, "FM": 10}
    assert res.facts["levels"] == ["IM", "FM"]
    assert res.status is Status.PASS
    assert norms_possible(_rated(ratings)) == ["IM", "FM"]
    multi = _rated(ratings, multi_location=True)
    assert n3_single_location(multi).status is Status.WARNING
    assert norms_possible(multi) == []
    weak = n2_strong_participants(_rated([2349] * 15))
    assert weak.status is Status.WARNING and weak.facts["levels"] == []


def test_end_before_start_is_bad_input():
    with pytest.raises(EngineInputError):
        passing_event(end=START - timedelta(days=1))


def test_failing_event_is_not_acceptable_and_lists_the_failures():
    eleven = problems([g for g in SIX_GROUPS for _ in range(2)][:11])
    ev = passing_event(problems=tuple(eleven), scores=tuple(scores(eleven, 12)))
    results = by_id(check_event("wfcc", ev, TODAY))
    assert results["WFCC-R4"].status is Status.FAIL
    assert not is_acceptable(results.values())
