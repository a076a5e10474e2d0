"""Concurrency against the real PostgreSQL database, with threads (one connection each).

Each scenario ends in one consistent state: two officials saving one event, two runs requested
at once for one period, publishing while a run executes, a result edited while its period is
being rated.
"""

from __future__ import annotations

import threading
import time
from datetime import date

import pytest
from django.db import connection, connections
from django.test import Client
from django.urls import reverse

from federation import audit
from federation.models import AuditEvent
from federation.permissions import COMMAND_LINE
from ratings.models import ListStatus, RatingList, RatingPeriod, RatingRun, RunStatus
from ratings.services import publication, runs
from tests import fault_pause
from tests.hardening.admin_forms import change_form_data

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def in_threads(*targets, timeout=60.0):
    """Runs each target in its own thread (own database connection) released together;
    returns their results, re-raising the first exception."""
    barrier = threading.Barrier(len(targets))
    results: list = [None] * len(targets)
    errors: list = []

    def runner(i, target):
        try:
            barrier.wait()
            results[i] = target()
        except BaseException as exc:  # noqa: BLE001  (reported below)
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=runner, args=(i, t)) for i, t in enumerate(targets)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout)
        assert not thread.is_alive(), "a thread hung"
    if errors:
        raise errors[0]
    return results


def test_two_officials_saving_the_same_event_leave_one_state_and_a_true_audit_chain(
    iccf_world, monkeypatch
):
    from federation.models import OfficialRole
    from tests.factories import make_official

    federation, event = iccf_world["federation"], iccf_world["event"]
    officials = [
        make_official(f"td{i}", federation, OfficialRole.TOURNAMENT_DIRECTOR) for i in range(2)
    ]
    clients = []
    for user in officials:
        client = Client()
        client.force_login(user)
        clients.append(client)
    url = reverse("admin:tournaments_event_change", args=[event.pk])
    forms = [change_form_data(client.get(url)) for client in clients]
    forms[0].update(name="Section 1 (renamed by td0)", location="Prague")
    forms[1].update(name="Section 1 (renamed by td1)", location="Brno")
    initial_name = event.name

    original = audit.snapshot

    def slow_snapshot(obj):  # widens the window between reading the old values and saving
        values = original(obj)
        time.sleep(0.5)
        return values

    monkeypatch.setattr(audit, "snapshot", slow_snapshot)
    responses = in_threads(
        *[lambda c=c, f=f: c.post(url, f) for c, f in zip(clients, forms, strict=True)]
    )
    assert [r.status_code for r in responses] == [302, 302], [
        (
            r.context["errors"],
            [f.formset.errors for f in r.context["inline_admin_formsets"]],
            [f.formset.non_form_errors() for f in r.context["inline_admin_formsets"]],
        )
        if r.context
        else r
        for r in responses
    ]

    event.refresh_from_db()
    changes = list(
        AuditEvent.objects.filter(
            object_type="tournaments.Event", object_id=str(event.pk), action="change"
        ).order_by("id")
    )
    assert len(changes) == 2
    first, second = changes
    # One state: the later save wins whole (no mix of the two officials' fields)...
    assert (event.name, event.location) in {
        ("Section 1 (renamed by td0)", "Prague"),
        ("Section 1 (renamed by td1)", "Brno"),
    }
    assert second.new_values["name"] == event.name
    # ...and the audit chain is true: the second change starts from the first one's values.
    assert first.old_values["name"] == initial_name
    assert second.old_values["name"] == first.new_values["name"]


def test_two_runs_requested_at_once_make_one_run_and_one_list(iccf_world):
    federation = iccf_world["federation"]

    def request():
        return runs.request_run(
            federation=federation, period_code="2026Q1", enqueue=False, by=COMMAND_LINE
        ).pk

    run_ids = in_threads(request, request, request)
    assert len(set(run_ids)) == 1
    assert RatingRun.objects.filter(period__code="2026Q1").count() == 1
    (run_id,) = set(run_ids)
    in_threads(*[lambda: runs.execute_run(run_id=run_id)] * 3)
    run = RatingRun.objects.get(pk=run_id)
    assert run.status == RunStatus.SUCCEEDED and run.attempts == 1
    assert RatingList.objects.filter(period=run.period).count() == 1


def _pause_runs(monkeypatch, tmp_path, seconds: float):
    pause = fault_pause.Pause(fault_pause.AFTER_RUN_WRITES, tmp_path / "paused", seconds)
    return fault_pause.install(pause, monkeypatch)


def _wait(predicate, timeout=30.0):
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def test_publishing_while_a_run_executes(iccf_world, monkeypatch, tmp_path):
    """A first run of 2026Q1 left a draft; a re-run of 2026Q1 is executing (paused mid-write)
    when the officer publishes the first draft. The half-written list is invisible and cannot be
    published; the first draft publishes; the re-run's draft then supersedes it."""
    federation = iccf_world["federation"]
    first = runs.run_now(federation=federation, period_code="2026Q1", by=COMMAND_LINE)
    first_list = first.rating_list
    rerun = runs.request_run(
        federation=federation, period_code="2026Q1", enqueue=False, by=COMMAND_LINE
    )
    assert rerun.pk != first.pk
    marker = _pause_runs(monkeypatch, tmp_path, 3)

    def execute():
        return runs.execute_run(run_id=rerun.pk).status

    def publish_meanwhile():
        _wait(marker.exists)
        hidden = RatingList.objects.filter(run=rerun).count()
        published = publication.publish_list(list_id=first_list.pk, by=COMMAND_LINE).status
        return hidden, published

    status, (hidden, published) = in_threads(execute, publish_meanwhile)
    assert status == RunStatus.SUCCEEDED
    assert hidden == 0 and published == ListStatus.PUBLISHED
    second_list = RatingList.objects.get(run=rerun)
    assert second_list.status == ListStatus.DRAFT
    publication.publish_list(list_id=second_list.pk, by=COMMAND_LINE)
    statuses = dict(RatingList.objects.filter(period__code="2026Q1").values_list("id", "status"))
    assert statuses == {first_list.pk: ListStatus.SUPERSEDED, second_list.pk: ListStatus.PUBLISHED}
    assert second_list.entries.count() == first_list.entries.count()


def test_a_result_edited_while_its_period_is_rated_flags_the_period(
    iccf_world, monkeypatch, tmp_path
):
    """The run read the old result; the edit commits while it writes. Publishing that run's list
    is refused (its input no longer matches the database), naming the edit, and the period stays
    marked for a re-run."""
    federation, game = iccf_world["federation"], iccf_world["games"][0]
    run = runs.request_run(
        federation=federation, period_code="2026Q1", enqueue=False, by=COMMAND_LINE
    )
    marker = _pause_runs(monkeypatch, tmp_path, 3)

    def execute():
        return runs.execute_run(run_id=run.pk).status

    def edit_meanwhile():
        from tournaments.models import Game

        _wait(marker.exists)
        edited = Game.objects.get(pk=game.pk)
        edited.result = "0-1"
        edited.save()
        return edited.updated_at

    status, _edited_at = in_threads(execute, edit_meanwhile)
    assert status == RunStatus.SUCCEEDED
    run.refresh_from_db()
    with pytest.raises(runs.RunError, match=f"game {game.pk} of S1: result"):
        publication.publish_list(list_id=run.rating_list.pk, by=COMMAND_LINE)
    period = RatingPeriod.objects.get(pk=run.period_id)
    assert period.needs_rerun, "the draft misses a result edited during its run"
    assert f"game {game.pk} of S1" in period.needs_rerun_reason
    # The re-run reads the new result, and its publication clears the mark.
    publication.discard_list(list_id=run.rating_list.pk, by=COMMAND_LINE)
    rerun = runs.run_now(federation=federation, period_code="2026Q1", by=COMMAND_LINE)
    assert rerun.output_digest != run.output_digest
    publication.publish_list(list_id=rerun.rating_list.pk, by=COMMAND_LINE)
    period.refresh_from_db()
    assert not period.needs_rerun


def test_the_database_is_postgresql():
    assert connection.vendor == "postgresql"
    assert date.today().year >= 2024


def test_a_run_whose_lock_is_held_is_not_dead(iccf_world):
    """is_dead() tells a working run (its row lock held by another connection) from a dead one."""
    from django.db import transaction
    from django.utils import timezone

    run = runs.request_run(
        federation=iccf_world["federation"], period_code="2026Q1", enqueue=False, by=COMMAND_LINE
    )
    RatingRun.objects.filter(pk=run.pk).update(started_at=timezone.now())
    locked, release = threading.Event(), threading.Event()

    def hold_lock():
        try:
            with transaction.atomic():
                RatingRun.objects.select_for_update().get(pk=run.pk)
                locked.set()
                release.wait(20)
        finally:
            connection.close()

    holder = threading.Thread(target=hold_lock)
    holder.start()
    try:
        assert locked.wait(20)
        assert not runs.is_dead(run.pk)
        assert runs.reap_stuck_runs() == 0
    finally:
        release.set()
        holder.join()
    assert runs.is_dead(run.pk)
