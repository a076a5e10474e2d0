"""EGF go: GoR per tournament, monthly snapshots of the list, classes of tournaments."""

from ratings.systems.base import System

SYSTEM = System(
    code="egf",
    example_period="2026-03",
    explain_per_event=True,
    shows_rd=False,
    shows_grade=True,
    has_half_ratings=False,
    verifies_fide_ratings=False,
    event_fields=(
        "basic_time_minutes",
        "time_system",
        "overtime_seconds",
        "overtime_moves",
        "fischer_bonus_seconds",
        "handicap_reduction",
        "komi",
    ),
    has_rating_class=True,
)
