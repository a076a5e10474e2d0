"""{% per_language %} fragments (ratings/templatetags/fragments.py): every fragment of the site's
templates gives, copied, what rendering it in the page would give, in every language and under
another script prefix; a fragment that could depend on the page does not compile."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.template import RequestContext, Template, TemplateSyntaxError, engines
from django.test import RequestFactory
from django.urls import resolve, set_script_prefix
from django.utils import translation

from ratings.templatetags.fragments import PerLanguageNode

TEMPLATES = Path(django_settings.BASE_DIR) / "templates"
WITH_FRAGMENTS = sorted(
    str(path.relative_to(TEMPLATES))
    for path in TEMPLATES.rglob("*.html")
    if "{% per_language %}" in path.read_text()
)
LANGUAGES = [code for code, _ in django_settings.LANGUAGES]


def _fragments(name: str) -> list[PerLanguageNode]:
    compiled = engines["django"].get_template(name).template
    return compiled.nodelist.get_nodes_by_type(PerLanguageNode)


def _page_context(language: str) -> RequestContext:
    prefix = "" if language == django_settings.LANGUAGE_CODE else f"/{language}"
    request = RequestFactory().get(f"{prefix}/federations/ebf/lists/2024/")
    request.resolver_match = resolve(request.path)
    return RequestContext(request, {"federation": {"code": "ebf"}, "sort": "rank"})


def test_the_site_shell_has_fragments():
    assert "base.html" in WITH_FRAGMENTS
    assert len(_fragments("base.html")) >= 3


@pytest.mark.parametrize("name", WITH_FRAGMENTS)
@pytest.mark.parametrize("script_prefix", ["/", "/site/"])
def test_a_copied_fragment_is_the_fragment_rendered(name, script_prefix):
    set_script_prefix(script_prefix)
    try:
        for _round in range(2):  # the first renders and keeps, the second copies
            for language in LANGUAGES:
                with translation.override(language):
                    context = _page_context(language)
                    for fragment in _fragments(name):
                        copied = fragment.render(context)
                        assert copied == fragment.nodelist.render(context)
                        assert copied.strip()
    finally:
        set_script_prefix("/")


def test_fragments_differ_by_language():
    fragment = _fragments("base.html")[-1]  # the footer
    rendered = set()
    for language in LANGUAGES:
        with translation.override(language):
            rendered.add(fragment.render(_page_context(language)))
    assert len(rendered) == len(LANGUAGES)


@pytest.mark.parametrize(
    "inside",
    [
        "{{ federation.code }}",
        "{% translate 'Apply'|upper %}",
        "{% translate message %}",
        "{% translate 'Apply' as label %}",
        "{% url 'ratings:federation' federation.code %}",
        "{% url 'ratings:home' as home %}",
        "{% if sort %}x{% endif %}",
        "{% static path %}",
        "{% now 'Y' %}",
    ],
)
def test_a_fragment_that_could_depend_on_the_page_does_not_compile(inside):
    with pytest.raises(TemplateSyntaxError, match="per_language"):
        Template(
            "{% load i18n static fragments %}{% per_language %}<p>"
            + inside
            + "</p>{% endper_language %}"
        )


def test_what_a_fragment_may_hold_compiles():
    source = (
        "{% load i18n static fragments %}{% per_language %}"
        "{% translate 'Apply' %} {% url 'ratings:list' 'ebf' '2024' %} {% static 'site.css' %}"
        "{% comment %}why{% endcomment %}{% endper_language %}"
    )
    with translation.override("en"):
        rendered = Template(source).render(_page_context("en"))
    assert "/federations/ebf/lists/2024/" in rendered
