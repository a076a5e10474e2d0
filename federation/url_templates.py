"""reverse() through URL templates built once per process.

Django's reverse() searches the resolver's possibilities and matches the built URL against the
pattern on every call (30-60 µs here); a public page reverses 10-20 URLs (navigation, language
switcher, downloads, links of its tables). A URL template is a view's URL reversed once, for one
shape of arguments, with placeholders: every later call checks each argument against its
converter's pattern, quotes it as reverse() quotes it and puts it where its placeholder was.

The template is the URL reverse() built, so the fixed parts cannot differ. A template is kept per
view name, shape of arguments (how many positional, which keywords), language (the /de/ prefix),
script prefix, URLconf and current app: everything reverse() reads besides the arguments.
Whatever a template cannot answer exactly goes to reverse() itself, errors included: an argument
its converter refuses, a pattern that is not a route, a view given by callable.
tests/site/test_url_templates.py compares the two on every named URL of the site.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.urls import (
    NoReverseMatch,
    Resolver404,
    get_script_prefix,
    get_urlconf,
    resolve,
    reverse,
)
from django.urls.converters import get_converters
from django.utils.http import RFC3986_SUBDELIMS, escape_leading_slashes
from django.utils.translation import get_language, override

_SAFE = RFC3986_SUBDELIMS + "/~:@"  # what reverse() leaves unquoted
_FIRST_PLACEHOLDER = 987_654_320_100  # digits: every converter of the site accepts them
_ROUTE_PARAMETER = re.compile(r"<(?:(?P<converter>[^>:]+):)?(?P<name>[^>]+)>")


@dataclass(frozen=True)
class _Slot:
    """Where one argument goes: its position or keyword, and its converter."""

    argument: int | str
    to_url: Callable[[Any], Any]
    accepts: Callable[[str], Any]  # the converter's pattern, whole


@dataclass(frozen=True)
class _Template:
    pieces: tuple[str, ...]  # the URL's fixed text around the slots: one more than slots
    slots: tuple[_Slot, ...]


_templates: dict[tuple, _Template | None] = {}


def reverse_fast(
    viewname: str,
    args: Sequence[Any] = (),
    kwargs: dict[str, Any] | None = None,
    current_app: str | None = None,
    language: str | None = None,
) -> str:
    """What ``reverse(viewname, args=args, kwargs=kwargs, current_app=current_app)`` returns,
    with `language` active if one is given (the page in another language, for the language
    switcher) without activating it unless reverse() itself must answer."""
    kwargs = kwargs or {}
    active = get_language()
    language = active if language is None else language
    if (args and kwargs) or not isinstance(viewname, str):
        return _reverse(language, active, viewname, args, kwargs, current_app)
    key = (
        viewname,
        len(args),
        tuple(sorted(kwargs)),
        language,
        get_script_prefix(),
        get_urlconf() or settings.ROOT_URLCONF,
        current_app,
    )
    try:
        template = _templates[key]
    except KeyError:
        with _active(language, active):
            template = _templates[key] = _build(viewname, len(args), key[2], current_app)
    if template is None:
        return _reverse(language, active, viewname, args, kwargs, current_app)
    parts = [template.pieces[0]]
    for slot, piece in zip(template.slots, template.pieces[1:], strict=True):
        value = args[slot.argument] if type(slot.argument) is int else kwargs[slot.argument]
        try:
            text = str(slot.to_url(value))
        except ValueError:  # the converter refuses it: reverse() says so
            return _reverse(language, active, viewname, args, kwargs, current_app)
        if slot.accepts(text) is None:
            return _reverse(language, active, viewname, args, kwargs, current_app)
        parts.append(quote(text, safe=_SAFE))
        parts.append(piece)
    return escape_leading_slashes("".join(parts))


def _active(language: str | None, active: str | None):
    """`language` activated for reverse(), unless it is the active one already."""
    return contextlib.nullcontext() if language == active else override(language)


def _reverse(language, active, viewname, args, kwargs, current_app) -> str:
    with _active(language, active):
        return reverse(viewname, args=args, kwargs=kwargs, current_app=current_app)


def _build(
    viewname: str, positional: int, keywords: tuple[str, ...], current_app
) -> _Template | None:
    """The template of one shape of arguments, or None where only reverse() can answer."""
    placeholders = [str(_FIRST_PLACEHOLDER + i) for i in range(positional + len(keywords))]
    args = placeholders[:positional]
    kwargs = dict(zip(keywords, placeholders[positional:], strict=True))
    try:
        url = reverse(viewname, args=args, kwargs=kwargs, current_app=current_app)
        match = resolve(url[len(get_script_prefix()) - 1 :])
    except (NoReverseMatch, Resolver404):
        return None
    parameters = _ROUTE_PARAMETER.findall(match.route or "")
    if match.view_name != viewname or len(parameters) != len(placeholders):
        return None  # another view answers the URL, or a regex pattern: reverse() decides
    if any(url.count(placeholder) != 1 for placeholder in placeholders):
        return None  # the fixed text spells a placeholder too
    converters = get_converters()
    slots, pieces, rest = [], [], url
    for position, (converter_name, name) in enumerate(parameters):
        converter = converters.get(converter_name or "str")
        placeholder = args[position] if positional else kwargs.get(name)
        if converter is None or placeholder is None or placeholder not in rest:
            return None
        head, rest = rest.split(placeholder)
        pieces.append(head)
        argument = position if positional else name
        accepts = re.compile(converter.regex).fullmatch
        slots.append(_Slot(argument, converter.to_url, accepts))
    pieces.append(rest)
    return _Template(tuple(pieces), tuple(slots))


@receiver(setting_changed)
def _forget_templates(**_kwargs) -> None:
    # Tests that override URLconfs, languages or prefixes get templates of the new settings.
    _templates.clear()
