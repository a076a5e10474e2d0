"""ICCF correspondence chess: Glicko with win/draw/loss, quarterly lists, and the FIDE rule for
newcomers' declared ratings (``fide_rule``, ``fide_checks``, ``fide_lists``, ``fide_panel``)."""

from ratings.systems.base import System

SYSTEM = System(
    code="iccf",
    example_period="2026Q1",
    explain_per_event=False,
    shows_rd=True,
    shows_grade=False,
    has_half_ratings=False,
    verifies_fide_ratings=True,
    event_fields=("transmission", "reflection_days", "reflection_moves"),
)
