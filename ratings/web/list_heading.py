"""The list page's heading (its title, validity, count and list selector), rendered once per
published list and language and then served from the cache to each of the list's pages.

Every page of one list (each deep page, sort and filter) shows the same heading, and rendering
its template (two block translations, one with a date, two URLs, the period selector) was about
a tenth of a list page's time (tests/benchmarks/bench_site.py). The cache key holds everything
the template reads: the list's own fields, its status and its federation's newest list (a
correction supersedes it and adds a period), the federation's code and name, the language and
what ``{% url %}`` reads (script prefix, URLconf, current app). The period selector's choices
follow the newest list, as federations.period_options keeps them. On a hit the page reads one
cache entry where it read the period choices before. tests/site/test_list_heading.py compares
the served heading with the template rendered again.
"""

from __future__ import annotations

import hashlib

from django.core.cache import cache
from django.template.loader import render_to_string
from django.urls import get_script_prefix, get_urlconf
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from ratings.selectors import federations
from ratings.web.page_cache import IMMUTABLE_SECONDS
from ratings.web.settings_generation import settings_generation

TEMPLATE = "ratings/_list_heading.html"


def _current_app(request) -> str | None:
    """The app a page's URLs are reversed for, as Django's {% url %} finds it: the request's
    current_app, else the namespace the request was routed through."""
    try:
        return request.current_app
    except AttributeError:
        return getattr(getattr(request, "resolver_match", None), "namespace", None)


def heading(request, rating_list) -> SafeString:
    """The heading of `rating_list` (from federations.published_list), as its template renders it."""
    key = cache_key(request, rating_list)
    found = cache.get(key)
    if found is None:
        found = render(request, rating_list)
        cache.set(key, str(found), timeout=IMMUTABLE_SECONDS)
    return mark_safe(found)


def cache_key(request, rating_list) -> str:
    """A key per value of everything the heading's template reads."""
    federation, period = rating_list.federation, rating_list.period
    read = (
        rating_list.pk,
        rating_list.status,
        rating_list.entry_count,
        rating_list.previous_id,
        rating_list.newest_list_id,
        period.code,
        period.valid_from,
        federation.pk,
        federation.code,
        federation.name,
        get_language(),
        get_script_prefix(),
        get_urlconf(),
        _current_app(request),
        settings_generation(),
    )
    return f"ratings:list-heading:{hashlib.sha256(repr(read).encode()).hexdigest()}"


def render(request, rating_list) -> SafeString:
    """The heading rendered from its template: what the cache holds."""
    federation = rating_list.federation
    context = {
        "rating_list": rating_list,
        "federation": federation,
        "periods": federations.period_options(federation, rating_list.newest_list_id),
    }
    return mark_safe(render_to_string(TEMPLATE, context, request))
