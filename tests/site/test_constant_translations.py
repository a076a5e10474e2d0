"""{% translate "literal" %} looked up once per language (ratings/templatetags/fragments.py).

Every public template's translations of a literal are the constant node (none left to Django's
own, which does the lookup again on every render); each renders, the first time and copied,
exactly what Django's node renders, in every language and with autoescape on and off; the
copies follow the language; and any other form of the tag stays Django's.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.template import Context, Template, engines
from django.template.base import Node
from django.templatetags.i18n import TranslateNode
from django.test import override_settings
from django.utils import translation

from ratings.templatetags.fragments import ConstantTranslationNode

TEMPLATES = Path(django_settings.BASE_DIR) / "templates"
# The public site's templates: the admin's pages extend Django's admin templates.
PUBLIC = sorted(
    str(path.relative_to(TEMPLATES))
    for path in TEMPLATES.rglob("*.html")
    if path.relative_to(TEMPLATES).parts[0] != "admin"
)
LANGUAGES = [code for code, _ in django_settings.LANGUAGES]


def _compiled(name: str) -> list[Node]:
    """Every node of the template, whatever holds it (if branches, loops, blocks, with)."""
    return engines["django"].get_template(name).template.nodelist.get_nodes_by_type(Node)


def test_every_public_template_is_walked():
    assert "base.html" in PUBLIC and "ratings/player.html" in PUBLIC
    assert len(PUBLIC) >= 15


@pytest.mark.parametrize("name", PUBLIC)
def test_every_translation_of_a_literal_is_looked_up_once_per_language(name):
    nodes = _compiled(name)
    left = [
        node.token.contents
        for node in nodes
        if isinstance(node, TranslateNode)
        and node.asvar is None
        and node.message_context is None
        and not node.filter_expression.filters
        and node.filter_expression.var.lookups is None
    ]
    assert not left, f"{name}: load fragments after i18n; Django's node still renders {left}"
    constant = [n for n in nodes if isinstance(n, ConstantTranslationNode)]
    if "{% translate" in (TEMPLATES / name).read_text():
        assert constant, f"{name} translates but has no constant translation"
    for _round in range(2):  # the first renders and keeps, the second copies
        for language in LANGUAGES:
            with translation.override(language):
                for autoescape in (True, False):
                    context = Context(autoescape=autoescape)
                    for node in constant:
                        assert node.render(context) == node.node.render(context), (
                            name,
                            language,
                            node.token.contents,
                        )


def test_the_copy_follows_the_language():
    template = Template('{% load i18n fragments %}{% translate "Federation ratings" %}')
    rendered = {}
    for _round in range(2):
        for language in LANGUAGES:
            with translation.override(language):
                text = template.render(Context())
                assert rendered.setdefault(language, text) == text
    assert len(set(rendered.values())) == len(LANGUAGES)


def test_a_setting_change_renders_again():
    ours = Template('{% load i18n fragments %}{% translate "Federation ratings" %}')
    django = Template('{% load i18n %}{% translate "Federation ratings" %}')
    seen = set()
    for locale_paths in (django_settings.LOCALE_PATHS, [], django_settings.LOCALE_PATHS):
        # Without the site's catalogue the German page says the msgid itself.
        with override_settings(LOCALE_PATHS=locale_paths), translation.override("de"):
            text = ours.render(Context())
            assert text == django.render(Context())
            seen.add(text)
    assert seen == {"Federation ratings", "Verbandswertungen"}


@pytest.mark.parametrize(
    "tag",
    [
        "{% translate message %}",
        "{% translate 'Apply'|upper %}",
        "{% translate 'Apply' as label %}{{ label }}",
        "{% translate 'May' context 'month name' %}",
        "{% trans 'Apply' noop %}",
    ],
)
def test_other_forms_render_as_django_renders_them(tag):
    ours = Template("{% load i18n fragments %}" + tag)
    django = Template("{% load i18n %}" + tag)
    for language in LANGUAGES:
        with translation.override(language):
            context = {"message": "Apply"}
            assert ours.render(Context(context)) == django.render(Context(context))
