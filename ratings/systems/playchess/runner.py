"""PlayChess: one batch window of games (finish order), opponents at their pre-batch ratings."""

from __future__ import annotations

from collections import defaultdict

from federation.models import Player
from ratings.persistence.run_rows import EntryRow, EventRatingRow
from ratings.systems.common import (
    Context,
    Outcome,
    Prepared,
    base_entries,
    game_label,
    played_games,
    score_of,
    split_events,
)
from tournaments.models import Event


def build(ctx: Context) -> Prepared:
    period = ctx.period
    window = Event.objects.filter(
        federation=ctx.federation, end__gte=period.starts_on, start__lte=period.ends_on
    ).order_by("start", "code")
    events, excluded = split_events(ctx.federation, window)
    games = list(
        played_games(
            [e.id for e in events],
            finished_on__gte=period.starts_on,
            finished_on__lte=period.ends_on,
        )
    )
    base = base_entries(ctx.base_list)
    in_games = {pid for g in games for pid in (g[2], g[3])}
    declared = dict(
        Player.objects.filter(id__in=in_games - set(base), start_rating__isnull=False).values_list(
            "id", "start_rating"
        )
    )
    players = []
    for pid in sorted(set(base) | in_games):
        entry = base.get(pid)
        if entry is not None:
            row = {"id": str(pid), "rating": entry.rating, "games": entry.total_games}
            if entry.provisional and entry.total_games:
                row["score"] = entry.state.get("score", 0.0)
                row["opponents"] = entry.state.get("opponents", 0.0)
        elif pid in declared:
            row = {"id": str(pid), "rating": float(declared[pid]), "games": 0}
        else:
            row = {"id": str(pid)}
        players.append(row)
    engine_input = {
        "params": ctx.params,
        "players": players,
        "games": [
            {"white": str(g[2]), "black": str(g[3]), "result": score_of(g[4])} for g in games
        ],
    }
    code_of = {event.id: event.code for event in events}
    return Prepared(
        engine_input,
        events,
        excluded,
        extra={"games": games},
        base=base,
        label_source=lambda: {"games": [game_label(code_of[g[1]], g[0]) for g in games]},
    )


def interpret(prepared: Prepared, output: dict) -> Outcome:
    games = prepared.extra["games"]
    base = prepared.base
    played = defaultdict(int)
    per_event = defaultdict(list)  # (event, player) -> [game id, opponent, score, change]
    for game, result in zip(games, output["games"], strict=True):
        game_id, event_id, white, black, res = game[:5]
        s = score_of(res)
        played[white] += 1
        played[black] += 1
        per_event[(event_id, white)].append([game_id, black, s, result["white_change"]])
        per_event[(event_id, black)].append([game_id, white, 1 - s, result["black_change"]])
    entries, after_of = [], {}
    for row in output["players"]:
        if "rating" not in row:
            continue
        pid = int(row["id"])
        after_of[pid] = row["rating"]
        state = {}
        if row["provisional"]:
            state = {"score": row.get("score", 0.0), "opponents": row.get("opponents", 0.0)}
        entries.append(
            EntryRow(
                player_id=pid,
                rating=row["rating"],
                published_rating=row["published_rating"],
                games=played.get(pid, 0),
                total_games=row["games"],
                provisional=row["provisional"],
                state=state,
            )
        )
    event_ratings = [
        EventRatingRow(
            event_id=event_id,
            player_id=pid,
            before=base[pid].rating if pid in base else None,
            after=after_of[pid],
            games=len(rows),
            score=sum(r[2] for r in rows),
            details={"games": rows},
        )
        for (event_id, pid), rows in sorted(per_event.items())
        if pid in after_of
    ]
    return Outcome(entries, event_ratings)
