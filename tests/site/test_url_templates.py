"""reverse_fast (federation.url_templates) and {% load url_templates %}{% url %} give what Django's
reverse() and {% url %} give: for every named URL of the site, in every language, positional and
keyword, on generated values (reverse()'s NoReverseMatch included), and after the URLconf or the
script prefix change."""

from __future__ import annotations

import re

import pytest
from django.conf import settings as django_settings
from django.template import RequestContext, Template
from django.test import RequestFactory, override_settings
from django.urls import (
    NoReverseMatch,
    URLPattern,
    URLResolver,
    get_resolver,
    include,
    path,
    reverse,
    set_script_prefix,
)
from django.utils import translation
from hypothesis import given, settings
from hypothesis import strategies as st

from federation.url_templates import reverse_fast

PARAMETER = re.compile(r"<(?:(?P<converter>[^>:]+):)?(?P<name>[^>]+)>")


def _named_routes(resolver=None, namespace="", route=""):
    """(view name, route parameter names) of every named URL pattern reachable from the root."""
    resolver = resolver or get_resolver()
    for entry in resolver.url_patterns:
        text = route + str(entry.pattern)
        if isinstance(entry, URLResolver):
            inner = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            yield from _named_routes(entry, inner, text)
        elif isinstance(entry, URLPattern) and entry.name:
            yield f"{namespace}{entry.name}", tuple(m["name"] for m in PARAMETER.finditer(text))


ROUTES = sorted(set(_named_routes()))
PUBLIC = [(name, params) for name, params in ROUTES if not name.startswith("admin:")]
LANGUAGES = [code for code, _ in django_settings.LANGUAGES]

texts = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=10)
values = st.one_of(
    texts,
    st.from_regex(r"[A-Za-z0-9][A-Za-z0-9._-]{0,8}", fullmatch=True),
    st.integers(-3, 10**13),
    st.sampled_from(["", "/", "a/b", "%", "..", "é ?#", "987654320100", True, None]),
)


def _outcome(function, *args, **kwargs):
    try:
        return function(*args, **kwargs)
    except NoReverseMatch:
        return NoReverseMatch


def test_the_site_has_the_urls_the_pages_link():
    names = {name for name, _ in ROUTES}
    assert {"ratings:list", "ratings:player", "ratings:explain", "api:list"} <= names
    assert len(PUBLIC) >= 20


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(("name", "params"), PUBLIC, ids=[name for name, _ in PUBLIC])
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_reverse_fast_is_reverse(language, name, params, data):
    arguments = data.draw(st.lists(values, min_size=len(params), max_size=len(params)))
    with translation.override(language):
        for args, kwargs in (
            (arguments, None),
            ((), dict(zip(params, arguments, strict=True))),
        ):
            expected = _outcome(reverse, name, args=args, kwargs=kwargs)
            assert _outcome(reverse_fast, name, args=args, kwargs=kwargs) == expected


@pytest.mark.parametrize("active", LANGUAGES)
@pytest.mark.parametrize(("name", "params"), PUBLIC, ids=[name for name, _ in PUBLIC])
@settings(max_examples=10, deadline=None)
@given(data=st.data())
def test_reverse_fast_in_another_language_is_reverse_in_it(active, name, params, data):
    """language=: the URL reverse() gives with that language active (the language switcher),
    while another one is, and the active one is left as it was."""
    arguments = data.draw(st.lists(values, min_size=len(params), max_size=len(params)))
    kwargs = dict(zip(params, arguments, strict=True))
    for language in LANGUAGES:
        with translation.override(language):
            expected = _outcome(reverse, name, kwargs=kwargs)
        with translation.override(active):
            found = _outcome(reverse_fast, name, kwargs=kwargs, language=language)
            assert translation.get_language() == active
        assert found == expected, (active, language)


@pytest.mark.parametrize(("name", "params"), PUBLIC, ids=[name for name, _ in PUBLIC])
def test_wrong_shapes_fail_as_reverse_fails(name, params):
    for args in ((), ("x",) * (len(params) + 1)):
        if len(args) != len(params):
            assert _outcome(reverse_fast, name, args=args) is NoReverseMatch
    assert _outcome(reverse_fast, name, kwargs={"nosuchargument": "x"}) is NoReverseMatch


def test_unknown_names_and_callables_go_to_reverse():
    assert _outcome(reverse_fast, "ratings:nosuchview") is NoReverseMatch
    from ratings.web import views

    for view in (views.home, views.search, views.whatif_index):
        assert _outcome(reverse_fast, view) == _outcome(reverse, view)


def test_a_script_prefix_is_kept():
    try:
        set_script_prefix("/ratings site/")
        assert reverse_fast("ratings:list", args=["ebf", "2024"]) == reverse(
            "ratings:list", args=["ebf", "2024"]
        )
        assert reverse_fast("ratings:list", args=["ebf", "2024"]).startswith("/ratings%20site/")
    finally:
        set_script_prefix("/")


# A URLconf of this module's own for the test below: the site's pages under another path.
urlpatterns = [path("elsewhere/", include("ratings.web.urls"))]


def test_a_changed_urlconf_gets_its_own_templates():
    assert reverse_fast("ratings:list", args=["ebf", "1"]) == "/federations/ebf/lists/1/"
    with override_settings(ROOT_URLCONF=__name__):
        assert (
            reverse_fast("ratings:list", args=["ebf", "1"]) == "/elsewhere/federations/ebf/lists/1/"
        )
    assert reverse_fast("ratings:list", args=["ebf", "1"]) == "/federations/ebf/lists/1/"


TAGS = [
    "{% url 'ratings:list' a b %}",
    "{% url 'ratings:explain' federation=a player=b run=c %}",
    "{% url 'ratings:explain' a b c as found %}[{{ found }}]",
    "{% url name a b %}",
    "{% url 'ratings:home' %}",
    "{% url 'api:list' a b %}",
]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("tag", TAGS)
@settings(max_examples=25, deadline=None)
@given(a=values, b=values, c=values)
def test_the_template_tag_is_djangos(language, tag, a, b, c):
    context = {"a": a, "b": b, "c": c, "name": "ratings:player"}
    request = RequestFactory().get("/")
    with translation.override(language):
        expected = _outcome(_render, tag, context, request)
        assert _outcome(_render, "{% load url_templates %}" + tag, context, request) == expected


def _render(source: str, context: dict, request) -> str:  # as a page renders: with its request
    return Template(source).render(RequestContext(request, context))
