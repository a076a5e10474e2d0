"""The effective Celery configuration, production settings that pass check --deploy, the
database and Sentry as the environment sets them, and a value that does not parse refused by
its variable's name."""

from __future__ import annotations

import os
import runpy
import subprocess
import sys
from pathlib import Path

import pytest
import sentry_sdk
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
        assert engine == "django.db.backends.postgresql"
    else:
        assert engine == "django.db.backends.sqlite3"


SETTINGS = str(ROOT / "federation" / "settings.py")
URL = "postgres://ratings:s%40cret@db.internal:5432/ratings"


def _settings(monkeypatch, **env) -> dict:
    """The settings module run afresh with these environment variables (and no others of it)."""
    for name in ("DATABASE_URL", "SENTRY_DSN", "DATABASE_PREPARE_THRESHOLD", "CONN_MAX_AGE"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(SETTINGS)


def test_postgresql_connections_persist_and_are_checked(monkeypatch):
    database = _settings(monkeypatch, DATABASE_URL=f"{URL}?sslmode=require")["DATABASES"]["default"]
    assert database["ENGINE"] == "django.db.backends.postgresql"
    assert (database["NAME"], database["USER"], database["PASSWORD"]) == ("ratings",) * 2 + (
        "s@cret",
    )
    assert database["CONN_MAX_AGE"] == 60 and database["CONN_HEALTH_CHECKS"] is True
    assert database["OPTIONS"] == {
        "sslmode": "require",  # the URL's query string goes to the driver
        "prepare_threshold": 0,
        "server_side_binding": False,
    }


@pytest.mark.parametrize(("given", "threshold"), [("", None), ("0", 0), ("5", 5)])
def test_prepare_threshold(monkeypatch, given, threshold):
    env = _settings(monkeypatch, DATABASE_URL=URL, DATABASE_PREPARE_THRESHOLD=given)
    assert env["DATABASES"]["default"]["OPTIONS"]["prepare_threshold"] == threshold


def test_server_side_binding(monkeypatch):
    env = _settings(monkeypatch, DATABASE_URL=URL, DATABASE_SERVER_SIDE_BINDING="1")
    assert env["DATABASES"]["default"]["OPTIONS"]["server_side_binding"] is True


def test_embedded_sqlite_without_database_url(monkeypatch):
    database = _settings(monkeypatch)["DATABASES"]["default"]
    assert database["ENGINE"] == "django.db.backends.sqlite3"
    assert database["NAME"] == str(ROOT / "db.sqlite3")
    assert database["OPTIONS"] == {"timeout": 20}


@pytest.mark.parametrize(
    ("env", "named"),
    [
        ({"DEBUG": "maybe"}, "DEBUG"),
        ({"PRODUCTION": "yes please"}, "PRODUCTION"),
        ({"LOGIN_FAILURE_LIMIT": "five"}, "LOGIN_FAILURE_LIMIT"),
        ({"DATABASE_URL": URL, "DATABASE_PREPARE_THRESHOLD": "-1"}, "DATABASE_PREPARE_THRESHOLD"),
        ({"DATABASE_URL": "mongodb://db.internal/ratings"}, "DATABASE_URL"),
        (
            {"PRODUCTION": "1", "SECRET_KEY": "k" * 60, "SECURE_HSTS_SECONDS": "1y"},
            "SECURE_HSTS_SECONDS",
        ),
    ],
)
def test_a_value_that_does_not_parse_is_refused_by_name(monkeypatch, env, named):
    with pytest.raises(ValueError, match=f'Environment variable "{named}" invalid'):
        _settings(monkeypatch, **env)


def test_sentry_is_not_initialised_without_sentry_dsn(monkeypatch):
    calls = []
    monkeypatch.setattr(sentry_sdk, "init", lambda **kwargs: calls.append(kwargs))
    _settings(monkeypatch)
    assert calls == []
    assert not sentry_sdk.get_client().is_active()  # nor by the settings the tests run with


def test_sentry_is_initialised_with_django_and_celery_when_sentry_dsn_is_set(monkeypatch):
    from sentry_sdk.integrations.celery import CeleryIntegration
    from sentry_sdk.integrations.django import DjangoIntegration

    calls = []
    monkeypatch.setattr(sentry_sdk, "init", lambda **kwargs: calls.append(kwargs))
    _settings(monkeypatch, SENTRY_DSN="https://key@sentry.example.org/7")
    [given] = calls
    assert given["dsn"] == "https://key@sentry.example.org/7"
    kinds = {type(integration) for integration in given["integrations"]}
    assert kinds == {DjangoIntegration, CeleryIntegration}
    assert given["send_default_pii"] is False
