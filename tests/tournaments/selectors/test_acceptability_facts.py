"""The facts the rules see are the rows in the database, read in a constant number of queries."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.tournaments import acceptability_world as w
from tournaments.acceptability import Status
from tournaments.acceptability_report import evaluate_event, reports_for
from tournaments.models import Event, Game, Problem, Result, TimeSystem, Transmission
from tournaments.selectors import event_facts, facts_for_events, wfcc_rounds

pytestmark = pytest.mark.django_db


def _status(event, rule_id, today=w.TODAY):
    report = evaluate_event(event, today=today)
    return next(r for r in report.results if r.rule_id == rule_id)


def _queries(events) -> int:
    with CaptureQueriesContext(connection) as ctx:
        reports_for(
            Event.objects.filter(pk__in=[e.pk for e in events]).select_related("federation"),
            today=w.TODAY,
        )
    return len(ctx)


def test_query_count_does_not_grow_with_events_or_rows():
    feds = {s: w.federation(s, s) for s in ("iccf", "egf", "playchess", "wfcc")}
    small = [
        w.iccf_event(feds["iccf"], "I1", games=1),
        w.egf_event(feds["egf"], "E1"),
        w.playchess_event(feds["playchess"], "P1", games=1),
        w.wfcc_event(feds["wfcc"], "W1", problems=12, solvers=2),
    ]
    n_small = _queries(small)
    big = small + [
        w.iccf_event(feds["iccf"], "I2", games=12),
        w.egf_event(feds["egf"], "E2"),
        w.playchess_event(feds["playchess"], "P2", games=12),
        w.wfcc_event(feds["wfcc"], "W2", problems=14, solvers=10, rated=0),
    ]
    assert _queries(big) == n_small
    assert n_small <= 10


def test_iccf_facts_from_the_event_and_its_games():
    fed = w.federation("iccf", "iccf")
    e = w.iccf_event(fed, days=19, moves=10)
    assert _status(e, "ICCF-1.3-TIME").status is Status.FAIL
    assert "19 days for the first 10 moves (postal); at least 20 are required" in (
        _status(e, "ICCF-1.3-TIME").message
    )
    e.reflection_days = 20
    e.save()
    assert _status(e, "ICCF-1.3-TIME").status is Status.PASS
    assert _status(e, "ICCF-1.3-WEBSERVER").status is Status.PASS
    e.transmission = Transmission.POSTAL_OFF
    e.save()
    assert _status(e, "ICCF-1.3-WEBSERVER").status is Status.FAIL
    e.transmission = Transmission.ELECTRONIC
    e.save()  # 20 days per 10 moves = 100 days for 50 moves < 150
    assert _status(e, "ICCF-1.3-TIME").message.startswith("100 days for the first 50 moves")
    assert _status(e, "ICCF-1.3-WEBSERVER").status is Status.NOT_APPLICABLE


def test_iccf_game_without_finish_date_is_placed_by_its_report_date():
    fed = w.federation("iccf", "iccf")
    e = w.iccf_event(fed, games=2)
    first, second = e.games.order_by("id")
    Game.objects.filter(pk=first.pk).update(finished_on=None, reported_on=date(2026, 12, 1))
    Game.objects.filter(pk=second.pk).update(
        finished_on=date(2026, 8, 31), reported_on=date(2026, 9, 2)
    )
    rule = _status(e, "ICCF-3")
    assert rule.status is Status.WARNING
    assert rule.facts["late_count"] == 1
    assert rule.facts["lists"] == {"2027-01-01": 1, "2027-04-01": 1}


def test_missing_iccf_facts_fail_as_data_and_name_the_field():
    fed = w.federation("iccf", "iccf")
    e = w.iccf_event(fed)
    e.transmission = ""
    e.save()
    report = evaluate_event(e, today=w.TODAY)
    assert [r.rule_id for r in report.results] == ["ICCF-DATA"]
    assert report.results[0].status is Status.FAIL
    assert "transmission" in report.results[0].message
    assert not report.acceptable


@pytest.mark.parametrize(
    ("system", "basic", "overtime", "stones", "bonus", "cls", "status"),
    [
        (TimeSystem.FISCHER, 30, None, None, 10, "B", Status.PASS),  # 30 + 2 x 10 = 50
        (TimeSystem.FISCHER, 30, None, None, 9, "B", Status.FAIL),  # 48 < 50
        (TimeSystem.CANADIAN, 40, 300, 30, None, "B", Status.PASS),  # 40 + 60 x 5/30 = 50
        (TimeSystem.CANADIAN, 40, 300, 31, None, "B", Status.FAIL),
        (TimeSystem.BYOYOMI, 60, 20, None, None, "A", Status.PASS),  # 60 + 45 x 20/60 = 75
        (TimeSystem.BYOYOMI, 60, 19, None, None, "A", Status.FAIL),
        (TimeSystem.SUDDEN_DEATH, 30, None, None, None, "C", Status.PASS),
    ],
)
def test_egf_time_control_from_the_event_fields(
    system, basic, overtime, stones, bonus, cls, status
):
    fed = w.federation("egf", "egf")
    e = w.egf_event(
        fed,
        rating_class=cls,
        basic=basic,
        system=system,
        bonus=bonus,
        overtime_seconds=overtime,
        overtime_moves=stones,
    )
    assert _status(e, "EGF-CLASS").status is status


def test_egf_recognition_attestation_is_read_from_the_database():
    fed = w.federation("egf", "egf")
    people = w.officials(fed)
    e = w.egf_event(fed)
    assert _status(e, "EGF-RECOGNIZED").status is Status.NEEDS_ATTESTATION
    w.attest(e, people["director"], "EGF-RECOGNIZED")
    assert _status(e, "EGF-RECOGNIZED").status is Status.PASS
    assert evaluate_event(e, today=w.TODAY).acceptable


def test_egf_wfcc_category_on_a_go_event_is_a_data_failure():
    fed = w.federation("egf", "egf")
    e = w.egf_event(fed, rating_class="W40")
    assert [r.rule_id for r in evaluate_event(e, today=w.TODAY).results] == ["EGF-DATA"]


def test_playchess_unfinished_results_fail_forfeits_and_byes_are_not_games_to_rate():
    fed = w.federation("pc", "playchess")
    e = w.playchess_event(
        fed, games=3, results=[Result.WHITE_WINS, Result.WHITE_WINS_BY_DEFAULT, Result.DRAW]
    )
    Game.objects.create(
        event=e, round=2, white=e.games.first().white, black=None, result=Result.BYE_WIN
    )
    assert _status(e, "PLAYCHESS-RESULT").message == "all 2 games have a finished result"
    assert _status(e, "PLAYCHESS-PLAYERS").status is Status.PASS
    Game.objects.filter(event=e, result=Result.DRAW).update(result=Result.UNKNOWN)
    rule = _status(e, "PLAYCHESS-RESULT")
    assert rule.status is Status.FAIL
    assert rule.message.startswith("1 of 2 games without a finished result")


def test_wfcc_facts_from_problems_scores_and_the_list_valid_at_the_start():
    fed = w.federation("wfcc", "wfcc")
    people = w.officials(fed)
    e = w.wfcc_event(fed, problems=12, solvers=12, rated=10)
    w.attest(e, people["officer"], "WFCC-R3Q", "WFCC-R12", "WFCC-KT")
    report = evaluate_event(e, today=w.TODAY)
    assert report.rules_pass, report.summary()
    assert _status(e, "WFCC-R2").message == "10 solvers with a full rating"
    assert _status(e, "WFCC-R4").message == "12 problems"


def test_wfcc_ratings_come_from_the_newest_list_valid_at_the_start_and_half_ratings_do_not_count():
    fed = w.federation("wfcc", "wfcc")
    e = w.wfcc_event(fed, rated=0)
    solvers = sorted(
        {s.solver for p in e.problems.all() for s in p.scores.all()}, key=lambda p: p.pk
    )
    w.publish_list(
        fed, {s: 2400 for s in solvers}, valid_from=date(2026, 1, 1), half=frozenset(solvers[:3])
    )
    # a newer list becomes valid after the start: not used
    w.publish_list(fed, {s: 2400 for s in solvers}, valid_from=date(2026, 7, 1))
    assert _status(e, "WFCC-R2").facts["full_rated"] == 9
    assert _status(e, "WFCC-R2").status is Status.FAIL
    assert _status(e, "WFCC-KT").facts["category"] == "W25"  # 9 solvers rated 2400 >= 2300


def test_wfcc_eleven_problems_in_the_database_fail_r4_and_four_groups_fail_r6():
    fed = w.federation("wfcc", "wfcc")
    e = w.wfcc_event(fed, problems=11)
    assert _status(e, "WFCC-R4").message == "11 problems; at least 12 are required"
    Problem.objects.filter(event=e, group__in=["helpmate", "selfmate"]).update(group="endgame")
    assert _status(e, "WFCC-R6").status is Status.FAIL
    assert _status(e, "WFCC-R7").status is Status.FAIL  # 2 + 2 + 2 + ... endgames


def test_wfcc_rounds_spread_over_the_declared_days():
    e = Event(start=date(2026, 5, 16), end=date(2026, 5, 17), rounds=3, days=2)
    assert [(r.number, r.held_on) for r in wfcc_rounds(e)] == [
        (1, date(2026, 5, 16)),
        (2, date(2026, 5, 16)),
        (3, date(2026, 5, 17)),
    ]
    e.days = 3  # more days than the event spans: the last round falls after the end
    assert wfcc_rounds(e)[-1].held_on == date(2026, 5, 18)
    e.rounds = None
    assert wfcc_rounds(e) == ()


def test_wfcc_declared_days_beyond_the_end_fail_r8():
    fed = w.federation("wfcc", "wfcc")
    e = w.wfcc_event(fed, days=2)  # 2 rounds on 2 days, but the event ends on its start day
    rule = _status(e, "WFCC-R8")
    assert rule.status is Status.FAIL
    assert "round 2 on 2026-05-17 is outside 2026-05-16..2026-05-16" in rule.message


def test_wfcc_fairy_announcement_is_the_latest_problem_date_or_the_events():
    fed = w.federation("wfcc", "wfcc")
    e = w.wfcc_event(fed)
    Problem.objects.filter(event=e, number__in=[1, 2]).update(group="fairy")
    assert _status(e, "WFCC-R10").status is Status.FAIL  # no date and the deadline passed
    deadline = date(2026, 3, 16)  # two months before 16 May
    Problem.objects.filter(event=e, number=1).update(fairy_elements_announced_on=deadline)
    e.fairy_announced_on = deadline + timedelta(days=1)  # problem 2 takes the event's date
    e.save()
    assert _status(e, "WFCC-R10").status is Status.FAIL
    e.fairy_announced_on = deadline
    e.save()
    assert _status(e, "WFCC-R10").status is Status.PASS


def test_wfcc_documentation_day_5_passes_day_6_fails_through_the_database():
    fed = w.federation("wfcc", "wfcc")
    e = w.wfcc_event(fed, documentation_sent_on=w.START + timedelta(days=5))
    assert _status(e, "WFCC-R11").status is Status.PASS
    e.documentation_sent_on = w.START + timedelta(days=6)
    e.save()
    assert _status(e, "WFCC-R11").status is Status.FAIL
    e.multi_location = True
    e.documentation_sent_on = w.START + timedelta(days=10)
    e.save()
    assert _status(e, "WFCC-R11").status is Status.PASS


def test_scores_are_exact_decimals_from_the_database():
    fed = w.federation("wfcc", "wfcc")
    e = w.wfcc_event(fed, solvers=2)
    facts = event_facts(e).facts
    assert {s.points for s in facts.scores} == {Decimal("5.00"), Decimal("2.50")}
    assert all(isinstance(s.points, Decimal) for s in facts.scores)


def test_attestations_and_overrides_are_listed_with_names_and_order():
    fed = w.federation("egf", "egf")
    people = w.officials(fed)
    e = w.egf_event(fed)
    w.attest(e, people["director"], "EGF-RECOGNIZED")
    facts = facts_for_events([Event.objects.select_related("federation").get(pk=e.pk)])[e.pk]
    assert [(a.rule_id, a.by) for a in facts.attestations] == [("EGF-RECOGNIZED", "egf-director")]
    assert facts.overrides == ()
