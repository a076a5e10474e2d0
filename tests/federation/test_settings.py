"""The effective Celery configuration, and production settings that pass check --deploy."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from django.conf import settings

from federation.celery import app

ROOT = Path(__file__).resolve().parents[2]


def test_celery_reliability_settings():
    conf = app.conf
    assert conf.task_acks_late is True
    assert conf.task_reject_on_worker_lost is True
    assert conf.worker_prefetch_multiplier == 1
    assert conf.task_soft_time_limit < conf.task_time_limit
    assert conf.broker_transport_options["visibility_timeout"] > conf.task_time_limit
    assert conf.task_serializer == "json" and list(conf.accept_content) == ["json"]
    assert conf.task_default_queue == "ratings"
    assert conf.beat_schedule["schedule-due-runs"]["task"] == "ratings.schedule_due_runs"


def test_celery_is_eager_without_redis_and_uses_redis_when_given():
    if os.environ.get("REDIS_URL"):
        assert app.conf.task_always_eager is False
        assert app.conf.broker_url == os.environ["REDIS_URL"]
    else:
        assert app.conf.task_always_eager is True


def _manage(*args, **env):
    full_env = {k: v for k, v in os.environ.items() if k not in {"SECRET_KEY", "DEBUG"}}
    full_env.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=full_env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_production_settings_pass_check_deploy():
    result = _manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        PRODUCTION="1",
        SECRET_KEY="x" * 20 + "-Zq8!kP2@vL5#mN9$rT3%wY6^bH1&cJ4*",
        ALLOWED_HOSTS="ratings.example.org",
        CACHE_REDIS_URL="redis://127.0.0.1:6379/3",
    )
    assert result.returncode == 0, result.stderr + result.stdout


def test_production_refuses_to_start_without_secret_key():
    result = _manage("check", PRODUCTION="1", ALLOWED_HOSTS="ratings.example.org")
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr


def test_development_default_is_embedded_sqlite_unless_database_url():
    engine = settings.DATABASES["default"]["ENGINE"]
    if os.environ.get("DATABASE_URL", "").startswith("postgres"):
        assert engine == "federation.postgresql"  # Django's, its health check asks the socket
    else:
        assert engine == "django.db.backends.sqlite3"
