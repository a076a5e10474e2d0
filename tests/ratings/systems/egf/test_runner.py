"""EGF runs from the database: date order, inactivity drop-out, grade resets."""

from __future__ import annotations

from datetime import date

import pytest

from federation.models import Federation, Player
from federation.permissions import COMMAND_LINE
from ratings.services import publication, runs
from tournaments.models import Event, Game


@pytest.fixture
def egf(db):
    federation = Federation.objects.create(code="egf-r", name="EGF runs", system="egf")
    players = [
        Player.objects.create(
            federation=federation, federation_player_id=str(i), surname=f"G{i}", grade=grade
        )
        for i, grade in enumerate(["15k", "15k", "2d", "2d"])
    ]
    return federation, players


def _tournament(federation, code, day, pairs, cls="A"):
    event = Event.objects.create(
        federation=federation,
        name=code,
        code=code,
        kind="individual",
        status="accepted",
        rating_class=cls,
        start=day,
        end=day,
    )
    for white, black, result in pairs:
        Game.objects.create(event=event, round=1, white=white, black=black, result=result)
    return event


def _run_and_publish(federation, code):
    run = runs.run_now(federation=federation, period_code=code, by=COMMAND_LINE)
    assert run.status == "succeeded", run.error
    return publication.publish_list(list_id=run.rating_list.pk, by=COMMAND_LINE)


def test_kyu_player_leaves_the_list_after_six_months_but_keeps_his_rating(egf):
    federation, (k1, k2, d1, d2) = egf
    _tournament(federation, "T1", date(2025, 1, 11), [(k1, k2, "1-0"), (d1, d2, "1-0")])
    first = _run_and_publish(federation, "2025-01")
    k1_rating = first.entries.get(player=k1).rating
    assert k1_rating == pytest.approx(600 + 90 * (1 - (0.5 - 0.008)), abs=1e-9)  # con(600) = 90
    for month in range(2, 9):
        _run_and_publish(federation, f"2025-{month:02d}")
    august = federation.lists.get(period__code="2025-08", status="published")
    entry = august.entries.get(player=k1)
    # Played in January (month index M - 7 for an August list): a 15k stays 6 months.
    assert entry.listed is False and entry.rank is None and entry.rating == k1_rating
    assert august.entries.get(player=d1).listed is True  # dan players stay two years


def test_tournaments_in_a_window_are_rated_in_date_order(egf):
    federation, (k1, k2, d1, d2) = egf
    later = _tournament(federation, "T-LATE", date(2025, 3, 20), [(k1, k2, "0-1")])
    earlier = _tournament(federation, "T-EARLY", date(2025, 3, 5), [(k1, k2, "1-0")])
    run = runs.run_now(federation=federation, period_code="2025-03", by=COMMAND_LINE)
    assert run.report["events"] == ["T-EARLY", "T-LATE"]
    first = run.event_ratings.get(event=earlier, player=k1)
    second = run.event_ratings.get(event=later, player=k1)
    assert second.before == first.after


def test_grade_jump_of_two_resets_to_the_new_grade(egf):
    federation, (k1, k2, d1, d2) = egf
    _tournament(federation, "T1", date(2025, 1, 11), [(k1, k2, "0-1")])
    _run_and_publish(federation, "2025-01")
    Player.objects.filter(pk=k1.pk).update(grade="13k")  # improved by two grades
    _tournament(federation, "T2", date(2025, 2, 8), [(k1, k2, "0-1")])
    run = runs.run_now(federation=federation, period_code="2025-02", by=COMMAND_LINE)
    assert run.event_ratings.get(player=k1).before == 800.0  # 13k nominal, not his old rating
    assert run.event_ratings.get(player=k2).before != 600.0  # k2 carries his rating


def test_snapshot_length_comes_from_the_federation_calendar(egf):
    federation, (k1, k2, d1, d2) = egf
    federation.params = {"calendar": {"egf_snapshot_months": 3}}
    federation.save()
    _tournament(federation, "T-JAN", date(2025, 1, 11), [(k1, k2, "1-0")])
    _tournament(federation, "T-MAR", date(2025, 3, 29), [(d1, d2, "1-0")])
    run = runs.run_now(federation=federation, period_code="2025-01", by=COMMAND_LINE)
    assert (run.period.starts_on, run.period.ends_on) == (date(2025, 1, 1), date(2025, 3, 31))
    assert run.report["events"] == ["T-JAN", "T-MAR"]


def test_federation_params_are_validated(egf):
    from django.core.exceptions import ValidationError

    federation, _ = egf
    for bad in (
        {"calendar": {"egf_snapshot_months": 13}},
        {"rd_cap": 120},
        {"calendar": {"weekly": True}},
    ):
        federation.params = bad
        with pytest.raises(ValidationError):
            federation.full_clean()


@pytest.mark.parametrize(("old", "new", "reset"), [("6d", "1p", False), ("5d", "1p", True)])
def test_a_grade_change_between_runs_resets_as_the_engine_does_in_one_run(egf, old, new, reset):
    """The runner hands the engine the highest grade so far; the engine decides (RULES §2.1)."""
    from ratings.engines import egf as engine

    federation, (k1, k2, d1, d2) = egf
    Player.objects.filter(pk=d1.pk).update(grade=old)
    _tournament(federation, "T1", date(2025, 1, 11), [(d1, d2, "1-0")])
    _run_and_publish(federation, "2025-01")
    Player.objects.filter(pk=d1.pk).update(grade=new)
    _tournament(federation, "T2", date(2025, 2, 8), [(d1, d2, "1-0")])
    run = runs.run_now(federation=federation, period_code="2025-02", by=COMMAND_LINE)
    in_two_runs = run.event_ratings.get(player=d1)

    def tournament(code, grade):
        players = (engine.PlayerEntry("d1", grade), engine.PlayerEntry("d2", "2d"))
        return engine.Tournament(code, "A", None, players, (engine.Game("d1", "d2", 1.0),))

    one_run = engine.rate_history([tournament("T1", old), tournament("T2", new)])[1].players[0]
    assert (one_run.start == "reset") is reset
    assert in_two_runs.before == pytest.approx(one_run.before, abs=1e-9)
    assert in_two_runs.after == pytest.approx(one_run.after, abs=1e-9)
