"""The rated demo (seed_demo + rate_demo) as module-scoped test data, removed afterwards."""

from __future__ import annotations

from contextlib import contextmanager

from django.core.management import call_command


@contextmanager
def rated_demo_data(django_db_blocker, *, players: int, seed: int):
    with django_db_blocker.unblock():
        from django.db import connection

        from federation.triggers import UNLOCK_TABLE

        call_command("seed_demo", players=players, seed=seed)
        call_command("rate_demo")
        yield
        # Module-scoped data is committed: remove it (published lists need the maintenance
        # switch).
        with connection.cursor() as cursor:
            cursor.execute(f"INSERT INTO {UNLOCK_TABLE} (reason) VALUES ('test teardown')")
        call_command("flush", interactive=False, verbosity=0)
        with connection.cursor() as cursor:
            cursor.execute(f"DELETE FROM {UNLOCK_TABLE}")
