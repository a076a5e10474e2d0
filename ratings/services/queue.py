"""Enqueueing the rating tasks, by their registered names.

The tasks call the services; the services enqueue through here by name (the task modules are
registered by ``RatingsConfig.ready``), so neither imports the other in a circle.
"""

from __future__ import annotations

from celery import current_app
from django.db import transaction

EXECUTE_RUN = "ratings.execute_run"
WRITE_PUBLISHED_FILES = "ratings.write_published_files"


def execute_run(run_id: int) -> None:
    current_app.signature(EXECUTE_RUN, args=(run_id,)).delay()


def execute_run_on_commit(run_id: int) -> None:
    """After the caller's transaction commits: a rolled-back request queues nothing."""
    transaction.on_commit(lambda: execute_run(run_id))


def write_published_files_on_commit(list_id: int) -> None:
    """A published list's download files, written by a worker once the publication commits
    (a 100,000-player list's CSV takes about 5 s: not the publishing request's time)."""
    transaction.on_commit(
        lambda: current_app.signature(WRITE_PUBLISHED_FILES, args=(list_id,)).delay(),
        robust=True,  # the publication stands; a missing file is written by its first download
    )
