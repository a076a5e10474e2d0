"""Which event fields the form shows: only those of the federation's rating system (the others
are another federation's business). What belongs to which system is the registry's
(ratings/systems/__init__.py), read through tournaments.ports."""

from __future__ import annotations

from tournaments import ports


def hidden_fields(systems: set[str]) -> set[str]:
    """The event fields of no system in ``systems`` (an empty set: hide nothing)."""
    by_system = ports.event_fields_by_system()
    if not systems or not by_system:
        return set()
    hidden = {
        name
        for code, (fields, _class) in by_system.items()
        if code not in systems
        for name in fields
    }
    if not any(by_system.get(code, ((), False))[1] for code in systems):
        hidden.add("rating_class")
    return hidden
