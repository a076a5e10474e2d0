"""Whole-page caching of the public pages, and the lifetimes of everything the site caches.

Public pages show published lists and rated events, which never change, so a rendered page can be
served again as it is. Every cached page carries the "publication generation", changed whenever a
list is published, so a new list shows at once where the cache is shared (Redis in production);
the timeout bounds how long anything else on a page (a corrected player name) can be stale.

Keys are built from the path and the query parameters a view declares (sorted, empty ones
dropped); a request carrying anything else is served but not stored, so junk parameters cannot
fill the cache. Every key has a lifetime (nothing is cached for good), and pages above
PAGE_MAX_BYTES are not stored.
"""

from __future__ import annotations

import hashlib
import time
from functools import wraps
from urllib.parse import urlencode

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import get_language

GENERATION_KEY = "public-pages:generation"
# Derived data of immutable lists (orders, diffs, period choices): recomputed at most daily.
IMMUTABLE_SECONDS = 24 * 3600
PAGE_MAX_BYTES = 2 * 1024 * 1024


def generation() -> int:
    # A time-based start: a generation lost to expiry or eviction never comes back as an old one.
    return cache.get_or_set(GENERATION_KEY, time.time_ns(), timeout=IMMUTABLE_SECONDS)


def bump_generation() -> None:
    cache.set(GENERATION_KEY, max(time.time_ns(), generation() + 1), timeout=IMMUTABLE_SECONDS)


def canonical_query(query, params: tuple[str, ...]) -> str | None:
    """The declared parameters, sorted, empty ones dropped; None if anything else was sent (or a
    parameter twice): such a request is not cached."""
    if set(query) - set(params) or any(len(query.getlist(k)) > 1 for k in query):
        return None
    return urlencode(sorted((k, query[k]) for k in params if query.get(k)))


def cached_public_page(view=None, *, params: tuple[str, ...] = ()):
    """Cache 200 responses of a GET view by path, the declared query parameters, language and
    publication generation. Use bare (no query parameters) or with ``params=(...)``."""
    if view is None:
        return lambda view: cached_public_page(view, params=params)

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        timeout = settings.PUBLIC_PAGE_CACHE_SECONDS
        query = canonical_query(request.GET, params)
        if timeout <= 0 or request.method != "GET" or query is None:
            return view(request, *args, **kwargs)
        digest = hashlib.sha256(f"{request.path}?{query}".encode()).hexdigest()
        key = f"public-pages:{generation()}:{get_language()}:{digest}"
        cached = cache.get(key)
        if cached is not None:
            return cached
        response = view(request, *args, **kwargs)
        if (
            response.status_code == 200
            and not response.streaming
            and len(response.content) <= PAGE_MAX_BYTES
        ):
            cache.set(key, response, timeout=min(timeout, IMMUTABLE_SECONDS))
        return response

    return wrapper
