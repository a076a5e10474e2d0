"""`manage.py check --deploy` fails for each unsafe production setting, and demo commands refuse
to run in production. Each case changes one setting of an otherwise safe configuration."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import get_commands, load_command_class

from federation.checks import production_settings
from federation.management.demo_command import DemoCommand

ROOT = Path(__file__).resolve().parents[2]
SAFE_KEY = "k" * 20 + "-Zq8!kP2@vL5#mN9$rT3%wY6^bH1&cJ4*xx"
REDIS_CACHE = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": "redis://127.0.0.1:6380/0",
    }
}
LOCAL_CACHE = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
SAFE = dict(
    PRODUCTION=True,
    CACHES=REDIS_CACHE,
    REDIS_URL="redis://127.0.0.1:6379/0",
    ALLOWED_HOSTS=["ratings.example.org"],
    SECRET_KEY=SAFE_KEY,
    TRUSTED_PROXIES=["127.0.0.1", "10.0.0.0/8"],
)
UNSAFE = {
    "federation.E001": dict(CACHES=LOCAL_CACHE),
    "federation.E002": dict(
        CACHES={"default": {**REDIS_CACHE["default"], "LOCATION": "redis://127.0.0.1:6379"}}
    ),
    "federation.E003": dict(ALLOWED_HOSTS=["*"]),
    "federation.E004": dict(SECRET_KEY="short-but-random-Q7!"),
    "federation.E005": dict(TRUSTED_PROXIES=["proxy.example.org"]),
}


def _ids(settings, **changes) -> set[str]:
    for name, value in {**SAFE, **changes}.items():
        setattr(settings, name, value)
    return {error.id for error in production_settings()}


def test_the_safe_configuration_passes(settings):
    assert _ids(settings) == set()


@pytest.mark.parametrize("error_id", sorted(UNSAFE))
def test_each_unsafe_setting_is_an_error(settings, error_id):
    assert _ids(settings, **UNSAFE[error_id]) == {error_id}


def test_more_unsafe_values(settings):
    assert _ids(settings, ALLOWED_HOSTS=[]) == {"federation.E003"}
    assert _ids(settings, ALLOWED_HOSTS=["ratings.example.org", "*.example.org"]) == {
        "federation.E003"
    }
    assert _ids(settings, SECRET_KEY="a" * 80) == {"federation.E004"}  # long but one character
    assert _ids(settings, PRODUCTION=False, CACHES=LOCAL_CACHE, ALLOWED_HOSTS=["*"]) == set()


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


def test_check_deploy_fails_without_a_shared_cache():
    """The audit's configuration: it passed `check --deploy` before."""
    env = {k: v for k, v in os.environ.items() if k != "CACHE_REDIS_URL"}
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy"],
        cwd=ROOT,
        env={**env, "PRODUCTION": "1", "SECRET_KEY": SAFE_KEY, "ALLOWED_HOSTS": "*"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode != 0
    assert "federation.E001" in result.stderr and "federation.E003" in result.stderr


def _demo_commands() -> list[str]:
    project = ("federation", "tournaments", "ratings")
    return sorted(
        name
        for name, app in get_commands().items()
        if app in project and ("demo" in name or issubclass(_class(app, name), DemoCommand))
    )


def _class(app, name):
    return type(load_command_class(app, name))


def test_every_demo_command_is_a_demo_command():
    names = _demo_commands()
    assert {"seed_demo", "rate_demo", "demo_logins"} <= set(names)
    for name in names:
        assert issubclass(_class(get_commands()[name], name), DemoCommand), name


@pytest.mark.parametrize("name", ["seed_demo", "rate_demo", "demo_logins"])
def test_demo_commands_refuse_to_run_in_production(name):
    result = _manage(name, PRODUCTION="1", SECRET_KEY=SAFE_KEY, ALLOWED_HOSTS="x.example.org")
    assert result.returncode != 0
    assert "refuses to run with PRODUCTION=1" in result.stderr
