"""Plain data shared by the runners, and the reads every system needs."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import date
from functools import cached_property
from typing import Any, NamedTuple

from django.db.models import Case, F, FloatField, Q, TextField, Value, When
from django.db.models.functions import Cast
from django.utils import timezone

from federation.lookups import AnyOf
from federation.models import Federation
from ratings.engines.core import jsonio
from ratings.models import ListStatus, RatingEntry, RatingList, RatingPeriod
from ratings.persistence.run_rows import EntryRow, EventRatingColumns, EventRatingRow, NormRow
from ratings.services import provenance
from tournaments.acceptability_report import events_for_rating
from tournaments.models import PLAYED_RESULTS, Event, Game


@dataclass
class Context:
    federation: Federation
    period: RatingPeriod
    base_list: RatingList | None  # the published list this run continues from
    params: dict


@dataclass
class Prepared:
    # What the runner built for the engine: the JSON contract's document, or the document held
    # as columns (ratings.engines.iccf.input_columns), which the engine rates and which writes
    # the document's canonical bytes without a dict per game.
    built_input: Any
    events: list[Event]
    excluded: list[dict]
    extra: dict = field(default_factory=dict)
    # Makes the labels (below) when first asked: a run stores them while its event ratings are
    # copied, so the ICCF's 200,000 game labels are not made before that COPY can start.
    label_source: Callable[[], dict[str, list[str]]] = dict
    # The entries of the list the run continues from, as the runner read them: the run's
    # changes are taken against these (one read of that list, not a second before the write).
    base: dict[int, BaseEntry] = field(default_factory=dict)

    @cached_property
    def labels(self) -> dict[str, list[str]]:
        """The database rows behind the input's list items, by the path of the list
        ({"games": ["event E, game 12", ...]}): how "changed since the run" is told in words."""
        return self.label_source()

    @cached_property
    def engine_input(self) -> dict:
        """The engine input as the JSON contract's document (made once from columns)."""
        built = self.built_input
        return built if isinstance(built, dict) else built.to_json()

    def input_bytes(self) -> bytes:
        """The input as the run stores and digests it (provenance.canonical_bytes)."""
        built = self.built_input
        if isinstance(built, dict):
            return provenance.canonical_bytes(built)
        return built.canonical_bytes()


@dataclass
class Outcome:
    entries: list[EntryRow]
    event_ratings: list[EventRatingRow] | EventRatingColumns
    norms: list[NormRow] = field(default_factory=list)
    report: dict = field(default_factory=dict)


# A correction chain (services.rerate_from) rates each period from the chain's drafts of the
# earlier periods, as if they were published: period id -> draft list id.
_CHAIN_DRAFTS: ContextVar[dict[int, int] | None] = ContextVar("chain_drafts", default=None)


@contextmanager
def chain_drafts(drafts: dict[int, int]):
    """Within this block the runners read these drafts in place of their periods' lists."""
    token = _CHAIN_DRAFTS.set(dict(drafts))
    try:
        yield
    finally:
        _CHAIN_DRAFTS.reset(token)


def current_lists(federation: Federation):
    """The lists a run reads: the published ones (or a correction chain's drafts instead)."""
    drafts = _CHAIN_DRAFTS.get() or {}
    published = Q(status=ListStatus.PUBLISHED) & ~Q(period_id__in=list(drafts))
    return RatingList.objects.filter(
        published | Q(pk__in=list(drafts.values())), federation=federation
    )


def base_list_for(federation: Federation, period: RatingPeriod) -> RatingList | None:
    """The newest published list of an earlier period: what this period continues from."""
    return (
        current_lists(federation)
        .filter(period__valid_from__lt=period.valid_from)
        .order_by("-period__valid_from", "-id")
        .first()
    )


class BaseEntry(NamedTuple):
    """What a run reads of the list it continues from (plain tuples: 20,000 rows are cheap)."""

    player_id: int
    rating: float
    rd: float | None
    total_games: int
    state: dict
    provisional: bool
    half_rating: bool
    listed: bool
    published_rating: int  # what readers saw: a run's published change is taken against it


def base_entries(base_list: RatingList | None, with_state: bool = True) -> dict[int, BaseEntry]:
    """The entries of the list a run continues from; a system that keeps no state between
    periods (ICCF) skips decoding 20,000 JSON values."""
    if base_list is None:
        return {}
    # unordered: the model's default order would join the list and its period to sort by them
    entries = RatingEntry.objects.filter(rating_list=base_list).order_by()
    if not with_state:
        fields = [f for f in BaseEntry._fields if f != "state"]
        return {row[0]: BaseEntry(*row[:4], {}, *row[4:]) for row in entries.values_list(*fields)}
    # The states as text, decoded as one document by orjson where it reads what json.loads does:
    # the JSON field's json.loads per row was half of an EGF read of its 5,000 entries.
    fields = ["state_text" if f == "state" else f for f in BaseEntry._fields]
    rows = list(entries.annotate(state_text=Cast("state", TextField())).values_list(*fields))
    states = jsonio.loads_as_stdlib("[" + ",".join(row[4] for row in rows) + "]") if rows else []
    return {
        row[0]: BaseEntry(*row[:4], state, *row[5:])
        for row, state in zip(rows, states, strict=True)
    }


def published_lists(federation: Federation) -> list[tuple[date, int]]:
    """(valid_from, list id) of every published list, oldest first."""
    return list(
        current_lists(federation)
        .order_by("period__valid_from", "id")
        .values_list("period__valid_from", "id")
    )


def lists_valid_at_start(federation: Federation, events) -> dict[int, int]:
    """Event id → id of the published list valid when it started (RULES 1.4, §5), for every
    event that started after a list was published: one read of the lists for all the events.
    Ties on a date go to the newest list, as in published_list_valid_on."""
    lists = published_lists(federation)
    valid_dates = [valid_from for valid_from, _ in lists]
    found = {}
    for event in events:
        position = bisect_right(valid_dates, event.start)
        if position:
            found[event.id] = lists[position - 1][1]
    return found


def published_list_valid_on(federation: Federation, day: date) -> RatingList | None:
    return (
        current_lists(federation)
        .filter(period__valid_from__lte=day)
        .order_by("-period__valid_from", "-id")
        .first()
    )


def split_events(federation: Federation, events_in_window) -> tuple[list[Event], list[dict]]:
    """Accepted (or already rated) events are rated; the others are reported as left out, with
    the rules that block them (tournaments.acceptability_report.events_for_rating), both in the
    window's order."""
    window = list(events_in_window)
    included, left_out = events_for_rating(federation, window, timezone.localdate())
    names = {event.pk: event.name for event in window}
    excluded = [
        {"event": row["event_code"], "name": names[row["event_id"]], "reason": row["reason"]}
        for row in left_out
    ]
    return included, excluded


def played_game_rows(event_ids, **filters):
    """The played games (not byes or forfeits) of these events."""
    return Game.objects.filter(
        AnyOf(F("event_id"), event_ids), result__in=list(PLAYED_RESULTS), **filters
    )


def white_score():
    """White's score of a played game in SQL: score_of in the database."""
    return Case(
        *(When(result=result, then=Value(score)) for result, score in PLAYED_RESULTS.items()),
        output_field=FloatField(),
    )


def played_games(event_ids, **filters):
    return (
        played_game_rows(event_ids, **filters)
        .order_by("finished_on", "id")
        .values_list(
            "id",
            "event_id",
            "white_id",
            "black_id",
            "result",
            "handicap",
            "finished_on",
            "reported_on",
        )
    )


def game_label(event_code: str, game_id: int) -> str:
    """How a game of the engine input is named when the database changed since the run."""
    return f"event {event_code}, game {game_id}"


def score_of(result: str) -> float:
    return PLAYED_RESULTS[result]
