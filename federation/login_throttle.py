"""Throttled admin login: after LOGIN_FAILURE_LIMIT failed attempts within
LOGIN_FAILURE_WINDOW_SECONDS, further attempts are refused without checking the password.

Two counters in the Django cache (Redis in production, so every gunicorn process shares them):
per username (guessing one account's password, from any number of addresses) and per client
address (one client trying many usernames; four times the limit, so an office behind one
address is not locked out by a few typos). A successful login clears the username's counter.
"""

from __future__ import annotations

import hashlib

from django import forms
from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.core.cache import cache

ADDRESS_FACTOR = 4


def _key(kind: str, value: str) -> str:
    digest = hashlib.sha256(value.strip().lower().encode("utf-8", "replace")).hexdigest()[:32]
    return f"login-failures:{kind}:{digest}"


def client_address(request) -> str:
    """REMOTE_ADDR; behind the trusted reverse proxy of production (SECURE_PROXY_SSL_HEADER set),
    REMOTE_ADDR is the proxy itself, so the last X-Forwarded-For entry (the one the proxy added,
    which a client cannot forge) is the client."""
    if request is None:
        return ""
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    if forwarded and getattr(settings, "SECURE_PROXY_SSL_HEADER", None):
        return forwarded.split(",")[-1].strip()
    return request.META.get("REMOTE_ADDR", "")


def _counters(request, username: str) -> list[tuple[str, int]]:
    limit = settings.LOGIN_FAILURE_LIMIT
    return [
        (_key("user", username), limit),
        (_key("address", client_address(request)), limit * ADDRESS_FACTOR),
    ]


def is_throttled(request, username: str) -> bool:
    return any((cache.get(key) or 0) >= limit for key, limit in _counters(request, username))


def record_failure(request, username: str) -> None:
    for key, _limit in _counters(request, username):
        # add() starts the window at the first failure; incr() keeps its expiry.
        cache.add(key, 0, timeout=settings.LOGIN_FAILURE_WINDOW_SECONDS)
        try:
            cache.incr(key)
        except ValueError:  # expired between add and incr
            cache.set(key, 1, timeout=settings.LOGIN_FAILURE_WINDOW_SECONDS)


def record_success(username: str) -> None:
    cache.delete(_key("user", username))


class ThrottledAdminLoginForm(AdminAuthenticationForm):
    error_messages = {
        **AdminAuthenticationForm.error_messages,
        "throttled": "Too many failed login attempts. Try again in %(minutes)d minutes.",
    }

    def clean(self):
        username = self.cleaned_data.get("username") or ""
        if is_throttled(self.request, username):
            raise forms.ValidationError(
                self.error_messages["throttled"],
                code="throttled",
                params={"minutes": max(1, settings.LOGIN_FAILURE_WINDOW_SECONDS // 60)},
            )
        try:
            cleaned = super().clean()
        except forms.ValidationError:
            record_failure(self.request, username)
            raise
        record_success(username)
        return cleaned
