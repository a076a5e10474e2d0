"""Whole-page caching of the public pages.

Public pages show published lists and rated events, which never change, so a rendered page can be
served again as it is. Every cached page carries the "publication generation", bumped whenever a
list is published, so a new list shows at once where the cache is shared (Redis in production);
the timeout bounds how long anything else on a page (a corrected player name, a process-local
cache) can be stale.
"""

from __future__ import annotations

import hashlib
from functools import wraps

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import get_language

GENERATION_KEY = "public-pages:generation"


def generation() -> int:
    return cache.get_or_set(GENERATION_KEY, 1, timeout=None)


def bump_generation() -> None:
    try:
        cache.incr(GENERATION_KEY)
    except ValueError:  # not set yet (or evicted): any new value invalidates
        cache.set(GENERATION_KEY, generation() + 1, timeout=None)


def cached_public_page(view):
    """Cache 200 responses of a GET view by full path, language and publication generation."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        timeout = settings.PUBLIC_PAGE_CACHE_SECONDS
        if timeout <= 0 or request.method != "GET":
            return view(request, *args, **kwargs)
        path = hashlib.sha256(request.get_full_path().encode()).hexdigest()
        key = f"public-pages:{generation()}:{get_language()}:{path}"
        cached = cache.get(key)
        if cached is not None:
            return cached
        response = view(request, *args, **kwargs)
        if response.status_code == 200 and not response.streaming:
            cache.set(key, response, timeout=timeout)
        return response

    return wrapper
