"""A player's page: profile, rating history, events, games, norms and ranks."""

from __future__ import annotations

import math
from array import array
from bisect import bisect_right
from collections import Counter
from dataclasses import dataclass
from datetime import date

from django.core.cache import cache
from django.db.models import Exists, OuterRef, Q, QuerySet, Subquery

from federation.models import Federation, Player
from federation.player_search import player_name_q
from ratings import systems
from ratings.models import (
    EventRating,
    ListStatus,
    LiveRating,
    RatingEntry,
    RatingRun,
    SolvingNorm,
)
from ratings.numbers import exact_sum, published_change
from ratings.selectors.common import PLAYER_GAMES_SHOWN, PUBLIC_EVENT_STATUSES, PUBLIC_LIST_STATUSES
from ratings.selectors.errors import NotFound
from ratings.web.crosstable import POINTS
from ratings.web.page_cache import IMMUTABLE_SECONDS
from tournaments.models import Game, Placement

# Players


@dataclass(frozen=True)
class HistoryPoint:
    period: str
    valid_from: date
    rating: float
    published_rating: int
    rd: float | None
    published_rd: int | None
    rank: int | None
    games: int
    change: float | None  # unrounded
    published_change: int | None  # what readers see: the difference of published integers
    provisional: bool
    half_rating: bool
    listed: bool
    run_id: int | None = None
    total_games: int = 0
    rating_list_id: int | None = None


@dataclass(frozen=True)
class EventChange:
    """A player's rating change at one event, as every page shows it.

    `after − before` is the event's own change, except in two cases. A WFCC contest's own change
    is its ChOfRat (`own`): every contest of a quarter is rated from the list rating, so `after`
    is the running total. And when a run rated the event together with others from the same start
    (an ICCF or PlayChess period: the player's events of the run have one before and one after),
    the own change is the sum of the engine's per-game changes of this event where it reports
    them (PlayChess, established players); where it does not (ICCF, provisional PlayChess
    ratings), `shared` is set: the change shown is the period's, not this event's alone.
    """

    run_id: int
    event_code: str
    event_name: str
    event_end: date
    before: float | None
    after: float
    before_rd: float | None
    after_rd: float | None
    games: int
    score: float | None
    period: str
    own: float | None = None
    shared: bool = False
    place: int | None = None  # his place in the event (results file, or the WFCC engine's)

    @property
    def change_unrounded(self) -> float | None:
        if self.before is None:
            return None
        return self.own if self.own is not None else self.after - self.before

    @property
    def after_event(self) -> float:
        """The rating this event alone leads to (before + its own change)."""
        if self.own is None or self.before is None:
            return self.after
        return exact_sum(self.before, self.own)

    @property
    def change(self) -> int | None:
        """The difference of the published before and after: what the pages show."""
        return published_change(self.before, self.after_event)


# The EventRating columns an EventChange is built from, in its field order.
EVENT_CHANGE_FIELDS = (
    "run_id",
    "event__code",
    "event__name",
    "event__end",
    "before",
    "after",
    "before_rd",
    "after_rd",
    "games",
    "score",
    "run__period__code",
)


def _placed():
    return Placement.objects.filter(
        event_id=OuterRef("event_id"), player_id=OuterRef("player_id")
    ).values("place")[:1]


def changes_by_player(rows: QuerySet[EventRating]) -> list[tuple[int, EventChange]]:
    """(player id, EventChange) per row: one query, `shared` read by a subquery."""
    together = EventRating.objects.filter(
        run_id=OuterRef("run_id"),
        player_id=OuterRef("player_id"),
        before=OuterRef("before"),
        after=OuterRef("after"),
    ).exclude(event_id=OuterRef("event_id"))  # another event: (run, player) fix the rest of the key
    found = rows.annotate(shared=Exists(together), file_place=Subquery(_placed())).values_list(
        "player_id", *EVENT_CHANGE_FIELDS, "details", "shared", "file_place"
    )
    return [(row[0], _change(row[1:-3], *row[-3:])) for row in found]


def _change(fields: tuple, details, together: bool, file_place) -> EventChange:
    """An EventChange from its EVENT_CHANGE_FIELDS, the runner's details, whether the run rated
    the event together with others from the same start, and the results file's place."""
    own = own_change(details, together)
    place = file_place if file_place is not None else (details or {}).get("place")
    return EventChange(
        *fields,
        own=own,
        shared=together and own is None,
        place=place if isinstance(place, int) else None,
    )


def _number(value) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def own_change(details: dict | None, together: bool) -> float | None:
    """An event's own change from what the runner stored with it (see EventChange)."""
    if not isinstance(details, dict):
        return None
    if _number(details.get("change")):  # WFCC: the contest's ChOfRat
        return float(details["change"])
    if not together:
        return None
    per_game = [
        g[3] if isinstance(g, list) and len(g) > 3 else None for g in details.get("games") or ()
    ]
    if per_game and all(_number(c) for c in per_game):
        return math.fsum(per_game)
    return None


@dataclass(frozen=True)
class PlayerProfile:
    player: Player
    current: HistoryPoint | None  # his point on the newest published list
    current_period: str | None
    country_rank: int | None
    history: list[HistoryPoint]
    events: list[EventChange]
    games: list[PlayerGame]
    half_ratings: list[float]  # a half-rated WFCC solver's half-ratings so far
    norms: list[NormGained]
    title_proposals: list[str]


@dataclass(frozen=True)
class PlayerGame:
    """One game from the player's side, as the player card shows it."""

    event_code: str
    event_name: str
    round: int
    opponent: Player | None  # None: a free round
    opponent_rating: float | None  # his rating the event was rated with (before it)
    colour: str  # "white" / "black"
    handicap: int  # stones Black received
    points: float | None  # 1, 0.5, 0 from the player's side; None if no result
    by_default: bool


@dataclass(frozen=True)
class NormGained:
    event_code: str
    event_name: str
    event_end: date
    title: str
    at_championship: bool


def published_run(federation_code: str, run_id: int) -> RatingRun:
    """A run whose list was published (superseded ones included: they were public once)."""
    run = (
        RatingRun.objects.filter(
            pk=run_id,
            federation__code=federation_code,
            rating_list__status__in=PUBLIC_LIST_STATUSES,
        )
        .select_related("federation", "period")
        .first()
    )
    if run is None:
        raise NotFound("no published run with this id")
    return run


def player_by_code(federation_code: str, player_id: str) -> Player:
    """The player with his federation, and `has_live_rating` (whether a live run moved him:
    most players' pages then skip that query): one query."""
    found = list(
        Player.objects.filter(federation__code=federation_code, federation_player_id=player_id)
        .select_related("federation")
        .annotate(has_live_rating=Exists(LiveRating.objects.filter(player=OuterRef("pk"))))
        .order_by()[:1]  # one player at most (federation, id is unique): no sort to run
    )
    if not found:
        raise NotFound("no such player")
    return found[0]


def _history_query(player_id: int) -> QuerySet:
    return (
        RatingEntry.objects.filter(player_id=player_id, rating_list__status=ListStatus.PUBLISHED)
        .order_by("rating_list__period__valid_from", "rating_list_id")
        .values_list(
            "rating_list__period__code",
            "rating_list__period__valid_from",
            "rating",
            "published_rating",
            "rd",
            "published_rd",
            "rank",
            "games",
            "change",
            "published_change",
            "provisional",
            "half_rating",
            "listed",
            "rating_list__run_id",
            "total_games",
            "rating_list_id",
        )
    )


def player_history(player: Player) -> list[HistoryPoint]:
    """One point per published list the player is on, oldest first: one query."""
    return [HistoryPoint(*row) for row in _history_query(player.pk)]


def _events_query(player_id: int) -> QuerySet:
    return (
        EventRating.objects.filter(
            player_id=player_id, run__rating_list__status=ListStatus.PUBLISHED
        )
        .order_by("-event__end", "-event_id")
        .annotate(file_place=Subquery(_placed()))
        .values_list(*EVENT_CHANGE_FIELDS, "details", "file_place")
    )


def player_events(player: Player) -> list[EventChange]:
    """Rating changes per event, from the runs whose lists are published: one query. All the
    rows are his, so which were rated together (the same run, before and after: changes_by_player'
    subquery) is read from the rows themselves."""
    return _event_changes_of(list(_events_query(player.pk)))


def _event_changes_of(found: list[tuple]) -> list[EventChange]:
    run, before, after = (EVENT_CHANGE_FIELDS.index(f) for f in ("run_id", "before", "after"))
    # SQL's equality: a row without a rating before is rated together with none
    starts = Counter((r[run], r[before], r[after]) for r in found if r[before] is not None)
    return [_change(r[:-2], r[-2], starts[(r[run], r[before], r[after])] > 1, r[-1]) for r in found]


GAME_COLUMNS = ("event_id", "round", "result", "handicap", "event__code", "event__name")
SIDE_COLUMNS = ("id", "federation_player_id", "surname", "given_name")


def _games_query(player_id: int, limit: int) -> QuerySet:
    return (
        Game.objects.filter(Q(white_id=player_id) | Q(black_id=player_id))
        .filter(event__status__in=PUBLIC_EVENT_STATUSES)
        .order_by("-event__end", "-event_id", "-round", "-id")
        .annotate(white_before=_rated_with("white"), black_before=_rated_with("black"))
        .values_list(
            *GAME_COLUMNS,
            *(f"white__{f}" for f in SIDE_COLUMNS),
            *(f"black__{f}" for f in SIDE_COLUMNS),
            "white_before",
            "black_before",
        )[:limit]
    )


def _rated_with(side: str) -> Subquery:
    """The rating the player of a game's side was rated with at its event: his `before` in the
    newest published run that rated him there (None if none did, or for a free round)."""
    return Subquery(
        EventRating.objects.filter(
            event_id=OuterRef("event_id"),
            player_id=OuterRef(f"{side}_id"),
            run__rating_list__status=ListStatus.PUBLISHED,
        )
        .order_by("-run_id")
        .values("before")[:1]
    )


def _side(values: tuple) -> Player | None:
    """The player of one side of a game (the SIDE_COLUMNS only), None for a free round."""
    return None if values[0] is None else Player.from_db("default", SIDE_COLUMNS, values)


def player_games(player: Player, limit: int = PLAYER_GAMES_SHOWN) -> list[PlayerGame]:
    """His latest games from his side, each opponent with the rating he was rated with at that
    event (his published run's `before`): one query."""
    return _games_of(player, list(_games_query(player.pk, limit)))


def _games_of(player: Player, games: list[tuple]) -> list[PlayerGame]:
    """The games' rows (_games_query's columns) from his side, with the opponents' ratings."""
    n, s = len(GAME_COLUMNS), len(SIDE_COLUMNS)
    out = []
    for game in games:
        round_, result, handicap, code, name = game[1:n]
        white, black = _side(game[n : n + s]), _side(game[n + s : n + 2 * s])
        white_before, black_before = game[n + 2 * s :]
        own_white = white is not None and white.pk == player.pk
        points = POINTS.get(result)
        out.append(
            PlayerGame(
                event_code=code,
                event_name=name,
                round=round_,
                opponent=black if own_white else white,
                opponent_rating=black_before if own_white else white_before,
                colour="white" if own_white else "black",
                handicap=handicap,
                points=None if points is None else points[0 if own_white else 1],
                by_default=result.endswith("ff"),
            )
        )
    return out


def player_norms(player: Player) -> list[NormGained]:
    rows = (
        SolvingNorm.objects.filter(player=player, run__rating_list__status=ListStatus.PUBLISHED)
        .order_by("-event__end", "title")
        .values_list("event__code", "event__name", "event__end", "title", "at_championship")
    )
    return [NormGained(*row) for row in rows]


def title_proposals(player: Player, norms: list[NormGained]) -> list[str]:
    """The titles his federation's published runs proposed for him (awarded by the WFCC)."""
    if not norms:
        return []
    reports = RatingRun.objects.filter(
        federation_id=player.federation_id, rating_list__status=ListStatus.PUBLISHED
    ).values_list("report", flat=True)
    return [
        f"{p['title']}: {p['reason']}"
        for report in reports
        for p in (report or {}).get("title_proposals", [])
        if p.get("player_id") == player.pk
    ]


def half_ratings_of(player: Player, current: HistoryPoint | None) -> list[float]:
    if current is None or not current.half_rating:
        return []
    state = (
        RatingEntry.objects.filter(player=player, rating_list_id=current.rating_list_id)
        .values_list("state", flat=True)
        .first()
    )
    return list((state or {}).get("half_ratings", []))


def country_rank(entry: RatingEntry | HistoryPoint, country: str) -> int | None:
    """Position among the listed players of the same country in the same list.

    A published list never changes, so the sorted ranks of every country of a list are read once
    (one query over the list) and kept in the cache, one key per country (a page reads only its
    player's country: a 100,000-player list's ranks of every country are 400 KB); a position is
    then a bisection, with no query.
    """
    if not country or entry.rank is None or not entry.listed:
        return None
    prefix = f"ratings:country-ranks:{entry.rating_list_id}:"
    found = cache.get(prefix + country)
    if found is None:
        by_country = _country_ranks(entry.rating_list_id)
        # The asked country is kept even when the list has none of it (his country changed since
        # the list): otherwise every page of his would read the whole list again.
        found = by_country.setdefault(country, b"")
        cache.set_many({prefix + c: r for c, r in by_country.items()}, timeout=IMMUTABLE_SECONDS)
    ranks = array("I")
    ranks.frombytes(found)
    return bisect_right(ranks, entry.rank)


def _country_ranks(rating_list_id: int) -> dict[str, bytes]:
    """Each country's listed ranks in the list, ascending, as array("I") bytes (one query)."""
    arrays: dict[str, array] = {}
    rows = (
        RatingEntry.objects.filter(rating_list_id=rating_list_id, listed=True, rank__isnull=False)
        .order_by("rank")
        .values_list("player__country", "rank")
    )
    for code, rank in rows.iterator(chunk_size=10_000):
        arrays.setdefault(code, array("I")).append(rank)
    return {code: ranks.tobytes() for code, ranks in arrays.items()}


def current_entry(player: Player) -> RatingEntry | None:
    """The player's entry on the newest published list he is on."""
    return (
        RatingEntry.objects.filter(player=player, rating_list__status=ListStatus.PUBLISHED)
        .select_related("rating_list__period")
        .order_by("-rating_list__period__valid_from", "-rating_list_id")
        .first()
    )


def search_players(federation: Federation | None, term: str, limit: int) -> list[Player]:
    """Players by id or name (federation.player_search: "Kaminska", "Kamińska, Adam" and
    "adam kaminska" find the same player), in one federation or in all."""
    found = Player.objects.filter(player_name_q(term))
    if federation is not None:
        found = found.filter(federation=federation)
    return list(
        found.select_related("federation").order_by("surname", "given_name", "federation_id", "id")[
            :limit
        ]
    )


def current_ratings(player_ids: list[int]) -> dict[int, int]:
    """Each player's published rating on the newest published list he is on: one query."""
    rows = (
        RatingEntry.objects.filter(
            player_id__in=player_ids, rating_list__status=ListStatus.PUBLISHED
        )
        .order_by("player_id", "rating_list__period__valid_from", "rating_list_id")
        .values_list("player_id", "published_rating")
    )
    return dict(rows)  # the newest list comes last and wins


def player_page(federation_code: str, player_id: str) -> PlayerProfile:
    """The player (NotFound if there is none) and his history, events and games."""
    player = player_by_code(federation_code, player_id)
    history = player_history(player)
    current = history[-1] if history else None  # the newest published list he is on
    norms = player_norms(player) if systems.of(player.federation).earns_norms else []
    return PlayerProfile(
        player=player,
        current=current,
        current_period=current.period if current else None,
        country_rank=country_rank(current, player.country) if current else None,
        history=history,
        events=player_events(player),
        games=player_games(player),
        half_ratings=half_ratings_of(player, current),
        norms=norms,
        title_proposals=title_proposals(player, norms),
    )
