"""The cache cannot be filled from outside, and nothing in it lives for ever.

- every cache write the site makes while every public URL (and the explain report) is requested
  has a finite lifetime, at most a day;
- junk query parameters add no key: 300 requests with distinct unknown parameters to each
  cached page leave the cache as one clean request of each left it.
"""

from __future__ import annotations

import inspect

import pytest
from django.core.cache import caches
from django.core.cache.backends.base import DEFAULT_TIMEOUT

from ratings.web.page_cache import IMMUTABLE_SECONDS
from tests.hardening.public_urls import urls_for
from tests.hardening.url_values import world_values
from tests.ratings.web.factories import standard_world

pytestmark = pytest.mark.django_db
WRITERS = ("set", "add", "get_or_set", "set_many", "touch", "incr")


@pytest.fixture
def page_cache_on(settings):
    settings.PUBLIC_PAGE_CACHE_SECONDS = 300
    caches["default"].clear()
    yield caches["default"]
    caches["default"].clear()


@pytest.fixture
def writes(page_cache_on, monkeypatch):
    """(method, key, lifetime in seconds or None) of every cache write."""
    backend = page_cache_on
    seen: list[tuple[str, str, float | None]] = []
    for name in WRITERS:
        original = getattr(backend, name)
        signature = inspect.signature(original)

        def recorder(*args, _original=original, _name=name, _sig=signature, **kwargs):
            bound = _sig.bind(*args, **kwargs)
            if "timeout" in _sig.parameters:
                timeout = bound.arguments.get("timeout", DEFAULT_TIMEOUT)
                if timeout is DEFAULT_TIMEOUT:
                    timeout = backend.default_timeout
                key = bound.arguments.get("key", "<many>")
                seen.append((_name, str(key), timeout))
            return _original(*args, **kwargs)

        monkeypatch.setattr(backend, name, recorder)
    return seen


def test_every_cache_write_has_a_bounded_lifetime(client, writes):
    world = standard_world()
    urls = urls_for(world_values(world))
    for url in urls:
        for query in ("", "?country=DE", "?sort=name&page=2", "?against=2026Q1"):
            response = client.get(url + query)
            assert response.status_code < 500, url + query
    assert len(urls) >= 20 and len(writes) >= 20
    unbounded = [(name, key, t) for name, key, t in writes if t is None or t > IMMUTABLE_SECONDS]
    assert unbounded == []


def _keys(backend) -> set[str]:
    return set(backend._cache)  # LocMemCache's store


def test_junk_query_parameters_add_no_cache_key(client, page_cache_on):
    world = standard_world()
    pages = [u for u in urls_for(world_values(world)) if "/api/" not in u and "export" not in u]
    for url in pages:
        client.get(url)
        client.get(url)
    baseline = _keys(page_cache_on)
    requests = 0
    for url in pages:
        for i in range(300 // len(pages) + 1):
            junk = f"?utm_{i}=x{i}" if i % 2 else f"?q=&junk=x{i}&page=1"
            assert client.get(url + junk).status_code < 500
            requests += 1
    assert requests >= 300
    assert _keys(page_cache_on) == baseline
