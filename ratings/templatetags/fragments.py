"""``{% per_language %}…{% endper_language %}``: a fragment that is the same on every page in
one language (the site's navigation, footer and stylesheet link), rendered once per
language in a process and then copied into every page.

Only text, ``{% translate "…" %}``, ``{% url %}`` with literal arguments and
``{% static "…" %}`` may stand inside, checked when the template is compiled: the fragment
cannot read the page's data, the request or the user, so the copy is what rendering it again
would give. It is kept per what those tags read besides: the language, the script prefix, the
URLconf and the current app. tests/site/test_fragments.py renders every fragment of the site's
templates both ways.

Loaded after ``i18n``, the library also replaces ``{% translate "…" %}`` (and ``{% trans %}``):
a translation of a literal, with no filter, context or ``as``, is the same text on every page in
one language, so it is looked up once per language and then copied (Django's tag builds a lazy
translation, casts, escapes and unescapes it on every render: 15-20 µs each, 25 of them on a
player page). Any other form is Django's own node. tests/site/test_constant_translations.py
checks that every such tag of the site's templates is the constant one and renders what Django's
does, in every language.
"""

from __future__ import annotations

from django import template
from django.template import Context, Node, NodeList, TemplateSyntaxError, Variable
from django.template.base import FilterExpression, TextNode
from django.template.defaulttags import CommentNode, URLNode
from django.templatetags.i18n import TranslateNode, do_translate
from django.templatetags.static import StaticNode
from django.urls import get_script_prefix, get_urlconf
from django.utils.translation import get_language

from ratings.web.settings_generation import settings_generation

register = template.Library()


def _literal(expression: FilterExpression) -> bool:
    var = expression.var
    return not expression.filters and (not isinstance(var, Variable) or var.lookups is None)


def _constant(node: Node) -> bool:
    if isinstance(node, (TextNode, CommentNode, ConstantTranslationNode)):
        return True
    if isinstance(node, TranslateNode):
        return (
            node.asvar is None and node.message_context is None and _literal(node.filter_expression)
        )
    if isinstance(node, URLNode):
        expressions = [node.view_name, *node.args, *node.kwargs.values()]
        return node.asvar is None and all(_literal(e) for e in expressions)
    if isinstance(node, StaticNode):
        return node.varname is None and _literal(node.path)
    return False


class ConstantTranslationNode(Node):
    """``{% translate "literal" %}``: Django's node rendered once per language, then copied."""

    child_nodelists = ()

    def __init__(self, node: TranslateNode):
        self.node = node
        self._rendered: dict[tuple, str] = {}

    def render(self, context) -> str:
        key = (get_language(), context.autoescape, settings_generation())
        try:
            return self._rendered[key]
        except KeyError:
            text = self._rendered[key] = self.node.render(context)
            return text


@register.tag("trans")
@register.tag("translate")
def translate(parser, token):
    """Django's {% translate %}; the constant one when it translates a literal as it is."""
    node = do_translate(parser, token)
    return ConstantTranslationNode(node) if _constant(node) else node


def _current_app(request) -> str | None:
    """The app a page's URLs are reversed for, as Django's {% url %} finds it: the request's
    current_app, else the namespace the request was routed through."""
    try:
        return request.current_app
    except AttributeError:
        return getattr(getattr(request, "resolver_match", None), "namespace", None)


class PerLanguageNode(Node):
    child_nodelists = ("nodelist",)

    def __init__(self, nodelist: NodeList):
        self.nodelist = nodelist
        self._rendered: dict[tuple, str] = {}

    def render(self, context) -> str:
        key = (
            get_language(),
            get_script_prefix(),
            get_urlconf(),
            _current_app(getattr(context, "request", None)),
            context.autoescape,
            settings_generation(),
        )
        try:
            return self._rendered[key]
        except KeyError:
            pass
        alone = Context(autoescape=context.autoescape)
        alone.request = getattr(context, "request", None)  # read by {% url %}: the current app
        html = self._rendered[key] = self.nodelist.render(alone)
        return html


@register.tag
def per_language(parser, token):
    nodelist = parser.parse(("endper_language",))
    parser.delete_first_token()
    for node in nodelist:
        if not _constant(node):
            raise TemplateSyntaxError(
                "{% per_language %} holds only text, {% translate %} of a literal, {% url %} "
                f"and {{% static %}} with literal arguments; not {node.token.contents!r} "
                f"(line {node.token.lineno})"
            )
    return PerLanguageNode(nodelist)
