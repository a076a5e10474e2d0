"""Reading settings from the environment: small, explicit parsers with clear errors."""

from __future__ import annotations

import os
from urllib.parse import parse_qs, unquote, urlparse

from django.core.exceptions import ImproperlyConfigured


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    value = raw.strip().lower()
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r} is not a boolean (use 1/0, true/false)")


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def database_from_url(url: str | None, sqlite_path: str) -> dict:
    """Django DATABASES['default'] from a DATABASE_URL; None means the embedded SQLite file."""
    if not url:
        return {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": sqlite_path,
            "OPTIONS": {"timeout": 20},
        }
    parsed = urlparse(url)
    if parsed.scheme in {"postgres", "postgresql", "pgsql"}:
        options = {k: v[-1] for k, v in parse_qs(parsed.query, keep_blank_values=True).items()}
        options["prepare_threshold"] = _prepare_threshold(options.get("prepare_threshold", "0"))
        mode = options.pop("plan_cache_mode", "force_generic_plan")
        if mode:
            options["options"] = _with_plan_cache_mode(options.get("options", ""), mode)
        return {
            "ENGINE": "federation.postgresql",  # Django's, with a cheaper health check
            "NAME": unquote(parsed.path.lstrip("/")),
            "USER": unquote(parsed.username or ""),
            "PASSWORD": unquote(parsed.password or ""),
            "HOST": parsed.hostname or "",
            "PORT": str(parsed.port or ""),
            "CONN_MAX_AGE": int(os.environ.get("CONN_MAX_AGE", "60")),
            "CONN_HEALTH_CHECKS": True,
            "OPTIONS": options,
        }
    if parsed.scheme == "sqlite":
        return {"ENGINE": "django.db.backends.sqlite3", "NAME": unquote(parsed.path) or sqlite_path}
    raise ImproperlyConfigured(f"DATABASE_URL scheme {parsed.scheme!r} is not supported")


def _prepare_threshold(raw: str) -> int | None:
    """After how many runs on a connection psycopg prepares a statement that federation.prepared
    sends with its values apart (the ORM's own never are): at once by default, so the public
    pages' statements are planned once per connection. Empty: never, e.g. behind a pooler that
    cannot keep prepared statements."""
    if raw and not raw.isdigit():
        raise ImproperlyConfigured(
            f"DATABASE_URL: prepare_threshold={raw!r} is not a count (or empty: off)"
        )
    return int(raw) if raw else None


PLAN_CACHE_MODES = ("force_generic_plan", "auto", "force_custom_plan")


def _with_plan_cache_mode(libpq_options: str, mode: str) -> str:
    """libpq's startup `options` with PostgreSQL's plan_cache_mode set for the connection.

    force_generic_plan (the default): a prepared statement is planned once, for any values,
    from its first run. Without it PostgreSQL plans the first five runs for their values before
    it compares and settles on the generic plan, which every statement of the public pages
    does (tests/site/test_planned_once.py): a connection's first dozen player pages paid the
    planner, 2-4 ms each. The ORM binds its values into the statement text, so its statements
    have no parameters and no choice to make; what else it reaches is the PL/pgSQL guards'
    lookups by key (federation.triggers). Empty: the server's own setting."""
    if mode not in PLAN_CACHE_MODES:
        raise ImproperlyConfigured(
            f"DATABASE_URL: plan_cache_mode={mode!r} is not one of {', '.join(PLAN_CACHE_MODES)}"
            " (or empty: the server's setting)"
        )
    return " ".join(filter(None, [libpq_options, f"-c plan_cache_mode={mode}"]))
