"""Every public page, served as the site serves it (federation.wsgi's handler), leaves none of
its own objects in a reference cycle: what it built is freed as it is done, not by the garbage
collector in the middle of a later request (federation.cycle_free).

Each URL of the public site (tests/hardening/public_urls.py, with the values of a test world) is
requested twice through the handler, its response read and closed as a WSGI server does; after
the second, what the collector finds must hold no request and no template context (PAGE_HOLDERS).
The first request fills what is filled once (compiled templates, URL patterns, caches).
"""

from __future__ import annotations

import contextlib
import gc
import io
from collections import Counter

import pytest
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.http import HttpRequest
from django.template.context import BaseContext, ContextDict
from django.test import RequestFactory

from federation.cycle_free import WSGIHandler
from tests.hardening.public_urls import urls_for
from tests.hardening.url_values import world_values
from tests.site.factories import standard_world

pytestmark = pytest.mark.django_db


@contextlib.contextmanager
def _collector_off():
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


@contextlib.contextmanager
def _in_the_test_transaction():
    """As Django's test client: the handler's signals must not close the test's connection."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


# What a page must not leave to the collector: the request, the template context, and so all
# that hangs from them (a page's rows and objects). Django's own small cycles (the compiler's
# recursive helper of select_related, the JSON encoder's, forms' bound fields, django-filter's
# filters and their FilterSet) are left to it.
PAGE_HOLDERS = (HttpRequest, BaseContext, ContextDict)


def _serve(handler: WSGIHandler, url: str) -> str:
    """The status of `url`, its whole response read and then closed, as a WSGI server does."""
    path, _, query = url.partition("?")
    environ = RequestFactory().get(path, QUERY_STRING=query).environ
    environ["wsgi.input"] = io.BytesIO(b"")
    started = []
    response = handler(environ, lambda status, headers, exc_info=None: started.append(status))
    try:
        b"".join(response)
    finally:
        response.close()
    return started[0]


def _left_in_cycles(handler: WSGIHandler, url: str) -> Counter:
    """The kinds of object serving `url` left unreachable in cycles."""
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)  # what the collector finds goes to gc.garbage, not freed
    try:
        _serve(handler, url)
        gc.collect()
        return Counter(type(o).__qualname__ for o in gc.garbage if isinstance(o, PAGE_HOLDERS))
    finally:
        gc.set_debug(0)
        gc.garbage.clear()


def test_no_public_page_leaves_its_request_context_or_forms_to_the_collector():
    urls = urls_for(world_values(standard_world()))
    handler = WSGIHandler()
    cyclic, served = {}, []
    with _in_the_test_transaction(), _collector_off():
        for url in urls:
            if not _serve(handler, url).startswith("200"):
                continue  # an error's traceback holds the request; errors are not the hot path
            served.append(url)
            left = _left_in_cycles(handler, url)
            if left:
                cyclic[url] = dict(left.most_common(6))
    assert len(served) > 30, served
    assert any("/players/" in url for url in served) and any("/lists/" in url for url in served)
    assert not cyclic, "\n".join(f"{url}: {left}" for url, left in cyclic.items())
