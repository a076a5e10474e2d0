"""The list page's heading (ratings.web.list_heading) is served from the cache: what it serves is
the heading's template rendered again, on the page and in every language, and every value the
template reads is part of the cache key, so no change can be served an older heading."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings as django_settings
from django.db.models import Model
from django.template.loader import render_to_string
from django.test import RequestFactory
from django.urls import resolve
from django.utils import translation

from ratings.selectors import federations
from ratings.web import list_heading
from tests.site.factories import standard_world

pytestmark = pytest.mark.django_db
LANGUAGES = [code for code, _ in django_settings.LANGUAGES]


def _url(language: str, period: str) -> str:
    prefix = "" if language == django_settings.LANGUAGE_CODE else f"/{language}"
    return f"{prefix}/federations/fed/lists/{period}/"


def _request(language: str, period: str):
    request = RequestFactory().get(_url(language, period))
    with translation.override(language):  # i18n_patterns resolve in the active language
        request.resolver_match = resolve(request.path)
    return request


def _fresh(period: str):
    """The list as published_list gives it, read again (not from the cache)."""
    return federations._published_list("fed", period)


@pytest.mark.parametrize("period", ["2026Q1", "2026Q2"])
def test_the_page_shows_the_heading_its_template_renders(client, period):
    standard_world()
    for language in LANGUAGES:
        with translation.override(language):
            rendered = list_heading.render(_request(language, period), _fresh(period))
            for _round in range(2):  # the first renders and keeps, the second is served
                html = client.get(_url(language, period)).content.decode()
                assert rendered in html
            assert "2026Q1" in rendered and "<select" in rendered


class _Recorder:
    """A model instance that notes each attribute the template reads (dotted from its name)."""

    def __init__(self, target, path: str, seen: set[str]):
        self._target, self._path, self._seen = target, path, seen

    def __getitem__(self, key):
        raise TypeError("attributes only")  # the template engine then reads the attribute

    def __getattr__(self, name):
        value = getattr(self._target, name)
        path = f"{self._path}.{name}"
        if isinstance(value, Model):
            return _Recorder(value, path, self._seen)
        self._seen.add(path)
        return value


def _read_by_template(rating_list) -> set[str]:
    seen: set[str] = set()
    context = {
        "rating_list": _Recorder(rating_list, "rating_list", seen),
        "federation": _Recorder(rating_list.federation, "federation", seen),
        "periods": federations.period_options(rating_list.federation, rating_list.newest_list_id),
    }
    render_to_string(list_heading.TEMPLATE, context, _request("en", rating_list.period.code))
    return seen


def _changed(value):
    if isinstance(value, str):
        return value + "x"
    if value is None or isinstance(value, bool):
        return 1 if value is None else not value
    if isinstance(value, int):
        return value + 1
    return value + timedelta(days=1)  # a date


def test_every_value_the_template_reads_is_in_the_cache_key():
    standard_world()
    read = _read_by_template(_fresh("2026Q2"))
    # The selector's choices come from the newest list: the key holds it in their place.
    read |= {"rating_list.newest_list_id"}
    assert {"rating_list.status", "federation.name", "rating_list.period.valid_from"} <= read
    request = _request("en", "2026Q2")
    for path in sorted(read):
        rating_list = _fresh("2026Q2")
        before = list_heading.cache_key(request, rating_list)
        owner_path, name = path.rsplit(".", 1)
        owner = {"rating_list": rating_list, "federation": rating_list.federation}[
            owner_path.split(".")[0]
        ]
        for step in owner_path.split(".")[1:]:
            owner = getattr(owner, step)
        setattr(owner, name, _changed(getattr(owner, name)))
        assert list_heading.cache_key(request, rating_list) != before, path


def test_the_key_follows_the_language_and_the_url_prefix():
    standard_world()
    rating_list = _fresh("2026Q2")
    keys = set()
    for language in LANGUAGES:
        with translation.override(language):
            keys.add(list_heading.cache_key(_request(language, "2026Q2"), rating_list))
    assert len(keys) == len(LANGUAGES)
