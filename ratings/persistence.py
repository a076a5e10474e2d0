"""Bulk writers for the rows of a rating run (one call per table, large batches)."""

from __future__ import annotations

from collections.abc import Sequence

from ratings.models import EventRating, RatingEntry, RatingList, RatingRun, SolvingNorm
from ratings.runners.common import EntryRow, EventRatingRow, NormRow

BATCH = 5000


def ranked(entries: Sequence[EntryRow]) -> dict[int, int]:
    """Ranks 1..n of the listed entries: by published rating, then unrounded, then player id."""
    order = sorted((e for e in entries if e.listed),
                   key=lambda e: (-e.published_rating, -e.rating, e.player_id))
    return {e.player_id: rank for rank, e in enumerate(order, start=1)}


def write_entries(rating_list: RatingList, entries: Sequence[EntryRow],
                  previous: dict[int, float]) -> None:
    ranks = ranked(entries)
    RatingEntry.objects.bulk_create(
        (RatingEntry(
            rating_list=rating_list, player_id=e.player_id, rating=e.rating, rd=e.rd,
            published_rating=e.published_rating, published_rd=e.published_rd, games=e.games,
            total_games=e.total_games, provisional=e.provisional, half_rating=e.half_rating,
            listed=e.listed, rank=ranks.get(e.player_id), state=e.state,
            previous_rating=previous.get(e.player_id),
            change=(e.rating - previous[e.player_id]) if e.player_id in previous else None)
         for e in entries),
        batch_size=BATCH)


def write_event_ratings(run: RatingRun, rows: Sequence[EventRatingRow]) -> None:
    EventRating.objects.bulk_create(
        (EventRating(run=run, event_id=r.event_id, player_id=r.player_id, before=r.before,
                     after=r.after, before_rd=r.before_rd, after_rd=r.after_rd, games=r.games,
                     score=r.score, details=r.details) for r in rows),
        batch_size=BATCH)


def write_norms(run: RatingRun, rows: Sequence[NormRow]) -> None:
    SolvingNorm.objects.bulk_create(
        SolvingNorm(run=run, event_id=r.event_id, player_id=r.player_id, title=r.title,
                    at_championship=r.at_championship) for r in rows)
