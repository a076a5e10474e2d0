"""The client address that admin login throttling (django-axes, settings.AXES_*) counts by.

REMOTE_ADDR, unless that is one of TRUSTED_PROXIES: then X-Forwarded-For is read from the right,
skipping trusted proxies, and the first other address is the client (entries further left were
written by the client and are not believed). django-ipware, axes' other way, judges the header
by what it contains, not by the peer that sent it: a client reaching gunicorn directly could
claim a new address on each attempt.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings


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
    """AXES_CLIENT_IP_CALLABLE."""
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
