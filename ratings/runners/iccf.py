"""ICCF: one quarterly period. Games count in the period whose list they are reported in time
for (late ones roll over); rule 1.4 start ratings come from the list valid when each tournament
started; rule 6 substitutions are passed through to the engine."""

from __future__ import annotations

from array import array
from bisect import bisect_right
from typing import NamedTuple

import numpy as np

from ratings.engines.core.months import add_months
from ratings.fide_checks import as_report, fide_checks
from ratings.models import RatingEntry, RatingPeriod
from ratings.periods import iccf_period_for_report
from ratings.run_rows import EntryRow, EventRatingColumns
from ratings.runners.common import (
    Context,
    Outcome,
    Prepared,
    base_entries,
    game_label,
    played_games,
    published_lists,
    score_of,
    split_events,
)
from tournaments.models import Event, Substitution

INITIAL_RATING = 1800.0


class GameSides(NamedTuple):
    """The period's games as columns, in no particular order (what _per_event_player reads)."""

    game: np.ndarray  # the game's id
    event: np.ndarray
    white: np.ndarray
    black: np.ndarray
    white_score: np.ndarray


def _games_in_period(ctx: Context, event_ids) -> tuple[list, list[dict], GameSides]:
    period: RatingPeriod = ctx.period
    # Late results of up to a year ago may roll into this period.
    since = add_months(period.starts_on, -12)
    games, late = [], []
    # the columns are taken while each row is at hand: a later pass over 200,000 rows would
    # read them back from memory (0.05 s a column)
    game, event, white, black = array("q"), array("q"), array("q"), array("q")
    white_score = array("d")
    assignments = {}  # many games share their dates: decide each pair of dates once
    for row in played_games(event_ids, reported_on__gte=since, reported_on__lte=period.valid_from):
        dates = (row[7], row[6])
        assignment = assignments.get(dates)
        if assignment is None:
            assignment = assignments[dates] = iccf_period_for_report(dates[0], finished_on=dates[1])
        if assignment.period.code == period.code:
            games.append(row)
            game.append(row[0])
            event.append(row[1])
            white.append(row[2])
            black.append(row[3])
            white_score.append(score_of(row[4]))
            if assignment.late:
                late.append({"game": row[0], "reason": assignment.reason})
    columns = (game, event, white, black, white_score)
    sides = GameSides(*(np.frombuffer(c, c.typecode) for c in columns))
    return games, late, sides


def build(ctx: Context) -> Prepared:
    period = ctx.period
    window = Event.objects.filter(
        federation=ctx.federation,
        start__lte=period.ends_on,
        end__gte=add_months(period.starts_on, -12),
    )
    events, excluded = split_events(ctx.federation, window.order_by("start", "code"))
    event_ids = [e.id for e in events]
    games, late, sides = _games_in_period(ctx, event_ids)
    games.sort(key=lambda g: g[0])
    base = base_entries(ctx.base_list, with_state=False)
    substitutions = _substitutions(event_ids, sides.game)
    played = np.unique(np.concatenate((sides.white, sides.black))).tolist()
    involved = set(played) | {s[2] for s in substitutions}
    name_of = {pid: str(pid) for pid in involved}  # the contract names players by text
    # Rule 2.1a: a newcomer starts from his FIDE rating as verified against the FIDE list.
    checks = fide_checks(ctx.federation, involved, ctx.period.valid_from)
    fide = {pid: c.used for pid, c in checks.items() if c.used is not None}
    players = []
    for pid in sorted(set(base) | involved):
        entry = base.get(pid)
        if entry is not None:
            players.append({"id": str(pid), "rating": entry.rating, "rd": entry.rd})
        elif pid in fide:  # a newcomer starts from his declared FIDE rating (RD 150)
            players.append({"id": str(pid), "unrated": True, "fide": float(fide[pid])})
        else:
            players.append({"id": str(pid), "unrated": True})
    start_ratings = _start_ratings(ctx, events, fide)
    code_of = {event.id: event.code for event in events}
    index_of, engine_games, labels = {}, [], []
    for index, g in enumerate(games):  # one pass: 200,000 rows no longer in the CPU's caches
        game_id, event_id, white, black, result = g[:5]
        index_of[game_id] = index
        labels.append(game_label(code_of[event_id], game_id))
        row = {"white": name_of[white], "black": name_of[black], "result": score_of(result)}
        starts = start_ratings.get(event_id)
        if starts is not None:
            for side, pid in (("white_start", white), ("black_start", black)):
                # Unrated when the tournament started: his initial rating is his start rating.
                row[side] = starts.get(pid, float(fide.get(pid, INITIAL_RATING)))
        engine_games.append(row)
    engine_input = {
        "params": ctx.params,
        "players": players,
        "games": engine_games,
        "substitutions": [
            {"game": index_of[game_id], "side": side, "replaces": str(replaces)}
            for game_id, side, replaces in sorted(substitutions)
        ],
    }
    return Prepared(
        engine_input,
        events,
        excluded,
        extra={
            "games": games,
            "sides": sides,
            "base": base,
            "late": late,
            "substitutions": substitutions,
            "fide_checks": as_report(c for pid, c in checks.items() if pid not in base),
        },
        labels={"games": labels},
    )


def _substitutions(event_ids: list[int], period_games: np.ndarray) -> list[tuple]:
    """Rule 6 substitutions in the period's games: (game id, side, replaced player id)."""
    found = list(
        Substitution.objects.filter(game__event_id__in=event_ids).values_list(
            "game_id", "side", "replaces_id"
        )
    )
    if not found:
        return []
    kept = np.isin(np.array([s[0] for s in found], np.int64), period_games)
    return [s for s, keep in zip(found, kept.tolist(), strict=True) if keep]


def _start_ratings(ctx: Context, events, fide: dict[int, int]) -> dict[int, dict[int, float]]:
    """Rule 1.4: each player's rating on the list valid when the tournament started."""
    lists = published_lists(ctx.federation)
    valid_dates = [valid_from for valid_from, _ in lists]
    ratings_of: dict[int, dict[int, float]] = {}
    result = {}
    for event in events:
        position = bisect_right(valid_dates, event.start)
        if position == 0:
            continue
        list_id = lists[position - 1][1]
        if list_id not in ratings_of:
            ratings_of[list_id] = dict(
                RatingEntry.objects.filter(rating_list_id=list_id).values_list(
                    "player_id", "rating"
                )
            )
        result[event.id] = ratings_of[list_id]
    return result


def _per_event_player(sides: GameSides) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(event id, player id, games, score) of every player at every event of the period, in
    (event, player) order: one array pass over both sides of every game. The games themselves
    are not stored again: they are in the run's stored input (explain reads them there)."""
    if not len(sides.event):
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, empty, np.zeros(0)
    event = sides.event
    # one int64 key per (event, player): ids are database keys, far below 2**31
    pairs = (np.concatenate((event, event)) << 32) | np.concatenate((sides.white, sides.black))
    scores = np.concatenate((sides.white_score, 1.0 - sides.white_score))
    keys, slot, counts = np.unique(pairs, return_inverse=True, return_counts=True)
    # scores are 0, 0.5 and 1: every partial sum is exact, so the order of adding is irrelevant
    totals = np.bincount(slot, weights=scores, minlength=len(keys))
    return keys >> 32, keys & 0xFFFFFFFF, counts, totals


def interpret(prepared: Prepared, output: dict) -> Outcome:
    base = prepared.extra["base"]
    entries, rated, after, after_rd = [], [], [], []
    for row in output["players"]:
        if row.get("unrated"):
            continue
        pid = int(row["id"])
        rated.append(pid)
        after.append(row["rating"])
        after_rd.append(row["rd"])
        entry = base.get(pid)
        entries.append(
            EntryRow(
                player_id=pid,
                rating=row["rating"],
                rd=row["rd"],
                published_rating=row["published_rating"],
                published_rd=row["published_rd"],
                games=row["games"],
                total_games=(entry.total_games if entry else 0) + row["games"],
            )
        )
    return Outcome(
        entries,
        _event_ratings(prepared, np.array(rated, np.int64), after, after_rd),
        report={
            "late_results": prepared.extra["late"][:200],
            "late_count": len(prepared.extra["late"]),
            "fide_checks": prepared.extra["fide_checks"],
        },
    )


def _event_ratings(prepared: Prepared, rated: np.ndarray, after, after_rd) -> EventRatingColumns:
    """Each rated player's rating before and after at every event he played in the period: the
    per-(event, player) columns joined to the ratings by player id (sorted arrays, no loop)."""
    event_id, player_id, games, score = _per_event_player(prepared.extra["sides"])
    found, at = _positions(rated, player_id)
    player_id, at = player_id[found], at[found]
    base = prepared.extra["base"]
    base_ids = np.fromiter(base, np.int64, len(base))
    known, at_base = _positions(base_ids, player_id)
    before = np.array([e.rating for e in base.values()] + [np.nan], np.float64)
    before_rd = np.array([np.nan if e.rd is None else e.rd for e in base.values()] + [np.nan])
    missing = len(base)  # the NaN at the end: no rating before the period
    at_base = np.where(known, at_base, missing)
    return EventRatingColumns(
        event_id=event_id[found],
        player_id=player_id,
        before=before[at_base],
        after=np.array(after, np.float64)[at],
        games=games[found],
        before_rd=before_rd[at_base],
        after_rd=np.array(after_rd, np.float64)[at],
        score=score[found],
    )


def _positions(ids: np.ndarray, wanted: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each wanted id: whether `ids` (unique, any order) holds it, and at which index."""
    if len(ids) == 0:
        return np.zeros(len(wanted), dtype=bool), np.zeros(len(wanted), dtype=np.int64)
    order = np.argsort(ids)
    index = order[np.minimum(np.searchsorted(ids[order], wanted), len(ids) - 1)]
    return ids[index] == wanted, index
