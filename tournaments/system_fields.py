"""Which event fields belong to which rating system: the event form shows an official only
those of his federation's system (the others are another federation's business)."""

from __future__ import annotations

# Fields of one system only; every field not named here is common to all systems.
SYSTEM_ONLY_FIELDS: dict[str, tuple[str, ...]] = {
    "iccf": ("transmission", "reflection_days", "reflection_moves"),
    "egf": (
        "basic_time_minutes",
        "time_system",
        "overtime_seconds",
        "overtime_moves",
        "fischer_bonus_seconds",
        "handicap_reduction",
        "komi",
    ),
    "wfcc": ("kt", "championship", "solving_rules", "rounds", "days", "fairy_announced_on"),
    "playchess": (),
}
# The class field means EGF class or WFCC category; ICCF and PlayChess have none.
CLASS_SYSTEMS = ("egf", "wfcc")


def hidden_fields(systems: set[str]) -> set[str]:
    """The event fields of no system in ``systems`` (an empty set: hide nothing)."""
    if not systems:
        return set()
    hidden = {
        f for system, fields in SYSTEM_ONLY_FIELDS.items() if system not in systems for f in fields
    }
    if not systems & set(CLASS_SYSTEMS):
        hidden.add("rating_class")
    return hidden
