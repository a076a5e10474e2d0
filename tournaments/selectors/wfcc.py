"""WFCC's acceptability facts (tournaments.acceptability.wfcc) from an event, its problems,
solvers' scores and the solvers' full ratings at its start."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from tournaments import ports
from tournaments.acceptability import wfcc as rules
from tournaments.models import Championship, Event, Problem, SolverScore
from tournaments.selectors.common import missing

CHAMPIONSHIP = {
    Championship.WCSC: "WCSC",
    Championship.ECSC: "ECSC",
    Championship.WCSC_TYPE: "WCSC_TYPE_NORMS",
    Championship.WCCC_OPEN: "WCCC_OPEN",
    Championship.ECSC_OPEN: "ECSC_OPEN",
}


@dataclass
class _WfccRows:
    problems: list[rules.ProblemFacts]
    fairy_dates: list[date | None]
    solvers: dict[int, str]  # player id -> country
    scores: list[rules.ScoreFacts]
    full_ratings: dict[int, int]  # player id -> full rating on the list valid at the start


def rows(events: list[Event]) -> dict[int, _WfccRows]:
    ids = [e.pk for e in events]
    out = {e.pk: _WfccRows([], [], {}, [], {}) for e in events}
    problems = (
        Problem.objects.filter(event_id__in=ids)
        .order_by("event_id", "round", "number")
        .values_list(
            "event_id",
            "round",
            "number",
            "group",
            "original",
            "first_published_on",
            "max_points",
            "fairy_elements_announced_on",
        )
    )
    for event_id, rnd, number, group, original, published, max_points, fairy_on in problems:
        rows = out[event_id]
        rows.problems.append(
            rules.ProblemFacts(
                rnd,
                number,
                group,
                original,
                None if original or published is None else published.year,
                max_points,
            )
        )
        if group == "fairy":
            rows.fairy_dates.append(fairy_on)
    scores = (
        SolverScore.objects.filter(problem__event_id__in=ids)
        .order_by("problem__event_id", "problem__round", "problem__number", "solver_id")
        .values_list(
            "problem__event_id",
            "solver_id",
            "solver__country",
            "problem__round",
            "problem__number",
            "points",
        )
    )
    for event_id, solver, country, rnd, number, points in scores:
        rows = out[event_id]
        rows.solvers.setdefault(solver, country)
        rows.scores.append(rules.ScoreFacts(solver, rnd, number, points))
    solvers = {e.pk: out[e.pk].solvers for e in events}
    for event_id, ratings in ports.full_ratings_at_start(events, solvers).items():
        out[event_id].full_ratings = ratings
    return out


def rounds(event: Event) -> tuple[rules.RoundFacts, ...]:
    """Rounds 1..N spread over the declared days in order (the model stores counts, not dates).

    Round r is held on day 1 + floor((r - 1) x days / rounds): 2 rounds on 1 day are both on the
    start, 2 rounds on 2 days one each. Declaring more days than the event spans puts a round after
    the end, which R8 reports.
    """
    if not event.rounds:
        return ()
    days = event.days or 1
    return tuple(
        rules.RoundFacts(r, event.start + timedelta(days=(r - 1) * days // event.rounds))
        for r in range(1, event.rounds + 1)
    )


def _fairy_announced_on(event: Event, fairy_dates: list[date | None]) -> date | None:
    """When the fairy elements of all fairy problems were announced: the latest date, taking the
    event's date for problems without their own; None while any is unknown."""
    dates = [d or event.fairy_announced_on for d in fairy_dates]
    if not dates:
        return event.fairy_announced_on
    return None if any(d is None for d in dates) else max(dates)


def facts(event: Event, rows: _WfccRows | None, attestations) -> rules.WfccEventFacts:
    rows = rows or _WfccRows([], [], {}, [], {})
    if event.solving_rules not in ("W", "O"):
        raise missing("solving_rules", "whether the WCSC rules apply (solving rules W or O)")
    solvers = tuple(
        rules.SolverFacts(pid, country, rows.full_ratings.get(pid))
        for pid, country in sorted(rows.solvers.items())
    )
    return rules.WfccEventFacts(
        start=event.start,
        end=event.end,
        rules=event.solving_rules,
        announced_on=event.announced_on,
        documentation_sent_on=event.documentation_sent_on,
        fairy_announced_on=_fairy_announced_on(event, rows.fairy_dates),
        multi_location=event.multi_location,
        championship=CHAMPIONSHIP.get(event.championship),
        rounds=rounds(event),
        problems=tuple(rows.problems),
        solvers=solvers,
        scores=tuple(rows.scores),
        attestations=attestations,
    )
