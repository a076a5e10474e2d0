"""Shared fixtures. Server-backed tests skip, with the reason, when their server is absent."""

from __future__ import annotations

import os

import pytest


def pytest_collection_modifyitems(config, items):
    skip_pg = pytest.mark.skip(reason="needs PostgreSQL: set DATABASE_URL=postgres://...")
    skip_redis = pytest.mark.skip(reason="needs Redis and a Celery worker: set REDIS_URL=redis://...")
    on_pg = os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://"))
    for item in items:
        if "postgres" in item.keywords and not on_pg:
            item.add_marker(skip_pg)
        if "redis" in item.keywords and not os.environ.get("REDIS_URL"):
            item.add_marker(skip_redis)
