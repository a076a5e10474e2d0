"""Request hygiene and security headers Django 5.2 does not provide by itself."""

from __future__ import annotations

import re

from django.conf import settings
from django.http import HttpResponseBadRequest

# No text column can hold NUL (PostgreSQL refuses it: a server error), and no URL or form field
# of the site has a use for the other control characters in a path.
_PATH_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
# Admin date filters and the like: `end__year=99999999999` overflows date arithmetic.
_DATE_PART = re.compile(r"__(year|month|day|iso_year|week|week_day|quarter)$")
_DATE_PART_MAX = {"year": 9999, "iso_year": 9999, "month": 12, "day": 31, "week": 53}
# Any number longer than this overflows a 64-bit column: refused before the database.
_LONG_NUMBER = re.compile(r"^[-+]?\d{19,}$")
SEARCH_KEYS = {"q", "term"}  # free text: a long number is a search, not an id


def hostile_reason(request) -> str | None:
    """Why the request is refused (400) before any view runs, or None."""
    if _PATH_CONTROL.search(request.path):
        return "the address contains a control character"
    data = request.POST if request.method == "POST" else None  # files: their importers check
    for where, query in (("query string", request.GET), ("form", data)):
        if query is None:
            continue
        for key, values in query.lists():
            if "\x00" in key or any("\x00" in v for v in values):
                return f"the {where} contains a NUL character ({key[:40]!r})"
            if key not in SEARCH_KEYS and any(_LONG_NUMBER.match(v) for v in values):
                return f"{key[:40]!r} is a number out of range"
            part = _DATE_PART.search(key)
            if part:
                limit = _DATE_PART_MAX.get(part.group(1), 9999)
                for value in values:
                    if not value.isdigit() or not 1 <= int(value[:6]) <= limit or len(value) > 4:
                        return f"{key[:40]!r}={value[:20]!r} is not a valid date part"
    return None


class HostileInputMiddleware:
    """Refuses NUL characters (path, query string, form fields), control characters in the path,
    out-of-range date filters and numbers with 400 before any view or the database sees them."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        reason = hostile_reason(request)
        if reason is not None:
            return HttpResponseBadRequest(
                f"Bad request: {reason}.", content_type="text/plain; charset=utf-8"
            )
        return self.get_response(request)


class ContentSecurityPolicyMiddleware:
    """Adds the Content-Security-Policy header (no inline script anywhere on the site)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        response.headers.setdefault("Content-Security-Policy", settings.CONTENT_SECURITY_POLICY)
        return response
