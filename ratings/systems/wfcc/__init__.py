"""WFCC solving: a linear regression per tournament, half-ratings for newcomers, quarterly lists,
title norms."""

from ratings.systems.base import System

SYSTEM = System(
    code="wfcc",
    example_period="2026Q1",
    explain_per_event=True,
    shows_rd=False,
    shows_grade=False,
    has_half_ratings=True,
    verifies_fide_ratings=False,
    event_fields=("kt", "championship", "solving_rules", "rounds", "days", "fairy_announced_on"),
    has_rating_class=True,
    earns_norms=True,
)
