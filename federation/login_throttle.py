"""Throttled admin login: failed attempts are counted in the Django cache (Redis in production,
so every gunicorn process shares them) and, over a limit, further attempts are refused without
checking the password.

Three counters, each for LOGIN_FAILURE_WINDOW_SECONDS from its first failure:
- per (username, client address), limit LOGIN_FAILURE_LIMIT: someone guessing from one place
  locks only that place out, not the account's owner elsewhere;
- per username from any address, USERNAME_FACTOR times the limit: the ceiling for a distributed
  guess at one account (the owner is then locked out too, but only after that many guesses);
- per client address, ADDRESS_FACTOR times the limit: one client trying many usernames.
A successful login clears its (username, address) counter.

The client address is REMOTE_ADDR, unless that is one of TRUSTED_PROXIES: then X-Forwarded-For
is read from the right, skipping trusted proxies, and the first other address is the client
(entries further left were written by the client and are not believed).
"""

from __future__ import annotations

import hashlib
import ipaddress

from django import forms
from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.core.cache import cache

ADDRESS_FACTOR = 4
USERNAME_FACTOR = 10


def _key(kind: str, *values: str) -> str:
    text = "\n".join(v.strip().lower() for v in values)
    digest = hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()[:32]
    return f"login-failures:{kind}:{digest}"


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(text.strip())
    except ValueError:
        return None


def _trusted(address) -> bool:
    return address is not None and any(
        address in ipaddress.ip_network(proxy, strict=False) for proxy in settings.TRUSTED_PROXIES
    )


def client_address(request) -> str:
    if request is None:
        return ""
    remote = request.META.get("REMOTE_ADDR", "")
    if not _trusted(_address(remote)):
        return remote
    for entry in reversed(request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")):
        address = _address(entry)
        if address is None:  # garbage in the header: the proxy's own peer is all we know
            return remote
        if not _trusted(address):
            return str(address)
    return remote


def _counters(request, username: str) -> list[tuple[str, int]]:
    limit = settings.LOGIN_FAILURE_LIMIT
    address = client_address(request)
    return [
        (_key("pair", username, address), limit),
        (_key("user", username), limit * USERNAME_FACTOR),
        (_key("address", address), limit * ADDRESS_FACTOR),
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


def record_success(request, username: str) -> None:
    cache.delete(_key("pair", username, client_address(request)))


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
        record_success(self.request, username)
        return cleaned
