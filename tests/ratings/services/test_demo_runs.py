"""The four systems rated from the database on the demo data, as `make run` does."""

from __future__ import annotations

from datetime import date

import pytest

from federation.permissions import COMMAND_LINE
from ratings import calendars
from ratings.models import EventRating, ListStatus, RatingEntry, RatingList, SolvingNorm
from ratings.services import runs

pytestmark = pytest.mark.django_db


def _published(code):
    return RatingList.objects.filter(federation__code=code, status=ListStatus.PUBLISHED)


def test_every_federation_has_published_lists_and_history(rated_demo):
    for code in ("iccf", "egf", "playchess", "wfcc"):
        assert _published(code).count() >= 2, code
        assert EventRating.objects.filter(event__federation__code=code).exists(), code


def test_ranks_are_one_to_n_on_every_list(rated_demo):
    for rating_list in RatingList.objects.filter(status=ListStatus.PUBLISHED)[:10]:
        ranks = list(
            rating_list.entries.filter(listed=True).order_by("rank").values_list("rank", flat=True)
        )
        assert ranks == list(range(1, len(ranks) + 1))
        assert rating_list.entry_count == len(ranks)


def test_playchess_newcomers_are_provisional_until_ten_games(rated_demo):
    first, latest = (
        _published("playchess").order_by("period__valid_from").first(),
        _published("playchess").order_by("-period__valid_from").first(),
    )
    provisional = first.entries.filter(provisional=True)
    assert provisional.exists()
    for rating_list in (first, latest):
        assert all(e.total_games < 10 for e in rating_list.entries.filter(provisional=True))
        assert all(e.total_games >= 10 for e in rating_list.entries.filter(provisional=False))


def test_iccf_entries_carry_rd_and_published_integers(rated_demo):
    latest = _published("iccf").order_by("-period__valid_from").first()
    for entry in latest.entries.all()[:200]:
        assert 30 <= entry.rd <= 250
        assert abs(entry.published_rating - entry.rating) <= 0.5
        assert abs(entry.published_rd - entry.rd) <= 0.5


def test_wfcc_two_half_ratings_make_a_full_rating(rated_demo):
    from ratings.engines.core.rounding import half_up_2

    q1 = _published("wfcc").get(period__code="2026Q1")
    imported = set(
        _published("wfcc").get(period__code="2025Q4").entries.values_list("player_id", flat=True)
    )
    newcomers = 0
    for entry in q1.entries.exclude(player_id__in=imported):
        performances = [
            r.details["performance"]
            for r in q1.run.event_ratings.filter(player=entry.player).order_by("event__end")
        ]
        if len(performances) == 2:  # two tournaments in the quarter: two halves, one rating
            newcomers += 1
            assert entry.half_rating is False
            assert entry.rating == pytest.approx(half_up_2(sum(performances) / 2), abs=0.011)
        else:
            assert entry.half_rating is True and entry.state["half_ratings"] == performances
    assert newcomers > 0


def test_wfcc_title_proposals_name_their_norms(rated_demo):
    proposals = [
        p for list_ in _published("wfcc") for p in list_.run.report.get("title_proposals", [])
    ]
    for proposal in proposals:
        assert proposal["title"] in {"GM", "IM", "FM"} and "norms" in proposal["reason"]
        assert SolvingNorm.objects.filter(player_id=proposal["player_id"]).count() >= 2


def test_nothing_is_due_after_the_demo_was_rated(rated_demo):
    assert runs.schedule_due_runs(today=date(2026, 11, 21), by=COMMAND_LINE) == []


def test_next_period_becomes_due_on_its_day(rated_demo):
    from datetime import timedelta

    from federation.models import Federation

    playchess = Federation.objects.get(code="playchess")
    last = runs.last_rated_code(playchess)
    following = calendars.next_period(calendars.period_by_code("playchess", last))
    assert calendars.due_periods("playchess", last, following.due_on - timedelta(days=1)) == ()
    due = calendars.due_periods("playchess", last, following.due_on)
    assert [p.code for p in due] == [following.code]


def test_entries_of_published_lists_count_matches_listed(rated_demo):
    for rating_list in RatingList.objects.filter(status=ListStatus.PUBLISHED)[:5]:
        assert (
            RatingEntry.objects.filter(rating_list=rating_list, listed=True).count()
            == rating_list.entry_count
        )


def test_wfcc_runs_input_through_the_command_line_gives_what_the_run_stored(rated_demo):
    """The WFCC contract rates what a run rates: a quarter's tournaments with the carried
    half-ratings in the input. Every demo run's input, rebuilt from the unchanged database and
    piped through ``python -m ratings.engines wfcc``, gives each event rating of the run."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    from ratings import systems
    from ratings.engines.core import jsonio
    from ratings.services.runs import canonical_digest
    from ratings.systems.common import Context

    lists = _published("wfcc").order_by("period__valid_from")
    rated_runs = [list_.run for list_ in lists if list_.run.engine_version != "import"]
    assert rated_runs
    for run in rated_runs:
        ctx = Context(run.federation, run.period, run.rating_list.previous, dict(run.params or {}))
        engine_input = systems.get("wfcc").runner.build(ctx).engine_input
        assert canonical_digest(engine_input) == run.input_digest
        done = subprocess.run(
            [sys.executable, "-m", "ratings.engines", "wfcc", "-"],
            input=jsonio.dumps(engine_input),
            capture_output=True,
            text=True,
            cwd=Path(__file__).resolve().parents[3],
            check=True,
        )
        output = json.loads(done.stdout)
        by_event = {(t["id"], s["id"]): s for t in output["tournaments"] for s in t["solvers"]}
        stored = run.event_ratings.select_related("event")
        assert len(by_event) == stored.count()
        for er in stored:
            solver = by_event[(er.event.code, str(er.player_id))]
            assert solver["performance"] == er.details["performance"]
            assert solver.get("change") == er.details["change"]
            assert solver["result"] == er.score
        assert [n["id"] for n in output["not_rated"]] == [
            n["event"] for n in run.report.get("not_rated", [])
        ]
