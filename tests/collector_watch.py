"""Whether the cycle collector was on each time a function ran (engines/core/gc_pause.py)."""

from __future__ import annotations

import gc


def collector_states(monkeypatch, module, name: str) -> list[bool]:
    """Wraps ``module.name``; the list receives gc.isenabled() at each call."""
    seen: list[bool] = []
    function = getattr(module, name)

    def watched(*args, **kwargs):
        seen.append(gc.isenabled())
        return function(*args, **kwargs)

    monkeypatch.setattr(module, name, watched)
    return seen
