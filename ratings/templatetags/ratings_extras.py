"""Number formatting as federations publish: half-up rounding (RULES §7), signed changes."""

from django import template
from django.conf import settings
from django.urls import NoReverseMatch, reverse, translate_url
from django.utils.encoding import iri_to_uri
from django.utils.formats import get_format
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, override

from ratings import systems
from ratings.engines.core.rounding import half_up_2, half_up_int
from ratings.numbers import signed as _signed
from ratings.numbers import signed_unrounded

register = template.Library()


def escape_text(value) -> str:
    """escape(value) as text (the language switcher's links and names)."""
    return str(escape(value))


def change_cell(published: int | None, unrounded: float | None) -> str:
    """The published change, with the unrounded one as its tooltip (in the reader's decimal
    separator)."""
    if published is None:
        return _signed(None)
    return f'<span title="{localized(signed_unrounded(unrounded))}">{_signed(published)}</span>'


@register.filter
def rating_system(federation):
    """The federation's ``ratings.systems.System``: what its pages show (RD, grade, ...)."""
    return systems.of(federation)


@register.filter
def signed(value):
    """+12, −3, ±0 (half-up), – for none."""
    try:
        return _signed(None if value is None or value == "" else float(value))
    except (TypeError, ValueError):
        return value


@register.filter
def change(published, unrounded=None):
    """A published change with the unrounded one as its tooltip: {{ x.published|change:x.raw }}."""
    return mark_safe(change_cell(published, unrounded))


@register.filter
def dash(value):
    """The value, or — where there is none (None or empty; 0 stays 0)."""
    return "—" if value is None or value == "" else value


@register.filter
def unrounded(value):
    """+10.62 (two decimals), '' for none."""
    return localized(signed_unrounded(None if value in (None, "") else float(value)))


@register.filter
def halfup(value):
    """A rating as published: integer, half-up."""
    if value is None or value == "":
        return "–"
    try:
        return half_up_int(float(value))
    except (TypeError, ValueError):
        return value


def localized(number: str) -> str:
    """A number already formatted with a point, in the reader's decimal separator."""
    return number.replace(".", get_format("DECIMAL_SEPARATOR"))


@register.filter
def halfup2(value):
    if value is None or value == "":
        return "–"
    try:
        return localized(f"{half_up_2(float(value)):.2f}")
    except (TypeError, ValueError):
        return value


@register.filter
def fixed(value, places=4):
    """An intermediate quantity of an engine, shown with `places` decimals (display only)."""
    if value is None or value == "":
        return "–"
    try:
        return localized(f"{float(value):.{int(places)}f}")
    except (TypeError, ValueError):
        return value


@register.filter
def minus(a, b):
    try:
        return float(a) - float(b)
    except (TypeError, ValueError):
        return None


@register.filter
def get(mapping, key):
    """mapping[key] or None (dict lookup with a variable key)."""
    try:
        return mapping.get(key)
    except AttributeError:
        return None


@register.filter(name="zip")
def zip_with(a, b):
    """Pairs of two lists of the same length: {% for x, y in xs|zip:ys %}."""
    return list(zip(a, b, strict=True))


@register.simple_tag(takes_context=True)
def language_items(context) -> str:
    """The language switcher's <li>s: this page in each language, the current one marked. One
    tag instead of a loop resolving four variables per language on every page (its old loop is
    the reference in tests/ratings/web/test_languages.py)."""
    request = context.get("request")
    current = get_language()
    items = []
    for code, name in settings.LANGUAGES:
        marked = ' aria-current="true"' if code == current else ""
        url, code_html = escape_text(_in_language(request, code)), escape_text(code)
        items.append(
            f'\n      <li><a href="{url}" hreflang="{code_html}" lang="{code_html}"{marked}>'
            f"{escape_text(name)}</a></li>"
        )
    return mark_safe("".join(items))


def _in_language(request, code: str) -> str:
    """translate_url of the request's page, from the match the request was routed by (the
    same reverse, without resolving the path again for each language)."""
    if request is None:
        return translate_url("/", code)
    match = request.resolver_match
    if match is None:  # not routed (a 404 page): what translate_url would do
        return translate_url(request.get_full_path(), code)
    try:
        with override(code):
            path = reverse(match.view_name, args=match.args, kwargs=match.kwargs)
    except NoReverseMatch:
        return request.get_full_path()
    query = request.META.get("QUERY_STRING", "")
    return f"{path}?{iri_to_uri(query)}" if query else path
