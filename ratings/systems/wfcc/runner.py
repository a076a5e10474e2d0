"""WFCC: the tournaments counted in a quarter, each rated with the list valid at its start.

Several tournaments in one quarter all start from the list rating; the next list value is the
list rating plus the sum of the (rounded) changes (RULES §5). A solver without a full rating
collects half-ratings; two make a full rating. Solvers without a rated tournament for five
years leave the published list (kept in the database; half-ratings discarded).
"""

from __future__ import annotations

from collections import defaultdict
from datetime import date
from decimal import Decimal

from django.db.models import Count, Max

from federation.models import Player
from ratings.engines import wfcc as engine
from ratings.engines.core.rounding import half_up_int
from ratings.engines.wfcc.categories import CATEGORY_KT
from ratings.engines.wfcc.titles import NormRecord, propose_title
from ratings.engines.wfcc.types import Solver, Tournament
from ratings.models import ListStatus, RatingEntry, SolvingNorm
from ratings.persistence.run_rows import EntryRow, EventRatingRow, NormRow
from ratings.systems.common import (
    BaseEntry,
    Context,
    Outcome,
    Prepared,
    base_entries,
    lists_valid_at_start,
    split_events,
)
from ratings.systems.wfcc.calendar import has_expired, next_list_rating, period_for_tournament
from tournaments.models import Championship, Event, EventKind, Problem, SolverScore

CHAMPIONSHIPS = {Championship.WCSC, Championship.ECSC}


def _kt(event: Event) -> float:
    if event.kt is not None:
        return float(event.kt)
    return float(CATEGORY_KT.get(event.rating_class, 1))


def _start_ratings(ctx: Context, events, base: dict[int, BaseEntry]) -> dict[int, dict[int, float]]:
    """Event id → the full ratings (half-ratings left out) on the list valid when it started.
    Each list is read once, however many tournaments started under it; the list the run
    continues from, where most of a quarter's tournaments started, is the run's base."""
    list_of_event = lists_valid_at_start(ctx.federation, events)
    on_list: dict[int, dict[int, float]] = {}
    for list_id in set(list_of_event.values()):
        if ctx.base_list is not None and list_id == ctx.base_list.pk:
            rows = ((pid, entry.rating, entry.half_rating) for pid, entry in base.items())
        else:
            rows = (
                RatingEntry.objects.filter(rating_list_id=list_id)
                .order_by()
                .values_list("player_id", "rating", "half_rating")
            )
        on_list[list_id] = {pid: rating for pid, rating, half in rows if not half}
    return {event.id: on_list.get(list_of_event.get(event.id), {}) for event in events}


def _problem_counts(events) -> dict[int, dict[int, int]]:
    """Event id → round → number of problems, in one query for all the events."""
    counts: dict[int, dict[int, int]] = defaultdict(dict)
    for event_id, round_no, count in (
        Problem.objects.filter(event__in=events)
        .order_by()
        .values_list("event_id", "round")
        .annotate(count=Count("id"))
    ):
        counts[event_id][round_no] = count
    return counts


def build(ctx: Context) -> Prepared:
    period = ctx.period
    candidates = Event.objects.filter(
        federation=ctx.federation,
        kind=EventKind.SOLVING,
        end__gte=period.starts_on.replace(year=period.starts_on.year - 1),
        start__lte=period.ends_on,
    ).order_by("end", "start", "code")
    in_period = [
        e
        for e in candidates
        if period_for_tournament(e.start, e.end).counted_in.code == period.code
    ]
    events, excluded = split_events(ctx.federation, in_period)
    scores = defaultdict(lambda: defaultdict(lambda: defaultdict(Decimal)))
    times = defaultdict(lambda: defaultdict(int))
    for event_id, solver_id, round_no, points, minutes in SolverScore.objects.filter(
        problem__event__in=events
    ).values_list(
        "problem__event_id", "solver_id", "problem__round", "points", "time_used_minutes"
    ):
        scores[event_id][solver_id][round_no] += points
        times[event_id][solver_id] += minutes or 0
    problem_counts = _problem_counts(events)
    base = base_entries(ctx.base_list)
    start_lists = _start_ratings(ctx, events, base)
    solver_ids = {pid for per_event in scores.values() for pid in per_event}
    countries = dict(Player.objects.filter(id__in=solver_ids).values_list("id", "country"))
    tournaments = []
    for event in events:
        rounds = sorted(problem_counts[event.id])
        solvers = tuple(
            Solver(
                id=str(pid),
                rounds=tuple(float(per_round.get(r, 0)) for r in rounds),
                rating=start_lists[event.id].get(pid),
                time=float(times[event.id][pid]),
                country=countries.get(pid) or None,
            )
            for pid, per_round in sorted(scores[event.id].items())
        )
        tournaments.append(
            Tournament(
                id=event.code,
                kt=_kt(event),
                solvers=solvers,
                multi_location=event.multi_location,
                problems=tuple(problem_counts[event.id][r] for r in rounds),
            )
        )
    engine_input = {
        "params": ctx.params,
        # solvers without a full rating bring their half-ratings; the engine carries them on
        "half_ratings": {
            str(pid): list(entry.state.get("half_ratings", []))
            for pid, entry in sorted(base.items())
            if entry.half_rating
        },
        "tournaments": [engine.tournament_to_json(t) for t in tournaments],
    }
    labels = {"tournaments": [f"event {t.id}" for t in tournaments]}
    for index, t in enumerate(tournaments):
        labels[f"tournaments[{index}].solvers"] = [
            f"event {t.id}, solver {s.id}" for s in t.solvers
        ]
    return Prepared(
        engine_input,
        events,
        excluded,
        extra=_title_history(ctx),
        base=base,
        label_source=lambda: labels,
    )


def _title_history(ctx: Context) -> dict:
    """Norms already earned (published runs) and each solver's best published rating."""
    earlier = defaultdict(list)
    for pid, title, at_championship in SolvingNorm.objects.filter(
        event__federation=ctx.federation, run__rating_list__status=ListStatus.PUBLISHED
    ).values_list("player_id", "title", "at_championship"):
        earlier[pid].append(NormRecord(title, at_championship))
    best = dict(
        RatingEntry.objects.filter(
            rating_list__federation=ctx.federation,
            rating_list__status=ListStatus.PUBLISHED,
            half_rating=False,
        )
        .values("player_id")
        .annotate(best=Max("published_rating"))
        .values_list("player_id", "best")
    )
    return {"earlier_norms": earlier, "best_rating": best}


def interpret(prepared: Prepared, output: dict) -> Outcome:
    base = prepared.base
    list_date = prepared.extra["list_date"]
    changes = defaultdict(list)
    list_rating: dict[int, float] = {}
    new_full: dict[int, float] = {}
    halves: dict[int, list[float]] = {}
    last_played: dict[int, str] = {}
    event_ratings, norms = [], []
    events = {event.code: event for event in prepared.events}
    for result in output["tournaments"]:
        event = events[result["id"]]
        for solver in result["solvers"]:
            pid = int(solver["id"])
            change, rating = solver.get("change"), solver.get("rating")
            last_played[pid] = event.end.isoformat()
            before = base[pid].rating if pid in base and not base[pid].half_rating else None
            if change is not None:
                changes[pid].append(change)
                start = before if before is not None else rating - change
                list_rating.setdefault(pid, start)
                after = next_list_rating(list_rating[pid], changes[pid])
            elif rating is not None:
                new_full[pid] = rating
                after = rating
            else:
                halves[pid] = list(solver.get("half_ratings") or ())
                after = sum(halves[pid]) / len(halves[pid])
            event_ratings.append(
                EventRatingRow(
                    event_id=event.id,
                    player_id=pid,
                    before=before,
                    after=after,
                    games=1,
                    score=solver["result"],
                    details={
                        "place": solver["place"],
                        "expected": solver.get("expected"),
                        "change": change,
                        "performance": solver["performance"],
                        "kt": result["kt"],
                        "slope": result["slope"],
                        "intercept": result["intercept"],
                        "sorted": result["sorted"],
                        "corrected": result["corrected"],
                        "rmas": result["rmas"],
                        "norms": list(solver["norms"]),
                    },
                )
            )
            norms.extend(
                NormRow(event.id, pid, title, event.championship in CHAMPIONSHIPS)
                for title in solver["norms"]
            )
    entries = []
    for pid in sorted(set(base) | set(changes) | set(new_full) | set(halves)):
        entry = base.get(pid)
        last = last_played.get(pid) or (entry.state.get("last") if entry else None)
        expired = last is not None and has_expired(date.fromisoformat(last), list_date)
        if pid in changes:
            rating = next_list_rating(list_rating[pid], changes[pid])
        elif pid in new_full:
            rating = new_full[pid]
        elif pid in halves:
            rating = None
        else:
            rating = entry.rating if not entry.half_rating else None
        if rating is not None:
            state = {"last": last}
            entries.append(
                EntryRow(
                    player_id=pid,
                    rating=rating,
                    published_rating=half_up_int(rating),
                    games=len(changes.get(pid, [])) + (pid in new_full),
                    listed=not expired,
                    state=state,
                )
            )
            continue
        half_list = halves.get(pid) or (entry.state.get("half_ratings", []) if entry else [])
        if expired or not half_list:
            continue  # an expired half-rating is discarded (RULES §4.2)
        average = sum(half_list) / len(half_list)
        entries.append(
            EntryRow(
                player_id=pid,
                rating=average,
                published_rating=half_up_int(average),
                half_rating=True,
                games=int(pid in halves),
                state={"last": last, "half_ratings": half_list},
            )
        )
    return Outcome(
        entries,
        event_ratings,
        norms,
        report={
            "not_rated": [
                {
                    "event": item["id"],
                    "name": events[item["id"]].name,
                    "reason": f"not rated ({item['reason']}); referred to the WFCC representative",
                }
                for item in output["not_rated"]
            ],
            "title_proposals": _title_proposals(prepared, norms, entries),
        },
    )


def _title_proposals(prepared: Prepared, norms: list[NormRow], entries: list[EntryRow]):
    """Titles (RULES §4.6) whose norms and rating are reached with this period's norms."""
    new = defaultdict(list)
    for norm in norms:
        new[norm.player_id].append(NormRecord(norm.title, norm.at_championship))
    current = {e.player_id: e.published_rating for e in entries if not e.half_rating}
    proposals = []
    for pid, records in sorted(new.items()):
        best = max(prepared.extra["best_rating"].get(pid, 0), current.get(pid, 0))
        proposal = propose_title([*prepared.extra["earlier_norms"].get(pid, []), *records], best)
        if proposal.title:
            proposals.append({"player_id": pid, "title": proposal.title, "reason": proposal.reason})
    return proposals
