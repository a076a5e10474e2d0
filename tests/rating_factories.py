"""Rating rows (period, run, list, entry, event rating, norm) for one federation's world."""

from __future__ import annotations

from datetime import date


def add_rating_rows(world: dict) -> dict:
    from ratings.models import (
        EventRating,
        LiveEventRating,
        LiveRating,
        LiveRun,
        RatingEntry,
        RatingList,
        RatingPeriod,
        RatingRun,
        RunStatus,
        SolvingNorm,
    )

    federation = world["federation.Federation"]
    player = world["federation.Player"]
    event = world["tournaments.Event"]
    period = RatingPeriod.objects.create(
        federation=federation,
        code="2026Q2",
        starts_on=date(2025, 12, 1),
        ends_on=date(2026, 2, 28),
        list_published_on=date(2026, 3, 15),
        valid_from=date(2026, 4, 1),
    )
    run = RatingRun.objects.create(federation=federation, period=period, status=RunStatus.SUCCEEDED)
    rating_list = RatingList.objects.create(federation=federation, period=period, run=run)
    entry = RatingEntry.objects.create(
        rating_list=rating_list, player=player, rating=1800.0, published_rating=1800, rank=1
    )
    event_rating = EventRating.objects.create(
        run=run, event=event, player=player, before=1800, after=1810
    )
    norm = SolvingNorm.objects.create(run=run, event=event, player=player, title="FM")
    live_run = LiveRun.objects.create(
        federation=federation,
        base_list=rating_list,
        period_code="2026Q3",
        computed_at=run.requested_at,
    )
    live_rating = LiveRating.objects.create(
        live_run=live_run, player=player, rating=1810.0, published_rating=1810
    )
    live_event_rating = LiveEventRating.objects.create(
        live_run=live_run, event=event, player=player, before=1800, after=1810
    )
    return {
        "ratings.RatingPeriod": period,
        "ratings.RatingRun": run,
        "ratings.RatingList": rating_list,
        "ratings.RatingEntry": entry,
        "ratings.EventRating": event_rating,
        "ratings.SolvingNorm": norm,
        "ratings.LiveRun": live_run,
        "ratings.LiveRating": live_rating,
        "ratings.LiveEventRating": live_event_rating,
    }
