"""Shared fixtures. Server-backed tests skip, with the reason, when their server is absent."""

from __future__ import annotations

import os

import pytest
from django.db import connections
from django.test import TransactionTestCase

from federation.triggers import UNLOCK_TABLE


def pytest_collection_modifyitems(config, items):
    skip_pg = pytest.mark.skip(reason="needs PostgreSQL: set DATABASE_URL=postgres://...")
    skip_redis = pytest.mark.skip(
        reason="needs Redis and a Celery worker: set REDIS_URL=redis://..."
    )
    on_pg = os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://"))
    for item in items:
        if "postgres" in item.keywords and not on_pg:
            item.add_marker(skip_pg)
        if "redis" in item.keywords and not os.environ.get("REDIS_URL"):
            item.add_marker(skip_redis)


_original_fixture_teardown = TransactionTestCase._fixture_teardown


def _flush_with_triggers_unlocked(self):
    """Transactional tests end with a flush; on SQLite that is row-by-row DELETE, which the
    immutability triggers rightly refuse. Unlock them for the flush only."""
    for alias in self._databases_names(include_mirrors=False):
        with connections[alias].cursor() as cursor:
            cursor.execute(f"INSERT INTO {UNLOCK_TABLE} (reason) VALUES ('test flush')")
    try:
        _original_fixture_teardown(self)
    finally:
        for alias in self._databases_names(include_mirrors=False):
            with connections[alias].cursor() as cursor:
                cursor.execute(f"DELETE FROM {UNLOCK_TABLE}")


TransactionTestCase._fixture_teardown = _flush_with_triggers_unlocked


@pytest.fixture
def eager_celery():
    """Run tasks in-process for this test even when REDIS_URL points at a real broker."""
    from federation.celery import app

    previous = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = previous


@pytest.fixture(autouse=True)
def _media_root(tmp_path):
    """Files written at publication go to the test's own directory: list ids are reused
    between tests (rolled back), and factories publish at fixed times."""
    from django.test import override_settings

    with override_settings(MEDIA_ROOT=tmp_path / "media"):
        yield
