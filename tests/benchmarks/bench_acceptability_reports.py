"""Acceptability reports of every demo event: one batch (constant queries) against one per event.

The batch (``reports_for``) is what the changelist column and filter and ``events_for_rating``
use; the comparison is the naive loop of ``evaluate_event`` per event, measured in the same run
on the same seeded demo database (a temporary SQLite file, migrated here).
"""

from __future__ import annotations

import os
import tempfile
import time
from datetime import date

from tests.benchmarks.report import emit

TODAY = date(2026, 11, 21)


def _setup(path: str) -> None:
    os.environ["DATABASE_URL"] = f"sqlite:///{path}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "federation.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def _timed(fn):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    best, queries = float("inf"), 0
    for _ in range(3):
        with CaptureQueriesContext(connection) as ctx:
            started = time.perf_counter()
            fn()
            best = min(best, time.perf_counter() - started)
        queries = len(ctx)
    return best, queries


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        _setup(os.path.join(tmp, "bench.sqlite3"))
        from federation.demo.seed import seed_demo
        from tournaments.acceptability_report import evaluate_event, reports_for
        from tournaments.models import Event, Game

        seed_demo(players=2000, seed=2026)
        events = list(Event.objects.select_related("federation"))
        games = Game.objects.count()
        batch, batch_queries = _timed(lambda: reports_for(events, today=TODAY))
        loop, loop_queries = _timed(lambda: [evaluate_event(e, today=TODAY) for e in events])
        print(f"{len(events)} events, {games} games (demo, 2000 players)")
        print(f"reports_for (batch)    {batch * 1000:9.1f} ms  {batch_queries:5d} queries")
        print(f"evaluate_event loop    {loop * 1000:9.1f} ms  {loop_queries:5d} queries")
        print(f"ratio loop/batch       {loop / batch:9.2f}x {loop_queries / batch_queries:5.1f}x")
        emit("acceptability_reports_batch", batch * 1e3, "ms", "evaluate_event_loop", loop * 1e3)


if __name__ == "__main__":
    main()
