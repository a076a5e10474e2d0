"""``{% load url_templates %}`` makes ``{% url %}`` reverse through URL templates
(federation.url_templates): the same syntax and the same URLs, in about half the time.
tests/site/test_url_templates.py renders both tags (literal and variable names, positional and
keyword arguments, `as`) on generated values in every language."""

from django import template
from django.template.defaulttags import URLNode
from django.template.defaulttags import url as django_url
from django.urls import NoReverseMatch
from django.utils.encoding import smart_str
from django.utils.html import conditional_escape

from federation.url_templates import reverse_fast

register = template.Library()


def current_app(context) -> str | None:
    """The app a page's URLs are reversed for, as Django's URLNode.render finds it."""
    return request_app(getattr(context, "request", None))


def request_app(request) -> str | None:
    """The request's current_app, else the namespace the request was routed through."""
    try:
        return request.current_app
    except AttributeError:
        try:
            return request.resolver_match.namespace
        except AttributeError:
            return None


class TemplateURLNode(URLNode):
    """Django's URLNode.render with reverse_fast in place of reverse."""

    def render(self, context):
        args = [arg.resolve(context) for arg in self.args]
        kwargs = {smart_str(k, "ascii"): v.resolve(context) for k, v in self.kwargs.items()}
        view_name = self.view_name.resolve(context)
        url = ""
        try:
            url = reverse_fast(
                view_name, args=args, kwargs=kwargs, current_app=current_app(context)
            )
        except NoReverseMatch:
            if self.asvar is None:
                raise
        if self.asvar:
            context[self.asvar] = url
            return ""
        return conditional_escape(url) if context.autoescape else url


@register.tag
def url(parser, token):
    node = django_url(parser, token)
    return TemplateURLNode(node.view_name, node.args, node.kwargs, node.asvar)
