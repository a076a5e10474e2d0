"""Enqueueing the rating tasks, by their registered names.

The tasks call the services; the services enqueue through here by name (the task modules are
registered by ``RatingsConfig.ready``), so neither imports the other in a circle.
"""

from __future__ import annotations

from celery import current_app
from django.db import transaction

EXECUTE_RUN = "ratings.execute_run"


def execute_run(run_id: int) -> None:
    current_app.signature(EXECUTE_RUN, args=(run_id,)).delay()


def execute_run_on_commit(run_id: int) -> None:
    """After the caller's transaction commits: a rolled-back request queues nothing."""
    transaction.on_commit(lambda: execute_run(run_id))
