"""EGF: every accepted tournament that ended in the snapshot window, rated one after another in
date order from the ratings after all earlier tournaments; the list is the snapshot at the end,
with inactive players kept but not listed (RULES §2.5)."""

from __future__ import annotations

from collections import defaultdict
from datetime import date

from federation.models import Player
from ratings.engines.core.grades import stronger_grade
from ratings.engines.core.rounding import half_up_int
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
from ratings.systems.egf.calendar import is_active, tournament_order_key
from tournaments.models import Event


def build(ctx: Context) -> Prepared:
    period = ctx.period
    window = [
        e
        for e in Event.objects.filter(
            federation=ctx.federation, end__gte=period.starts_on, end__lte=period.ends_on
        )
    ]
    window.sort(key=lambda e: tournament_order_key(e.end, e.start, e.code))
    events, excluded = split_events(ctx.federation, window)
    games_by_event = defaultdict(list)
    for game in played_games([e.id for e in events]):
        games_by_event[game[1]].append(game)
    base = base_entries(ctx.base_list)
    involved = {pid for games in games_by_event.values() for g in games for pid in g[2:4]}
    grades = dict(Player.objects.filter(id__in=involved).values_list("id", "grade"))
    ungraded = sorted(pid for pid in involved if not grades.get(pid) and pid not in base)
    tournaments, seen, labels = [], set(), {"tournaments": []}
    for event in events:
        games = games_by_event.get(event.id, [])
        pids = sorted({pid for g in games for pid in g[2:4]})
        if any(pid in ungraded for pid in pids):
            excluded.append(
                {
                    "event": event.code,
                    "name": event.name,
                    "reason": "a new player has no declared grade to start from",
                }
            )
            continue
        players = []
        for pid in pids:
            row = {"id": str(pid), "grade": grades.get(pid) or base[pid].state.get("grade")}
            entry = base.get(pid)
            if pid not in seen and entry is not None:
                # facts for the engine, which decides a reset (RULES §2.1)
                row["rating"] = entry.rating
                if entry.state.get("max_grade"):
                    row["highest_grade"] = entry.state["max_grade"]
            players.append(row)
            seen.add(pid)
        tournaments.append(
            {
                "id": event.code,
                "class": event.rating_class or "A",
                "date": event.end.isoformat(),
                "players": players,
                "games": [
                    {
                        "white": str(g[2]),
                        "black": str(g[3]),
                        "result": score_of(g[4]),
                        "handicap": g[5],
                    }
                    for g in games
                ],
            }
        )
        labels["tournaments"].append(f"event {event.code}")
        labels[f"tournaments[{len(tournaments) - 1}].games"] = [
            game_label(event.code, g[0]) for g in games
        ]
        event.rated_games = games
    rated_events = [e for e in events if hasattr(e, "rated_games")]
    engine_input = {"params": ctx.params, "tournaments": tournaments}
    return Prepared(
        engine_input,
        rated_events,
        excluded,
        extra={"grades": grades},
        base=base,
        label_source=lambda: labels,
    )


def interpret(prepared: Prepared, output: dict) -> Outcome:
    base, grades = prepared.base, prepared.extra["grades"]
    list_date = prepared.extra["list_date"]
    latest: dict[int, float] = {}
    last_date: dict[int, str] = {}
    played: dict[int, int] = defaultdict(int)
    tournaments: dict[int, int] = defaultdict(int)
    event_ratings = []
    for event, tournament in zip(prepared.events, output["tournaments"], strict=True):
        details = defaultdict(list)
        for g in event.rated_games:
            s = score_of(g[4])
            details[g[2]].append([g[0], g[3], s, "white", g[5]])
            details[g[3]].append([g[0], g[2], 1 - s, "black", g[5]])
        for row in tournament["players"]:
            pid = int(row["id"])
            latest[pid] = row["after"]
            last_date[pid] = event.end.isoformat()
            played[pid] += row["games"]
            tournaments[pid] += 1
            event_ratings.append(
                EventRatingRow(
                    event_id=event.id,
                    player_id=pid,
                    before=row["before"],
                    after=row["after"],
                    games=row["games"],
                    score=sum(d[2] for d in details[pid]),
                    details={"games": details[pid], "class": event.rating_class},
                )
            )
    entries = []
    for pid in sorted(set(base) | set(latest)):
        entry = base.get(pid)
        state = dict(entry.state) if entry else {}
        grade = grades.get(pid) or state.get("grade")
        if pid in latest:
            state.update(
                grade=grade,
                max_grade=stronger_grade(state.get("max_grade"), grade),
                last=last_date[pid],
                tournaments=state.get("tournaments", 0) + tournaments[pid],  # the EGD's NT
            )
        rating = latest.get(pid, entry.rating if entry else None)
        active = bool(state.get("last")) and is_active(
            state["grade"], date.fromisoformat(state["last"]), list_date
        )
        entries.append(
            EntryRow(
                player_id=pid,
                rating=rating,
                published_rating=half_up_int(rating),
                games=played.get(pid, 0),
                total_games=(entry.total_games if entry else 0) + played.get(pid, 0),
                listed=active,
                state=state,
            )
        )
    return Outcome(entries, event_ratings)
