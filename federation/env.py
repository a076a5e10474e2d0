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
        # federation.prepared's statements are prepared after this many runs on a connection
        # (the ORM's own never are); ?prepare_threshold= (empty) turns it off, e.g. behind a
        # pooler that cannot keep prepared statements.
        threshold = options.get("prepare_threshold", "5")
        if threshold and not threshold.isdigit():
            raise ImproperlyConfigured(
                f"DATABASE_URL: prepare_threshold={threshold!r} is not a count (or empty: off)"
            )
        options["prepare_threshold"] = int(threshold) if threshold else None
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
