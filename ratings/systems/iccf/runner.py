"""ICCF: one quarterly period. Games count in the period whose list they are reported in time
for (late ones roll over); rule 1.4 start ratings come from the list valid when each tournament
started; rule 6 substitutions are passed through to the engine."""

from __future__ import annotations

from functools import partial
from typing import NamedTuple

import numpy as np
from django.db.models import F

from federation.lookups import AnyOf
from ratings.engines.core.months import add_months
from ratings.engines.iccf.contract import RatedColumns, published_columns
from ratings.engines.iccf.input_columns import InputColumns
from ratings.models import RatingEntry, RatingPeriod
from ratings.persistence.column_read import NULL_DAY, day_of, read_columns
from ratings.persistence.run_rows import EntryRow, EventRatingColumns
from ratings.systems.common import (
    BaseEntry,
    Context,
    Outcome,
    Prepared,
    base_entries,
    game_label,
    lists_valid_at_start,
    played_game_rows,
    split_events,
    white_score,
)
from ratings.systems.iccf.calendar import period_for_report
from ratings.systems.iccf.fide_checks import as_report, fide_checks
from tournaments.models import Event, Substitution

INITIAL_RATING = 1800.0


class GameSides(NamedTuple):
    """The period's games as columns, in the order of their ids (the engine input's order)."""

    game: np.ndarray  # the game's id
    event: np.ndarray
    white: np.ndarray
    black: np.ndarray
    white_score: np.ndarray


_GAME_COLUMNS = {
    "id": "int",
    "event_id": "int",
    "white_id": "int",
    "black_id": "int",
    "white_score": "float",
    "finished_on": "day",
    "reported_on": "day",
}


def _games_in_period(ctx: Context, event_ids) -> tuple[GameSides, list[dict]]:
    """The games rated in the period (rules 3/4: reported in time for its list, or late ones
    rolling over), and the late ones with the reason, in the order they finished."""
    period: RatingPeriod = ctx.period
    # Late results of up to a year ago may roll into this period.
    since = add_months(period.starts_on, -12)
    found = read_columns(
        played_game_rows(
            event_ids, reported_on__gte=since, reported_on__lte=period.valid_from
        ).annotate(white_score=white_score()),
        _GAME_COLUMNS,
    )
    finished, reported = found["finished_on"], found["reported_on"]
    # many games share their dates: each pair of dates is decided once
    pairs = (finished.astype(np.int64) << 32) | (reported.astype(np.int64) & 0xFFFFFFFF)
    _, first, slot = np.unique(pairs, return_index=True, return_inverse=True)
    assignments = [
        period_for_report(day_of(r), finished_on=day_of(f))
        for f, r in zip(finished[first].tolist(), reported[first].tolist(), strict=True)
    ]
    counted = np.array([a.period.code == period.code for a in assignments], dtype=bool)[slot]
    rolled = np.array([a.late for a in assignments], dtype=bool)[slot] & counted
    kept = np.flatnonzero(counted)
    kept = kept[np.argsort(found["id"][kept])]
    names = ("id", "event_id", "white_id", "black_id", "white_score")
    sides = GameSides(*(found[name][kept] for name in names))
    late = np.flatnonzero(rolled)
    # as the database orders (finished_on, id): a game with no finishing date last
    finished_order = np.where(finished == NULL_DAY, np.iinfo(np.int32).max, finished)
    late = late[np.lexsort((found["id"][late], finished_order[late]))]
    reasons = [assignment.reason for assignment in assignments]
    late_results = [
        {"game": game, "reason": reasons[at]}
        for game, at in zip(found["id"][late].tolist(), slot[late].tolist(), strict=True)
    ]
    return sides, late_results


def build(ctx: Context) -> Prepared:
    period = ctx.period
    window = Event.objects.filter(
        federation=ctx.federation,
        start__lte=period.ends_on,
        end__gte=add_months(period.starts_on, -12),
    )
    events, excluded = split_events(ctx.federation, window.order_by("start", "code"))
    event_ids = [e.id for e in events]
    sides, late = _games_in_period(ctx, event_ids)
    base = base_entries(ctx.base_list, with_state=False)
    substitutions = _substitutions(event_ids, sides.game)
    played = np.unique(np.concatenate((sides.white, sides.black))).tolist()
    involved = set(played) | {s[2] for s in substitutions}
    # Rule 2.1a: a newcomer starts from his FIDE rating as verified against the FIDE list.
    checks = fide_checks(ctx.federation, involved, ctx.period.valid_from)
    fide = {pid: c.used for pid, c in checks.items() if c.used is not None}
    player_ids = np.array(sorted(set(base) | involved), dtype=np.int64)
    on_base = [base.get(pid) for pid in player_ids.tolist()]  # None: not on the base list
    declared = np.array([float(fide.get(pid, np.nan)) for pid in player_ids.tolist()])
    unrated = np.array([entry is None for entry in on_base], dtype=bool)
    white = np.searchsorted(player_ids, sides.white)
    black = np.searchsorted(player_ids, sides.black)
    white_start, black_start = _start_ratings(ctx, events, sides, (white, black), declared, base)
    code_of = {event.id: event.code for event in events}
    substituted = sorted(substitutions)
    # a substituted game's index in the input: the games are in the order of their ids
    at = np.searchsorted(sides.game, [game_id for game_id, _, _ in substituted]).tolist()
    engine_input = InputColumns(
        params=ctx.params,
        ids=tuple(map(str, player_ids.tolist())),  # the contract names players by text
        unrated=unrated,
        rating=np.array([np.nan if e is None else e.rating for e in on_base], dtype=np.float64),
        rd=np.array([np.nan if e is None or e.rd is None else e.rd for e in on_base]),
        # a newcomer starts from his declared FIDE rating (RD 150)
        fide=np.where(unrated, declared, np.nan),
        white=white,
        black=black,
        result=sides.white_score,
        white_start=white_start,
        black_start=black_start,
        substitutions=[
            {"game": index, "side": side, "replaces": str(replaces)}
            for index, (_, side, replaces) in zip(at, substituted, strict=True)
        ],
    )
    return Prepared(
        engine_input,
        events,
        excluded,
        extra={
            "sides": sides,
            "player_ids": player_ids,  # the input's players, by index
            "late": late,
            "substitutions": substitutions,
            "fide_checks": as_report(c for pid, c in checks.items() if pid not in base),
        },
        label_source=partial(_game_labels, code_of, sides),
        base=base,
    )


def _game_labels(code_of: dict[int, str], sides: GameSides) -> dict[str, list[str]]:
    games = map(game_label, map(code_of.__getitem__, sides.event.tolist()), sides.game.tolist())
    return {"games": list(games)}


def _substitutions(event_ids: list[int], period_games: np.ndarray) -> list[tuple]:
    """Rule 6 substitutions in the period's games: (game id, side, replaced player id)."""
    found = list(
        Substitution.objects.filter(AnyOf(F("game__event_id"), event_ids)).values_list(
            "game_id", "side", "replaces_id"
        )
    )
    if not found:
        return []
    kept = np.isin(np.array([s[0] for s in found], np.int64), period_games)
    return [s for s, keep in zip(found, kept.tolist(), strict=True) if keep]


def _start_ratings(
    ctx: Context,
    events,
    sides: GameSides,
    at: tuple[np.ndarray, np.ndarray],
    declared,
    base: dict[int, BaseEntry],
) -> tuple[np.ndarray, np.ndarray]:
    """Rule 1.4: White's and Black's rating on the list valid when each game's tournament
    started (NaN: it started before any published list). A player not on that list was unrated
    then: his initial rating is his start rating (his declared FIDE rating, or 1800).
    ``at``: each side's index in the players, whose ``declared`` FIDE ratings are given."""
    list_of_event = lists_valid_at_start(ctx.federation, events)
    starts = (np.full(len(sides.game), np.nan), np.full(len(sides.game), np.nan))
    if not list_of_event:
        return starts
    initial = np.where(np.isnan(declared), INITIAL_RATING, declared)
    list_of_game = np.array([list_of_event.get(e, -1) for e in sides.event.tolist()])
    for list_id in np.unique(list_of_game[list_of_game >= 0]).tolist():
        rows = np.flatnonzero(list_of_game == list_id)
        listed, rating = _ratings_on(list_id, ctx, base)
        for players, index, start in zip((sides.white, sides.black), at, starts, strict=True):
            found, position = _positions_sorted(listed, players[rows])
            start[rows] = np.where(found, rating[position], initial[index[rows]])
    return starts


def _ratings_on(
    list_id: int, ctx: Context, base: dict[int, BaseEntry]
) -> tuple[np.ndarray, np.ndarray]:
    """The player ids on a published list, sorted, and their ratings. The list the run continues
    from (where most tournaments of a period started) is the run's base, read already."""
    if ctx.base_list is not None and list_id == ctx.base_list.pk:
        ids = np.fromiter(base, dtype=np.int64, count=len(base))
        rating = np.fromiter((e.rating for e in base.values()), np.float64, count=len(base))
    else:
        on_list = read_columns(
            RatingEntry.objects.filter(rating_list_id=list_id),
            {"player_id": "int", "rating": "float"},
        )
        ids, rating = on_list["player_id"], on_list["rating"]
    order = np.argsort(ids)
    return ids[order], rating[order]


def _per_event_player(
    event: np.ndarray, white: np.ndarray, black: np.ndarray, white_score: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(event id, player, games, score) of every player at every event of the period, in
    (event, player) order, the players given by their index in the engine input (sorted by id):
    one array pass over both sides of every game. The games themselves are not stored again:
    they are in the run's stored input (explain reads them there)."""
    if not len(event):
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, empty, np.zeros(0)
    # one int64 key per (event, player): event ids are database keys, far below 2**31
    pairs = (np.concatenate((event, event)) << 32) | np.concatenate((white, black))
    scores = np.concatenate((white_score, 1.0 - white_score))
    keys, slot, counts = np.unique(pairs, return_inverse=True, return_counts=True)
    # scores are 0, 0.5 and 1: every partial sum is exact, so the order of adding is irrelevant
    totals = np.bincount(slot, weights=scores, minlength=len(keys))
    return keys >> 32, keys & 0xFFFFFFFF, counts, totals


class Rated(NamedTuple):
    """The engine's output per player of its input, in the input's order."""

    rated: np.ndarray  # False: still unrated, not listed
    rating: np.ndarray
    rd: np.ndarray
    published_rating: np.ndarray  # Python ints, as the engine rounded them
    published_rd: np.ndarray
    games: np.ndarray


def _rated(output: dict | RatedColumns, ids: tuple[str, ...]) -> Rated:
    if isinstance(output, RatedColumns):
        out = output.outcome
        shown = (np.array(values, dtype=object) for values in published_columns(out))
        return Rated(out.rated, out.rating, out.rd, *shown, out.games)
    # the output as a document (an input the engine read entry by entry)
    at = {pid: i for i, pid in enumerate(ids)}
    rated = Rated(
        np.zeros(len(ids), bool),
        np.full(len(ids), np.nan),
        np.full(len(ids), np.nan),
        np.zeros(len(ids), dtype=object),
        np.zeros(len(ids), dtype=object),
        np.zeros(len(ids), np.int64),
    )
    for row in output["players"]:
        i = at[row["id"]]
        rated.games[i] = row["games"]
        if not row.get("unrated"):
            rated.rated[i], rated.rating[i], rated.rd[i] = True, row["rating"], row["rd"]
            rated.published_rating[i] = row["published_rating"]
            rated.published_rd[i] = row["published_rd"]
    return rated


def interpret(prepared: Prepared, output: dict | RatedColumns) -> Outcome:
    columns: InputColumns = prepared.built_input
    player_ids = prepared.extra["player_ids"]
    rated = _rated(output, columns.ids)
    listed = np.flatnonzero(rated.rated)
    listed_ids = player_ids[listed].tolist()
    base = prepared.base
    entries = [
        EntryRow(
            player_id=pid,
            rating=rating,
            rd=rd,
            published_rating=published_rating,
            published_rd=published_rd,
            games=games,
            total_games=(entry.total_games if entry else 0) + games,
        )
        for pid, rating, rd, published_rating, published_rd, games, entry in zip(
            listed_ids,
            rated.rating[listed].tolist(),
            rated.rd[listed].tolist(),
            rated.published_rating[listed].tolist(),
            rated.published_rd[listed].tolist(),
            rated.games[listed].tolist(),
            map(base.get, listed_ids),
            strict=True,
        )
    ]
    return Outcome(
        entries,
        _event_ratings(prepared, rated),
        report={
            "late_results": prepared.extra["late"][:200],
            "late_count": len(prepared.extra["late"]),
            "fide_checks": prepared.extra["fide_checks"],
        },
    )


def _event_ratings(prepared: Prepared, rated: Rated) -> EventRatingColumns:
    """Each rated player's rating before and after at every event he played in the period: the
    per-(event, player) columns joined to the input's and the output's columns by the player's
    index in the input (no look-up by id). His rating before is the input's (the list the run
    continues from; NaN for a newcomer)."""
    columns: InputColumns = prepared.built_input
    sides: GameSides = prepared.extra["sides"]
    event_id, player, games, score = _per_event_player(
        sides.event, columns.white, columns.black, sides.white_score
    )
    kept = rated.rated[player]
    player = player[kept]
    return EventRatingColumns(
        event_id=event_id[kept],
        player_id=prepared.extra["player_ids"][player],
        before=columns.rating[player],
        after=rated.rating[player],
        games=games[kept],
        before_rd=columns.rd[player],
        after_rd=rated.rd[player],
        score=score[kept],
    )


def _positions_sorted(ids: np.ndarray, wanted: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each wanted id: whether the sorted `ids` hold it, and at which index."""
    if len(ids) == 0:
        return np.zeros(len(wanted), dtype=bool), np.zeros(len(wanted), dtype=np.int64)
    index = np.minimum(np.searchsorted(ids, wanted), len(ids) - 1)
    return ids[index] == wanted, index
