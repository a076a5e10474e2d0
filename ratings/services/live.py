"""Live ratings: each player's UNOFFICIAL current rating between lists.

The accepted results since the federation's newest published list (the runner's window of the
period after it) go through the same runner and engine as a rating run (`services.compute_period`),
and the result is stored apart from lists: one `LiveRun` per federation, replaced whole by the
next refresh, with a `LiveRating` for each player it moved and a `LiveEventRating` per event (for
its explain). Nothing here writes a period, a run or a list, so a live rating can never reach a
published list. Refreshed by a Celery task after an event is accepted (or an accepted one
rejected) and nightly by beat.

Known limit: while a finished period waits for its list, results of the period after it are
not live yet (the live run continues from published lists only).
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import numpy as np
from django.db import transaction
from django.utils import timezone

from federation.models import Federation
from ratings import calendars
from ratings.engines.core.gc_pause import cycle_collector_paused
from ratings.models import (
    ListStatus,
    LiveRating,
    LiveRun,
    RatingList,
    RatingPeriod,
)
from ratings.persistence import writers
from ratings.persistence.run_rows import EventRatingColumns, EventRatingRow
from ratings.services import provenance
from ratings.web.page_cache import bump_generation
from tournaments.models import Event, EventStatus


def _newest_list(federation: Federation) -> RatingList | None:
    return (
        RatingList.objects.filter(federation=federation, status=ListStatus.PUBLISHED)
        .select_related("period")
        .order_by("-period__valid_from", "-id")
        .first()
    )


def live_period(federation: Federation, base: RatingList | None) -> RatingPeriod | None:
    """The period after the newest published list (unsaved: a live run creates no period)."""
    from ratings.services.runs import calendar_of

    calendar = calendar_of(federation)
    if base is not None:
        spec = calendars.next_period(
            calendars.period_by_code(federation.system, base.period.code, params=calendar),
            params=calendar,
        )
    else:
        first = (
            Event.objects.filter(federation=federation, status=EventStatus.ACCEPTED)
            .order_by("start")
            .first()
        )
        if first is None:
            return None
        spec = calendars.period_for(federation.system, first.start, params=calendar)
    return RatingPeriod(
        federation=federation,
        code=spec.code,
        starts_on=spec.starts_on,
        ends_on=spec.ends_on,
        list_published_on=spec.list_published_on,
        valid_from=spec.valid_from,
    )


LIVE_RATING_COLUMNS = [
    "live_run_id",
    "player_id",
    "rating",
    "rd",
    "published_rating",
    "published_rd",
    "official_rating",
    "games",
    "provisional",
    "half_rating",
]


def _distinct(rows: Sequence[EventRatingRow] | EventRatingColumns, name: str) -> set[int]:
    """The distinct event or player ids of event ratings (columns: without a row each)."""
    if isinstance(rows, EventRatingColumns):
        return set(np.unique(getattr(rows, name)).tolist())
    return {getattr(row, name) for row in rows}


def refresh_live(federation_id: int) -> LiveRun | None:
    """Recompute the federation's live ratings; None when no accepted result awaits a list."""
    from ratings.engines.core.version import installed_engine_version
    from ratings.services.runs import compute_period

    with transaction.atomic():
        # One refresh at a time per federation: the second waits, then recomputes afresh.
        federation = Federation.objects.select_for_update().get(pk=federation_id)
        transaction.on_commit(bump_generation)  # cached player pages show the live rating
        LiveRun.objects.filter(federation=federation).delete()
        base = _newest_list(federation)
        period = live_period(federation, base)
        if period is None:
            return None
        with cycle_collector_paused():  # a period's games and rows: no cycles
            result = compute_period(federation, period, base)
        prepared, outcome = result["prepared"], result["outcome"]
        if not prepared.events or not outcome.event_ratings:
            return None
        counted = _distinct(outcome.event_ratings, "event_id")
        live = LiveRun.objects.create(  # its input is set with its rows, below
            federation=federation,
            base_list=base,
            period_code=period.code,
            computed_at=timezone.now(),
            engine_version=installed_engine_version(federation.system),
            params=result["ctx"].params,
            events=[event.code for event in prepared.events if event.pk in counted],
        )
        moved = _distinct(outcome.event_ratings, "player_id")
        on_base = prepared.base  # the base list's entries as the runner read them: no second read
        # as a run: the event ratings go in while the input is encoded (no query in the block)
        with writers.event_ratings_written_alongside(live, outcome.event_ratings):
            engine_input = prepared.input_bytes()  # from the columns, as a run's record
            stored_input = provenance.compress(engine_input)
            input_digest = provenance.digest(engine_input)
            live_ratings = [
                (
                    live.pk,
                    e.player_id,
                    e.rating,
                    e.rd,
                    e.published_rating,
                    e.published_rd,
                    on_base[e.player_id].rating if e.player_id in on_base else None,
                    e.games,
                    e.provisional,
                    e.half_rating,
                )
                for e in outcome.entries
                if e.player_id in moved
            ]
        writers.write_live_input(live, stored_input, input_digest)
        writers.bulk_insert(LiveRating, LIVE_RATING_COLUMNS, live_ratings)
    return live


def refresh_all() -> int:
    """Every federation's live ratings (the nightly beat task); returns how many have some."""
    return sum(
        refresh_live(pk) is not None for pk in Federation.objects.values_list("pk", flat=True)
    )


def live_rating(player) -> LiveRating | None:
    """The player's live rating, if the federation's live run moved him."""
    return (
        LiveRating.objects.filter(player=player)
        .select_related("live_run__base_list__period")
        .first()
    )


def live_context(live: LiveRun):
    """The runner's context of a live run, to rebuild its input for the explain."""
    from ratings.systems.common import Context

    period = live_period(live.federation, live.base_list)
    return Context(live.federation, period, live.base_list, dict(live.params or {}))


def stored_input(report) -> dict:
    """The live run's engine input (always stored), checked against a rebuild from today's
    database (`report.inputs_match`)."""
    from ratings import systems

    live = report.live
    prepared = systems.of(live.federation).runner.build(live_context(live))
    report.inputs_match = provenance.digest(prepared.input_bytes()) == live.input_digest
    report.input_stored = True
    return json.loads(provenance.decompress(live.engine_input))
