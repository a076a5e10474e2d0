"""Plain data shared by the runners, and the reads every system needs."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from federation.models import Federation
from ratings.models import ListStatus, RatingEntry, RatingList, RatingPeriod
from tournaments.models import PLAYED_RESULTS, Event, EventStatus, Game

RATEABLE_STATUSES = (EventStatus.ACCEPTED, EventStatus.RATED)


@dataclass
class Context:
    federation: Federation
    period: RatingPeriod
    base_list: RatingList | None  # the published list this run continues from
    params: dict


@dataclass
class EntryRow:
    player_id: int
    rating: float
    published_rating: int
    rd: float | None = None
    published_rd: int | None = None
    games: int = 0
    total_games: int = 0
    provisional: bool = False
    half_rating: bool = False
    listed: bool = True
    state: dict = field(default_factory=dict)


@dataclass
class EventRatingRow:
    event_id: int
    player_id: int
    before: float | None
    after: float
    games: int
    before_rd: float | None = None
    after_rd: float | None = None
    score: float | None = None
    details: dict = field(default_factory=dict)


@dataclass
class NormRow:
    event_id: int
    player_id: int
    title: str
    at_championship: bool


@dataclass
class Prepared:
    engine_input: dict
    events: list[Event]
    excluded: list[dict]
    extra: dict = field(default_factory=dict)


@dataclass
class Outcome:
    entries: list[EntryRow]
    event_ratings: list[EventRatingRow]
    norms: list[NormRow] = field(default_factory=list)
    report: dict = field(default_factory=dict)


def base_list_for(federation: Federation, period: RatingPeriod) -> RatingList | None:
    """The newest published list of an earlier period: what this period continues from."""
    return (
        RatingList.objects.filter(
            federation=federation, status=ListStatus.PUBLISHED,
            period__valid_from__lt=period.valid_from)
        .order_by("-period__valid_from", "-id")
        .first()
    )


def base_entries(base_list: RatingList | None) -> dict[int, RatingEntry]:
    if base_list is None:
        return {}
    return {e.player_id: e for e in base_list.entries.all().only(
        "player_id", "rating", "rd", "total_games", "state", "published_rating", "provisional",
        "half_rating", "listed")}


def published_list_valid_on(federation: Federation, day: date) -> RatingList | None:
    return (
        RatingList.objects.filter(
            federation=federation, status=ListStatus.PUBLISHED, period__valid_from__lte=day)
        .order_by("-period__valid_from", "-id")
        .first()
    )


def split_events(federation: Federation, events_in_window) -> tuple[list[Event], list[dict]]:
    """Accepted (or already rated) events are rated; the others are reported as left out."""
    included, excluded = [], []
    for event in events_in_window:
        if event.status in RATEABLE_STATUSES:
            included.append(event)
        else:
            excluded.append({
                "event": event.code, "name": event.name,
                "reason": f"status is {event.get_status_display().lower()}; only accepted "
                          "events are rated",
            })
    return included, excluded


def played_games(event_ids, **filters):
    return (
        Game.objects.filter(event_id__in=event_ids, result__in=list(PLAYED_RESULTS), **filters)
        .order_by("finished_on", "id")
        .values_list("id", "event_id", "white_id", "black_id", "result", "handicap",
                     "finished_on", "reported_on")
    )


def score_of(result: str) -> float:
    return PLAYED_RESULTS[result]
