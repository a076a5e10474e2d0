"""Faults: the database connection dropped mid-write, Redis restarted with runs queued, a worker
killed during publication. No partial list is ever visible; every run ends succeeded or failed
with a reason; the reaper recovers runs whose message was lost.

Workers and Redis are private to these tests: a redis-server on its own loopback port (skipped
without the binary) and Celery worker processes against the test database.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import threading
import time
from pathlib import Path

import pytest
from celery import Celery
from django.conf import settings
from django.db import connection, connections

from federation.models import AuditEvent
from federation.permissions import COMMAND_LINE
from ratings.models import ListStatus, RatingList, RatingRun, RunStatus
from ratings.services import runs
from tests import celery_worker, fault_pause

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]
FINISHED = [RunStatus.SUCCEEDED, RunStatus.FAILED]


def wait_for(predicate, timeout=60.0, what="condition"):
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.1)


# ---------------------------------------------------------------- the dropped connection


def test_connection_dropped_while_writing_a_list(iccf_world, monkeypatch, tmp_path):
    """pg_terminate_backend on the run's connection while it is paused mid-write: the run is
    recorded as failed with the reason, and none of its rows were ever visible or kept."""
    marker = fault_pause.install(
        fault_pause.Pause(fault_pause.AFTER_RUN_WRITES, tmp_path / "paused", 2), monkeypatch
    )
    run = runs.request_run(
        federation=iccf_world["federation"], period_code="2026Q1", enqueue=False, by=COMMAND_LINE
    )
    outcome = {}

    def execute():
        try:
            outcome["run"] = runs.execute_run(run_id=run.pk)
        finally:
            connections.close_all()

    thread = threading.Thread(target=execute)
    thread.start()
    wait_for(marker.exists, what="the run to pause mid-write")
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
            "AND state = 'idle in transaction' AND pid <> pg_backend_pid()"
        )
        victims = [row[0] for row in cursor.fetchall()]
        assert len(victims) == 1
        seen_mid_write = RatingList.objects.filter(run=run).count()
        cursor.execute("SELECT pg_terminate_backend(%s)", [victims[0]])
    thread.join(60)
    assert not thread.is_alive()
    assert seen_mid_write == 0
    run.refresh_from_db()
    assert run.status == RunStatus.FAILED
    assert "connection" in run.error.lower() or "terminat" in run.error.lower(), run.error
    assert not RatingList.objects.filter(run=run).exists()
    assert not run.event_ratings.exists()
    assert AuditEvent.objects.filter(action="run_failed", object_id=str(run.pk)).exists()
    # A failed run does not block the period: the next request runs and succeeds.
    again = runs.run_now(federation=iccf_world["federation"], period_code="2026Q1", by=COMMAND_LINE)
    assert again.status == RunStatus.SUCCEEDED and again.pk != run.pk


# ------------------------------------------------------------------- private Redis + workers


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class PrivateRedis:
    """A throw-away redis-server without persistence: a restart loses every queued message."""

    def __init__(self, tmp_path: Path) -> None:
        self.port = _free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.tmp_path = tmp_path
        self.process = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.tmp_path),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_for(self.ping, timeout=20, what="redis-server to start")

    def ping(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1) as sock:
                sock.sendall(b"PING\r\n")
                return sock.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(20)

    def restart(self) -> None:
        self.stop()
        self.start()

    def queued(self, queue: str = "ratings") -> int:
        with socket.create_connection(("127.0.0.1", self.port), timeout=2) as sock:
            sock.sendall(f"LLEN {queue}\r\n".encode())
            return int(sock.recv(64).strip().lstrip(b":"))


@pytest.fixture
def private_redis(tmp_path):
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed")
    redis = PrivateRedis(tmp_path)
    redis.start()
    yield redis
    redis.stop()


def _test_database_url() -> str:
    db = settings.DATABASES["default"]
    auth = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


@pytest.fixture
def workers(tmp_path, private_redis):
    started = []

    def start(pause=None, **extra_env):
        env = {
            **os.environ,
            "DATABASE_URL": _test_database_url(),
            "REDIS_URL": private_redis.url,
            **extra_env,
        }
        log = open(tmp_path / f"worker{len(started)}.log", "w")  # noqa: SIM115
        process = celery_worker.start_worker(env, log, pause)
        started.append((process, log))
        return process

    yield start
    for process, log in started:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()


@pytest.fixture
def broker(private_redis):
    """Sends tasks by name to the private Redis, as the web processes would."""
    # set_as_current=False: the site's own app must stay the current one for later tests.
    app = Celery("harden-sender", broker=private_redis.url, set_as_current=False)
    app.conf.broker_connection_retry_on_startup = True
    yield lambda name, *args: app.send_task(name, args=list(args), queue="ratings")
    app.close()


def _finished(run_id):
    return lambda: RatingRun.objects.filter(pk=run_id, status__in=FINISHED).exists()


def test_redis_restarted_while_runs_are_queued(iccf_world, private_redis, workers, broker):
    """Two runs queued, Redis restarted before any worker took them (their messages are gone):
    they stay queued until the reaper re-queues them; each then ends with exactly one list.
    The worker also survives a second restart and takes new work afterwards."""
    from federation.models import Federation, Player

    federation = iccf_world["federation"]
    other = Federation.objects.create(code="icc2", name="ICCF two", system="iccf")
    for i in range(2):
        Player.objects.create(federation=other, federation_player_id=str(i), surname=f"Q{i}")
    queued = [
        runs.request_run(federation=f, period_code="2026Q1", enqueue=False, by=COMMAND_LINE)
        for f in (federation, other)
    ]
    for run in queued:
        broker("ratings.execute_run", run.pk)
    wait_for(lambda: private_redis.queued() == 2, what="two queued messages")
    private_redis.restart()
    assert private_redis.queued() == 0  # the messages were lost with the restart
    workers(RATING_RUN_REAP_AFTER_SECONDS="0")
    time.sleep(3)
    assert all(RatingRun.objects.get(pk=r.pk).status == RunStatus.QUEUED for r in queued)

    broker("ratings.reap_stuck_runs")  # what beat sends every ten minutes
    for run in queued:
        wait_for(_finished(run.pk), timeout=90, what=f"run {run.pk} after the reaper")
    for run in queued:
        run.refresh_from_db()
        assert run.status == RunStatus.SUCCEEDED, run.error
        assert RatingList.objects.filter(run=run).count() == 1

    private_redis.restart()  # with the worker connected this time
    later = runs.request_run(
        federation=federation, period_code="2026Q2", enqueue=False, by=COMMAND_LINE
    )
    broker("ratings.execute_run", later.pk)
    wait_for(_finished(later.pk), timeout=90, what="a run sent after the second restart")
    assert RatingRun.objects.get(pk=later.pk).status == RunStatus.SUCCEEDED


def test_worker_killed_during_publication(iccf_world, workers, broker, tmp_path):
    """The worker publishing a list is SIGKILLed before commit: the list stays a draft and the
    old list stays the published one meanwhile; the redelivered task publishes it once."""
    federation = iccf_world["federation"]
    run = runs.run_now(federation=federation, period_code="2026Q1", by=COMMAND_LINE)
    draft = run.rating_list
    old = RatingList.objects.get(federation=federation, status=ListStatus.PUBLISHED)
    marker = tmp_path / "publishing"
    workers(fault_pause.Pause(fault_pause.AFTER_PUBLICATION_WRITES, marker, 120))
    broker("ratings.publish_list", draft.pk)
    wait_for(marker.exists, what="the publication to pause")
    wait_for(lambda: marker.read_text().strip().isdigit(), what="the child pid")
    assert RatingList.objects.get(pk=draft.pk).status == ListStatus.DRAFT
    assert RatingList.objects.get(pk=old.pk).status == ListStatus.PUBLISHED
    os.kill(int(marker.read_text()), signal.SIGKILL)
    wait_for(
        lambda: RatingList.objects.get(pk=draft.pk).status == ListStatus.PUBLISHED,
        timeout=90,
        what="the redelivered publication",
    )
    # The earlier period's list stays published; the new one is published exactly once.
    published = RatingList.objects.filter(federation=federation, status=ListStatus.PUBLISHED)
    assert set(published.values_list("pk", flat=True)) == {draft.pk, old.pk}
    assert AuditEvent.objects.filter(action="publish", object_id=str(draft.pk)).count() == 1
