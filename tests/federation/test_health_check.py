"""/health/ (django-health-check): 200 when the database, the cache and, where there is one, the
Celery broker answer; 500 naming what does not."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.django_db
def test_healthy_site(client):
    response = client.get("/health/?format=json")
    assert response.status_code == 200, response.content
    checks = response.json()
    assert set(checks.values()) == {"OK"}
    names = " ".join(checks)
    assert "Database(alias='default')" in names and "Cache(alias='default')" in names
    assert ("Redis(" in names) == bool(
        os.environ.get("REDIS_URL")
    )  # the broker, where there is one
    assert "no-cache" in response["Cache-Control"]


def test_a_service_that_does_not_answer_fails_the_check():
    """A database and a broker on ports where nothing listens, in a process of their own."""
    code = (
        "import django; django.setup(); from django.test import Client; "
        "r = Client().get('/health/?format=json'); print(r.status_code); print(r.content.decode())"
    )
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "federation.settings",
        "DATABASE_URL": "postgres://nobody@127.0.0.1:9/nothing?connect_timeout=2",
        "REDIS_URL": "redis://127.0.0.1:9/0",
        "LOG_LEVEL": "CRITICAL",
    }
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    status, body = done.stdout.split("\n", 1)
    checks = json.loads(body)
    assert status == "500"
    failed = {name.split("(")[0] for name, result in checks.items() if result != "OK"}
    assert failed == {"Database", "Redis"}, checks
