"""Every public URL of the site, enumerated from the URL configuration (the admin excepted).

A URL pattern with a parameter this module has no value for fails the tests that use it: a new
page joins the hostile-query and hostile-value sweeps as soon as it is added.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from django.urls import URLPattern, URLResolver, get_resolver, reverse


@dataclass(frozen=True)
class PublicRoute:
    name: str  # "ratings:player"
    params: tuple[str, ...]


def public_routes() -> list[PublicRoute]:
    def walk(patterns, namespace: str, params: tuple[str, ...]) -> Iterator[PublicRoute]:
        for entry in patterns:
            here = params + tuple(getattr(entry.pattern, "converters", {}))
            if isinstance(entry, URLResolver):
                if entry.app_name == "admin":
                    continue
                ns = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
                yield from walk(entry.url_patterns, ns, here)
            elif isinstance(entry, URLPattern) and entry.name:
                yield PublicRoute(f"{namespace}{entry.name}", here)

    return sorted(set(walk(get_resolver().url_patterns, "", ())), key=lambda r: r.name)


def urls_for(values: dict[str, list[str]]) -> list[str]:
    """Each public route with each value of each of its parameters (the others at their first).

    Raises KeyError naming a parameter nobody gave values for."""
    urls = []
    for route in public_routes():
        missing = [p for p in route.params if p not in values]
        if missing:
            raise KeyError(f"{route.name}: no test values for {missing}")
        base = {p: values[p][0] for p in route.params}
        variants = [base] + [{**base, p: v} for p in route.params for v in values[p][1:]]
        for kwargs in variants:
            urls.append(reverse(route.name, kwargs=kwargs))
    return sorted(set(urls))
