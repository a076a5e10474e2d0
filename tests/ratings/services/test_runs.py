"""Rating runs end to end on the database (eager Celery): drafts, digests, publication."""

from __future__ import annotations

from datetime import date

import pytest
from django.db import DatabaseError, IntegrityError, transaction

from federation.models import AuditEvent
from federation.permissions import COMMAND_LINE
from ratings.engines import iccf as iccf_engine
from ratings.models import (
    ImmutableListError,
    ListStatus,
    RatingEntry,
    RatingList,
    RatingRun,
    RunStatus,
)
from ratings.services import publication, runs
from tournaments.models import Substitution


def _run(world, code="2026Q1"):
    return runs.run_now(federation=world["federation"], period_code=code, by=COMMAND_LINE)


def test_requested_run_executes_and_writes_one_draft(
    iccf_world, eager_celery, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        run = runs.request_run(
            federation=iccf_world["federation"], period_code="2026Q1", by=COMMAND_LINE
        )
    run.refresh_from_db()
    assert run.status == RunStatus.SUCCEEDED, run.error
    drafts = RatingList.objects.filter(run=run)
    assert drafts.count() == 1 and drafts.get().status == ListStatus.DRAFT
    assert run.input_digest and run.output_digest and run.engine_version.startswith("iccf-")
    assert set(run.stage_seconds) == {
        *("read", "compute", "interpret", "entries", "store", "digest", "write")
    }
    # Six players played; the sixth was unrated and is now rated from 1800/250.
    assert drafts.get().entries.count() == 6
    newcomer = drafts.get().entries.get(player=iccf_world["players"][5])
    assert newcomer.previous_rating is None and newcomer.rd < 250


def test_list_values_equal_the_engine_run_on_the_same_input(iccf_world):
    run = _run(iccf_world)
    from ratings.systems.common import Context, base_list_for
    from ratings.systems.iccf import runner

    ctx = Context(run.federation, run.period, base_list_for(run.federation, run.period), {})
    output = iccf_engine.run_json(runner.build(ctx).engine_input)
    stored = {str(e.player_id): (e.rating, e.rd) for e in run.rating_list.entries.all()}
    assert {p["id"]: (p["rating"], p["rd"]) for p in output["players"]} == stored


def test_same_inputs_reproduce_the_output_digest(iccf_world):
    first = _run(iccf_world)
    publication.discard_list(list_id=first.rating_list.pk, by=COMMAND_LINE)
    second = _run(iccf_world)
    assert second.pk != first.pk
    assert (second.input_digest, second.output_digest) == (first.input_digest, first.output_digest)


def test_changed_result_changes_the_digest(iccf_world):
    first = _run(iccf_world)
    publication.discard_list(list_id=first.rating_list.pk, by=COMMAND_LINE)
    game = iccf_world["games"][0]
    game.result = "0-1"
    game.save()
    second = _run(iccf_world)
    assert second.output_digest != first.output_digest


def test_duplicate_delivery_is_a_no_op(iccf_world):
    run = _run(iccf_world)
    assert runs.execute_run(run_id=run.pk) is None
    assert RatingList.objects.filter(run=run).count() == 1


def test_one_active_run_per_period(iccf_world):
    first = runs.request_run(
        federation=iccf_world["federation"], period_code="2026Q1", enqueue=False, by=COMMAND_LINE
    )
    again = runs.request_run(
        federation=iccf_world["federation"], period_code="2026Q1", enqueue=False, by=COMMAND_LINE
    )
    assert again.pk == first.pk
    with pytest.raises(IntegrityError), transaction.atomic():
        RatingRun.objects.create(federation=first.federation, period=first.period)


def test_failing_run_is_recorded_and_leaves_nothing(iccf_world, monkeypatch):
    from ratings.systems.iccf import runner

    def broken_interpret(prepared, output):
        raise RuntimeError("engine output could not be read")

    monkeypatch.setattr(runner, "interpret", broken_interpret)
    run = _run(iccf_world)
    assert run.status == RunStatus.FAILED
    assert "engine output could not be read" in run.error
    assert not RatingList.objects.filter(run=run).exists()
    assert not run.event_ratings.exists()
    assert AuditEvent.objects.filter(action="run_failed", object_id=str(run.pk)).exists()


def test_publish_makes_the_list_immutable(iccf_world):
    run = _run(iccf_world)
    published = publication.publish_list(list_id=run.rating_list.pk, by=COMMAND_LINE)
    assert published.status == ListStatus.PUBLISHED
    assert AuditEvent.objects.filter(action="publish", object_id=str(published.pk)).exists()
    iccf_world["event"].refresh_from_db()
    assert iccf_world["event"].status == "rated"
    entry = published.entries.first()
    entry.rating = 9999
    with pytest.raises(ImmutableListError):
        entry.save()
    with pytest.raises(ImmutableListError):
        entry.delete()
    with pytest.raises(ImmutableListError):
        published.delete()
    with pytest.raises(DatabaseError), transaction.atomic():
        RatingEntry.objects.filter(pk=entry.pk).update(rating=9999)
    with pytest.raises(DatabaseError), transaction.atomic():
        RatingEntry.objects.filter(rating_list=published).delete()
    with pytest.raises(DatabaseError), transaction.atomic():
        RatingList.objects.filter(pk=published.pk).update(entry_count=0)
    with pytest.raises(DatabaseError), transaction.atomic():
        RatingList.objects.filter(pk=published.pk).delete()
    with pytest.raises(ImmutableListError):
        RatingEntry(
            rating_list=published, player=iccf_world["players"][0], rating=1, published_rating=1
        ).save()
    with pytest.raises(DatabaseError), transaction.atomic():  # bulk_create skips save()
        RatingEntry.objects.bulk_create(
            [
                RatingEntry(
                    rating_list=published,
                    player=iccf_world["players"][5],
                    rating=1,
                    published_rating=1,
                )
            ]
        )
    assert RatingEntry.objects.get(pk=entry.pk).rating != 9999
    with pytest.raises(runs.RunError, match="only a draft"):
        publication.publish_list(list_id=published.pk, by=COMMAND_LINE)


def test_correction_supersedes_the_published_list(iccf_world):
    first = publication.publish_list(list_id=_run(iccf_world).rating_list.pk, by=COMMAND_LINE)
    game = iccf_world["games"][1]
    game.result = "1-0"
    game.save()
    first.period.refresh_from_db()
    assert first.period.needs_rerun is True
    assert "S1" in first.period.needs_rerun_reason
    second = publication.publish_list(list_id=_run(iccf_world).rating_list.pk, by=COMMAND_LINE)
    first.refresh_from_db()
    assert first.status == ListStatus.SUPERSEDED and second.supersedes_id == first.pk
    second.period.refresh_from_db()
    assert second.period.needs_rerun is False


def test_rule_1_4_start_ratings_flow_into_the_engine(iccf_world):
    """A player whose rating fell is seen by opponents at his start rating."""
    from ratings.systems.common import Context, base_list_for
    from ratings.systems.iccf import runner

    run = _run(iccf_world)
    ctx = Context(run.federation, run.period, base_list_for(run.federation, run.period), {})
    engine_input = runner.build(ctx).engine_input
    first_game = engine_input["games"][0]
    # The tournament started under the 2025Q4 list, where player 0 had 1900.
    assert first_game["white_start"] == 1900.0
    lowered = {
        **engine_input,
        "players": [
            {**p, "rating": 1500.0} if p["id"] == first_game["white"] else p
            for p in engine_input["players"]
        ],
    }
    without_rule = {
        **lowered,
        "games": [
            {k: v for k, v in g.items() if not k.endswith("_start")} for g in lowered["games"]
        ],
    }
    opponent = first_game["black"]
    with_rule = {p["id"]: p["rating"] for p in iccf_engine.run_json(lowered)["players"]}
    ignored = {p["id"]: p["rating"] for p in iccf_engine.run_json(without_rule)["players"]}
    # Black lost to a player seen at 1900 rather than 1500: he loses fewer points.
    assert with_rule[opponent] > ignored[opponent]


def test_rule_6_substitution_flows_into_the_engine(iccf_world):
    game = iccf_world["games"][2]  # player 2 (White) lost to player 3
    original = iccf_world["players"][5]
    Substitution.objects.create(game=game, side="white", replaces=original)
    run = _run(iccf_world)
    substitutions = _engine_input(run)["substitutions"]
    assert substitutions == [{"game": 2, "side": "white", "replaces": str(original.pk)}]
    entries = {e.player_id: e for e in run.rating_list.entries.all()}
    # A loss never counts for the substitute: he played no other game, so his rating is carried.
    substitute = iccf_world["players"][2]
    assert entries[substitute.pk].games == 1  # only his own other game (as Black in game 1)
    assert entries[original.pk].games == 2  # his game 4, and the substitute's loss


def test_a_substitution_in_a_game_of_another_period_is_left_out(iccf_world):
    """Only the substitutions of the games the period rates reach the engine."""
    game = iccf_world["games"][2]
    Substitution.objects.create(game=game, side="white", replaces=iccf_world["players"][5])
    type(game).objects.filter(pk=game.pk).update(
        reported_on=date(2030, 1, 1), finished_on=date(2030, 1, 1)
    )  # reported in a later period: not this one's game
    run = _run(iccf_world)
    engine_input = _engine_input(run)
    assert len(engine_input["games"]) == len(iccf_world["games"]) - 1
    assert engine_input["substitutions"] == []


def _engine_input(run):
    from ratings.systems.common import Context, base_list_for
    from ratings.systems.iccf import runner

    ctx = Context(run.federation, run.period, base_list_for(run.federation, run.period), {})
    return runner.build(ctx).engine_input


def test_unaccepted_events_are_left_out_and_reported(iccf_world):
    event = iccf_world["event"]
    event.status = "submitted"
    event.save()
    run = _run(iccf_world)
    [excluded] = run.excluded_events
    assert (excluded["event"], excluded["name"]) == ("S1", "Section 1")
    assert excluded["reason"].startswith("status submitted: only accepted events are rated")
    assert run.rating_list.entries.filter(games__gt=0).count() == 0


def test_late_result_rolls_into_the_next_period(iccf_world):
    game = iccf_world["games"][0]
    game.finished_on, game.reported_on = date(2025, 11, 30), date(2025, 12, 3)
    game.save()
    run = _run(iccf_world)
    assert run.report["late_count"] == 0
    assert len(_engine_input(run)["games"]) == 4
    publication.publish_list(list_id=run.rating_list.pk, by=COMMAND_LINE)
    next_run = _run(iccf_world, "2026Q2")
    assert next_run.report["late_count"] == 1
    assert len(_engine_input(next_run)["games"]) == 1


def test_reaper_requeues_runs_whose_message_was_lost(iccf_world, eager_celery):
    from datetime import timedelta

    from django.utils import timezone

    run = runs.request_run(
        federation=iccf_world["federation"], period_code="2026Q1", enqueue=False, by=COMMAND_LINE
    )  # as if the broker lost the message
    assert runs.reap_stuck_runs() == 0  # too young to be stuck
    RatingRun.objects.filter(pk=run.pk).update(requested_at=timezone.now() - timedelta(hours=1))
    assert runs.reap_stuck_runs() == 1
    run.refresh_from_db()
    assert run.status == RunStatus.SUCCEEDED
    assert RatingList.objects.filter(run=run).count() == 1
    assert runs.reap_stuck_runs() == 0


def test_reaper_honours_a_zero_age(iccf_world, eager_celery):
    """timedelta(0) means "every run never taken", not the 900 s default (zero is falsy)."""
    from datetime import timedelta

    run = runs.request_run(
        federation=iccf_world["federation"], period_code="2026Q1", enqueue=False, by=COMMAND_LINE
    )
    assert runs.reap_stuck_runs(older_than=timedelta(hours=1)) == 0
    assert runs.reap_stuck_runs(older_than=timedelta(0)) == 1
    run.refresh_from_db()
    assert run.status == RunStatus.SUCCEEDED


def test_a_dead_workers_run_is_requeued_by_the_next_request(iccf_world, eager_celery):
    """A worker took the run (started_at committed) and died (no lock held, still queued): the
    next request for the period re-queues it at once, and so does the reaper at any age."""
    from django.utils import timezone

    federation = iccf_world["federation"]
    run = runs.request_run(
        federation=federation, period_code="2026Q1", enqueue=False, by=COMMAND_LINE
    )
    assert not runs.is_dead(run.pk)  # never taken: the broker may still deliver it
    RatingRun.objects.filter(pk=run.pk).update(started_at=timezone.now())  # taken, then killed
    assert runs.is_dead(run.pk)
    again = runs.request_run(federation=federation, period_code="2026Q1", by=COMMAND_LINE)
    assert again.pk == run.pk
    run.refresh_from_db()
    assert run.status == RunStatus.SUCCEEDED and run.attempts == 1
    assert not runs.is_dead(run.pk)


def test_the_reaper_requeues_a_dead_run_of_any_age(iccf_world, eager_celery):
    from django.utils import timezone

    run = runs.request_run(
        federation=iccf_world["federation"], period_code="2026Q1", enqueue=False, by=COMMAND_LINE
    )
    RatingRun.objects.filter(pk=run.pk).update(started_at=timezone.now())
    assert runs.reap_stuck_runs() == 1  # requested a moment ago, yet dead
    run.refresh_from_db()
    assert run.status == RunStatus.SUCCEEDED


def test_a_run_computes_and_writes_with_the_cycle_collector_paused(iccf_world, monkeypatch):
    """Its hundreds of thousands of acyclic objects set off no collection; afterwards the
    collector is on again, also when the run fails."""
    import gc

    from ratings.systems.iccf import runner
    from tests.collector_watch import collector_states

    seen = collector_states(monkeypatch, runner, "interpret")
    assert gc.isenabled()
    assert _run(iccf_world).status == RunStatus.SUCCEEDED
    assert seen == [False] and gc.isenabled()

    def broken(prepared, output):
        raise RuntimeError("engine output could not be read")

    monkeypatch.setattr(runner, "interpret", broken)
    failed = _run(iccf_world, "2026Q2")
    assert failed.status == RunStatus.FAILED and "could not be read" in failed.error
    assert gc.isenabled()
