"""An event's public page: its games, scores, placements and each player's change."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date

from federation.models import Player
from ratings.models import (
    EventRating,
    ListStatus,
    RatedEvent,
    RatingEntry,
    RatingList,
)
from ratings.selectors.common import PUBLIC_EVENT_STATUSES
from ratings.selectors.errors import NotFound
from ratings.selectors.players import EventChange, changes_by_player
from tournaments.models import Event, Game, Placement, Problem, SolverScore, TeamMember

# Events


@dataclass(frozen=True)
class EventPage:
    event: Event
    games: list[Game]
    changes: dict[int, EventChange]  # player id -> his change at this event
    problems: list[Problem]
    scores: list[SolverScore]
    players: list[Player]
    placements: dict[int, tuple[int, str]]  # player id -> (place, grade) from the results file
    boards: dict[int, tuple[str, int]]  # player id -> (team, board) in a team event


def public_event(federation_code: str, code: str) -> Event:
    """Only accepted and rated events are public; drafts, submitted and rejected ones are not found."""
    event = (
        Event.objects.filter(
            federation__code=federation_code, code=code, status__in=PUBLIC_EVENT_STATUSES
        )
        .select_related("federation")
        .first()
    )
    if event is None:
        raise NotFound("no such event")
    return event


def event_changes(event: Event, players: Iterable[int]) -> dict[int, EventChange]:
    """(player id, change) of each of `players` at the event, from published runs: one query.
    Event ratings have no index by event (ratings.models): the runs that rated the event are
    read from RatedEvent and the rows by the players' keys."""
    rated_by = RatedEvent.objects.filter(
        event=event, run__rating_list__status=ListStatus.PUBLISHED
    ).values("run_id")
    rows = EventRating.objects.filter(
        player_id__in=sorted(set(players)), event=event, run_id__in=rated_by
    ).order_by("player_id", "-run_id")
    seen: dict[int, EventChange] = {}
    for player_id, change in changes_by_player(rows):
        seen.setdefault(player_id, change)  # the newest published run wins
    return seen


def event_page(event: Event) -> EventPage:
    games = list(
        Game.objects.filter(event=event).select_related("white", "black").order_by("round", "id")
    )
    problems: list[Problem] = []
    scores: list[SolverScore] = []
    if event.kind == "solving":
        problems = list(Problem.objects.filter(event=event).order_by("round", "number"))
        scores = list(
            SolverScore.objects.filter(problem__event=event)
            .select_related("solver")
            .order_by("solver_id", "problem__round", "problem__number")
        )
    placements = {
        pid: (place, grade)
        for pid, place, grade in Placement.objects.filter(event=event).values_list(
            "player_id", "place", "grade"
        )
    }
    boards = {}
    if event.kind == "team":
        boards = {
            pid: (team, board)
            for pid, team, board in TeamMember.objects.filter(team__event=event).values_list(
                "player_id", "team__name", "board"
            )
        }
    known = {g.white_id for g in games} | {g.black_id for g in games if g.black_id}
    known |= {s.solver_id for s in scores}
    listed = set(placements) | set(boards)
    # every player a run rates at an event played, solved, placed or sat on a team's board there
    changes = event_changes(event, known | listed)
    missing = listed - known
    extra = list(Player.objects.filter(id__in=missing)) if missing else []
    by_id = {g.white_id: g.white for g in games}
    by_id.update({g.black_id: g.black for g in games if g.black_id})
    by_id.update({s.solver_id: s.solver for s in scores})
    by_id.update({p.id: p for p in extra})
    return EventPage(
        event=event,
        games=games,
        changes=changes,
        problems=problems,
        scores=scores,
        players=[by_id[pid] for pid in sorted(by_id, key=lambda i: by_id[i].full_name)],
        placements=placements,
        boards=boards,
    )


def full_ratings_at_start(
    events: Sequence[Event], solvers: Mapping[int, Iterable[int]]
) -> dict[int, dict[int, int]]:
    """Per event, its solvers' full ratings (half-ratings count as unrated, RULES §4.1) on the
    published list valid at its start: what WFCC acceptability asks (tournaments.ports)."""
    federations = {e.federation_id for e in events}
    lists = list(
        RatingList.objects.filter(federation_id__in=federations, status=ListStatus.PUBLISHED)
        .order_by("-period__valid_from", "-id")
        .values_list("id", "federation_id", "period__valid_from")
    )
    list_of: dict[int, int] = {}
    for event in events:
        # the newest list whose validity began on or before the start (RULES §5)
        valid = next(
            (
                lid
                for lid, fed, valid_from in lists
                if fed == event.federation_id and valid_from <= event.start
            ),
            None,
        )
        if valid is not None:
            list_of[event.pk] = valid
    players = {p for e in events for p in solvers[e.pk]}
    wanted = set(list_of.values())
    ratings: dict[tuple[int, int], int] = {}
    if wanted and players:
        entries = RatingEntry.objects.filter(
            rating_list_id__in=wanted, player_id__in=players, half_rating=False
        ).values_list("rating_list_id", "player_id", "published_rating")
        ratings = {(lid, pid): rating for lid, pid, rating in entries}
    return {
        e.pk: {
            p: ratings[(list_of[e.pk], p)]
            for p in solvers[e.pk]
            if e.pk in list_of and (list_of[e.pk], p) in ratings
        }
        for e in events
    }


def published_period_holding(federation_id: int, day: date) -> tuple[str, list[str]] | None:
    """(the period whose window holds ``day``, every later period) when that period's list is
    published: an event ending that day then needs a re-rate from it (tournaments.ports)."""
    published = RatingList.objects.filter(federation_id=federation_id, status=ListStatus.PUBLISHED)
    holding = (
        published.filter(period__starts_on__lte=day, period__ends_on__gte=day)
        .values_list("period__code", flat=True)
        .first()
    )
    if holding is None:
        return None
    later = published.filter(period__starts_on__gt=day).order_by("period__starts_on")
    return holding, list(dict.fromkeys(later.values_list("period__code", flat=True)))
