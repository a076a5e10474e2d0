"""Live ratings through a real Redis broker and a real Celery worker (REDIS_URL + PostgreSQL):
an event accepted in the database is picked up by the worker, which writes the live ratings.

Skipped, with the reason printed, when REDIS_URL or a PostgreSQL DATABASE_URL is absent.
"""

from __future__ import annotations

import pytest

from ratings.models import LiveRating, LiveRun
from tests.ratings.test_celery_worker import _wait_for, start_worker  # noqa: F401 (fixture)
from tournaments.models import Event, EventStatus

pytestmark = [pytest.mark.redis, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_accepting_an_event_refreshes_live_ratings_in_the_worker(iccf_world, start_worker):  # noqa: F811
    federation = iccf_world["federation"]
    event = iccf_world["event"]
    Event.objects.filter(pk=event.pk).update(status=EventStatus.SUBMITTED)
    start_worker()
    event.refresh_from_db()
    event.status = EventStatus.ACCEPTED
    event.save(update_fields=["status", "updated_at"])  # committed: the task goes to Redis
    _wait_for(
        lambda: LiveRun.objects.filter(federation=federation).exists(),
        what="the worker to write the live ratings",
    )
    run = LiveRun.objects.get(federation=federation)
    assert run.events == ["S1"] and run.period_code == "2026Q1"
    assert LiveRating.objects.filter(live_run=run).count() == len(iccf_world["players"])
