"""PlayChess: Elo with provisional ratings, rated in batches of months."""

from ratings.systems.base import System

SYSTEM = System(
    code="playchess",
    example_period="2026-03",
    explain_per_event=False,
    shows_rd=False,
    shows_grade=False,
    has_half_ratings=False,
    verifies_fide_ratings=False,
)
