"""Thin Celery adapters: ids in, one service call, acting as the scheduler (a system actor)."""

from __future__ import annotations

from celery import shared_task
from celery.signals import worker_init
from django.utils import timezone

from federation.permissions import SCHEDULER
from ratings.services import live, publication, runs
from ratings.web import published_files


@worker_init.connect
def digest_engine_versions(**_) -> None:
    """Before the worker forks its pool: each process inherits the digests."""
    runs.digest_engine_versions()


@shared_task(name="ratings.execute_run", acks_late=True, reject_on_worker_lost=True)
def execute_run(run_id: int) -> str:
    run = runs.execute_run(run_id=run_id)
    return "no-op" if run is None else run.status


@shared_task(name="ratings.publish_list", acks_late=True)
def publish_list(list_id: int) -> str:
    return publication.publish_list(list_id=list_id, by=SCHEDULER).status


@shared_task(name="ratings.write_published_files")
def write_published_files(list_id: int) -> None:
    published_files.write_all(list_id)


@shared_task(name="ratings.schedule_due_runs")
def schedule_due_runs() -> int:
    return len(runs.schedule_due_runs(today=timezone.localdate(), by=SCHEDULER))


@shared_task(name="ratings.reap_stuck_runs")
def reap_stuck_runs() -> int:
    return runs.reap_stuck_runs()


@shared_task(name="ratings.refresh_live_ratings")
def refresh_live_ratings(federation_id: int) -> int:
    """A federation's unofficial live ratings; returns how many players they moved."""
    run = live.refresh_live(federation_id)
    return 0 if run is None else run.ratings.count()


@shared_task(name="ratings.refresh_all_live_ratings")
def refresh_all_live_ratings() -> int:
    return live.refresh_all()
