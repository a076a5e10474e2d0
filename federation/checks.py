"""Project system checks: `manage.py check --deploy` fails for each unsafe production setting.

Django's own deploy checks only warn about a short SECRET_KEY and say nothing about a
per-process cache or wildcard hosts; with PRODUCTION=1 each of these is an error here.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.core.checks import Error, Tags, register

SECRET_KEY_MIN_LENGTH = 50
SECRET_KEY_MIN_UNIQUE = 5
SHARED_CACHE_BACKENDS = ("django.core.cache.backends.redis.RedisCache",)


def _same_redis_database(first: str, second: str) -> bool:
    from urllib.parse import urlparse

    a, b = urlparse(first), urlparse(second)
    return (a.hostname, a.port or 6379, a.path.strip("/") or "0") == (
        b.hostname,
        b.port or 6379,
        b.path.strip("/") or "0",
    )


@register(Tags.security, deploy=True)
def production_settings(app_configs=None, **kwargs) -> list[Error]:
    if not settings.PRODUCTION:
        return []
    errors = []
    cache = settings.CACHES["default"]
    if cache["BACKEND"] not in SHARED_CACHE_BACKENDS:
        errors.append(
            Error(
                "PRODUCTION=1 needs a cache shared by every process: set CACHE_REDIS_URL.",
                hint="A per-process cache serves superseded lists after a publication.",
                id="federation.E001",
            )
        )
    elif settings.REDIS_URL and _same_redis_database(cache["LOCATION"], settings.REDIS_URL):
        errors.append(
            Error(
                "CACHE_REDIS_URL points at the Celery broker's Redis database.",
                hint="Use a separate Redis instance (maxmemory + allkeys-lru) for the cache; "
                "see DEPLOYMENT.md.",
                id="federation.E002",
            )
        )
    if not settings.ALLOWED_HOSTS or any("*" in host for host in settings.ALLOWED_HOSTS):
        errors.append(
            Error(
                "ALLOWED_HOSTS must name the site's hosts: no wildcard '*', not empty.",
                id="federation.E003",
            )
        )
    key = settings.SECRET_KEY or ""
    if len(key) < SECRET_KEY_MIN_LENGTH or len(set(key)) < SECRET_KEY_MIN_UNIQUE:
        errors.append(
            Error(
                f"SECRET_KEY must be at least {SECRET_KEY_MIN_LENGTH} characters with "
                f"{SECRET_KEY_MIN_UNIQUE} different ones.",
                hint="python -c 'import secrets; print(secrets.token_urlsafe(64))'",
                id="federation.E004",
            )
        )
    for proxy in settings.TRUSTED_PROXIES:
        try:
            ipaddress.ip_network(proxy, strict=False)
        except ValueError:
            errors.append(
                Error(
                    f"TRUSTED_PROXIES: {proxy!r} is not an IP address or network.",
                    id="federation.E005",
                )
            )
    return errors
