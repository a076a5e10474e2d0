"""Runs through a real Redis broker and a real Celery worker process (REDIS_URL + PostgreSQL).

Skipped, with the reason printed, when REDIS_URL or a PostgreSQL DATABASE_URL is absent.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time

import pytest
from django.conf import settings
from django.db import connection

from federation.permissions import COMMAND_LINE
from ratings import tasks
from ratings.models import RatingList, RatingRun, RunStatus
from ratings.services import runs
from tests import celery_worker, fault_pause

pytestmark = [pytest.mark.redis, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _test_database_url() -> str:
    db = settings.DATABASES["default"]
    auth = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


@pytest.fixture
def start_worker(tmp_path):
    workers = []

    def start(pause=None, **extra_env):
        from federation.celery import app

        app.control.purge()
        env = {**os.environ, "DATABASE_URL": _test_database_url(), **extra_env}
        log = open(tmp_path / f"worker{len(workers)}.log", "w")  # noqa: SIM115
        process = celery_worker.start_worker(env, log, pause)
        workers.append((process, log))
        return process

    yield start
    for process, log in workers:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()


def _wait_for(predicate, timeout=90.0, what="condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


def _finished(run_id):
    return lambda: RatingRun.objects.filter(
        pk=run_id, status__in=[RunStatus.SUCCEEDED, RunStatus.FAILED]
    ).exists()


def test_worker_executes_a_requested_run_once(iccf_world, start_worker):
    start_worker()
    run = runs.request_run(
        federation=iccf_world["federation"], period_code="2026Q1", by=COMMAND_LINE
    )
    _wait_for(_finished(run.pk), what="the worker to finish the run")
    run.refresh_from_db()
    assert run.status == RunStatus.SUCCEEDED, run.error
    assert RatingList.objects.filter(run=run).count() == 1
    # The same task delivered again (twice) changes nothing.
    tasks.execute_run.delay(run.pk)
    tasks.execute_run.delay(run.pk)
    time.sleep(3)
    assert RatingList.objects.filter(period=run.period).count() == 1
    assert RatingRun.objects.get(pk=run.pk).attempts == 1


def test_failing_run_is_recorded_by_the_worker(iccf_world, start_worker):
    federation = iccf_world["federation"]
    federation.params = {"engine": {"rd_cap": "high"}}
    federation.save()
    start_worker()
    run = runs.request_run(federation=federation, period_code="2026Q1", by=COMMAND_LINE)
    _wait_for(_finished(run.pk), what="the run to fail")
    run.refresh_from_db()
    assert run.status == RunStatus.FAILED
    assert "rd_cap" in run.error
    assert not RatingList.objects.filter(run=run).exists()
    assert not run.event_ratings.exists()


def test_worker_killed_mid_write_leaves_nothing_and_redelivery_completes(
    iccf_world, start_worker, tmp_path
):
    marker = tmp_path / "paused"
    start_worker(fault_pause.Pause(fault_pause.AFTER_RUN_WRITES, marker, 120))
    run = runs.request_run(
        federation=iccf_world["federation"], period_code="2026Q1", by=COMMAND_LINE
    )
    _wait_for(marker.exists, what="the run to pause mid-write")
    _wait_for(lambda: marker.read_text().strip().isdigit(), what="the child pid")
    child = int(marker.read_text())
    # Mid-write: the list rows exist inside the worker's open transaction, invisible here.
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE state = "
            "'idle in transaction' AND datname = current_database()"
        )
        assert cursor.fetchone()[0] >= 1
    assert not RatingList.objects.filter(run=run).exists()
    os.kill(child, signal.SIGKILL)
    _wait_for(_finished(run.pk), what="the redelivered task to complete the run")
    run.refresh_from_db()
    assert run.status == RunStatus.SUCCEEDED, run.error
    assert run.attempts == 1  # the killed attempt was rolled back with everything it wrote
    assert RatingList.objects.filter(period=run.period).count() == 1
    assert run.rating_list.entries.count() == 6


def test_runs_of_two_periods_of_one_federation_do_not_block_each_other(iccf_world):
    """The run's row lock must not take the federation's row with it (SKIP LOCKED would then
    turn the second run into a no-op)."""
    import threading

    from ratings.models import RatingRun

    federation = iccf_world["federation"]
    first = runs.request_run(
        federation=federation, period_code="2026Q1", enqueue=False, by=COMMAND_LINE
    )
    second = runs.request_run(
        federation=federation, period_code="2026Q2", enqueue=False, by=COMMAND_LINE
    )
    barrier = threading.Barrier(2)
    results = {}

    def execute(run_id):
        from django.db import connection as thread_connection

        barrier.wait()
        results[run_id] = runs.execute_run(run_id=run_id)
        thread_connection.close()

    threads = [threading.Thread(target=execute, args=(run.pk,)) for run in (first, second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert results[first.pk] is not None and results[second.pk] is not None
    assert set(
        RatingRun.objects.filter(pk__in=[first.pk, second.pk]).values_list("status", flat=True)
    ) == {RunStatus.SUCCEEDED}
