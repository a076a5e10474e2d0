"""Reads for the acceptability rules: the pure facts dataclasses built from events and their rows.

``facts_for_events`` turns any number of events into the facts of their federation's rules in a
constant number of queries (one per kind of row, whatever the number of events or games), so the
change page, the changelist column and filter, the command and the rating services all see the
same facts. A fact the database cannot provide (no transmission, no time system, ...) becomes an
``EngineInputError``, which the report shows as a ``<SYSTEM>-DATA`` failure.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from fractions import Fraction

from ratings.engines.core.errors import EngineInputError
from tournaments import ports
from tournaments.acceptability import egf, iccf, playchess, wfcc
from tournaments.acceptability.types import RuleResult
from tournaments.models import (
    AcceptanceOverride,
    Attestation,
    Championship,
    Event,
    EventStatus,
    Game,
    Problem,
    Result,
    SolverScore,
    TimeSystem,
    Transmission,
)

RATEABLE_STATUSES = (EventStatus.ACCEPTED, EventStatus.RATED)

# Results that are no game to rate (the players did not play it): left out of the PlayChess facts.
NOT_PLAYED = {
    Result.WHITE_WINS_BY_DEFAULT,
    Result.BLACK_WINS_BY_DEFAULT,
    Result.DOUBLE_FORFEIT,
    Result.BOTH_WIN,
    Result.BOTH_LOSE,
}
PLAYCHESS_RESULT = {Result.WHITE_WINS: "1-0", Result.BLACK_WINS: "0-1", Result.DRAW: "1/2-1/2"}
CHAMPIONSHIP = {
    Championship.WCSC: "WCSC",
    Championship.ECSC: "ECSC",
    Championship.WCSC_TYPE: "WCSC_TYPE_NORMS",
    Championship.WCCC_OPEN: "WCCC_OPEN",
    Championship.ECSC_OPEN: "ECSC_OPEN",
}


@dataclass(frozen=True)
class RecordedAttestation:
    rule_id: str
    by: str
    at: object  # aware datetime
    note: str


@dataclass(frozen=True)
class RecordedOverride:
    rule_ids: tuple[str, ...]
    reason: str
    by: str
    at: object


@dataclass(frozen=True)
class EventFacts:
    """One event's facts for its system's rules, or why they could not be built."""

    event: Event
    system: str
    facts: object | None  # the system's *EventFacts; None when ``error`` says what is missing
    error: EngineInputError | None
    attestations: tuple[RecordedAttestation, ...]
    overrides: tuple[RecordedOverride, ...]


def _system(event: Event) -> str:
    return event.federation.system


def facts_for_events(events: Iterable[Event]) -> dict[int, EventFacts]:
    """Facts of every event, keyed by event id, in a constant number of queries."""
    events = list(events)
    by_system: dict[str, list[Event]] = defaultdict(list)
    for event in events:
        by_system[_system(event)].append(event)
    ids = [e.pk for e in events]
    attestations = _attestations(ids)
    overrides = _overrides(ids)
    rows: dict[int, object] = {}
    if by_system.get("iccf"):
        rows.update(_iccf_rows([e.pk for e in by_system["iccf"]]))
    if by_system.get("playchess"):
        rows.update(_playchess_rows([e.pk for e in by_system["playchess"]]))
    if by_system.get("wfcc"):
        rows.update(_wfcc_rows(by_system["wfcc"]))
    builders = {
        "iccf": _iccf_facts,
        "egf": _egf_facts,
        "playchess": _playchess_facts,
        "wfcc": _wfcc_facts,
    }
    out: dict[int, EventFacts] = {}
    for event in events:
        system = _system(event)
        recorded = attestations.get(event.pk, ())
        keys = frozenset(a.rule_id for a in recorded)
        facts, error = None, None
        try:
            facts = builders[system](event, rows.get(event.pk), keys)
        except EngineInputError as exc:
            error = exc
        out[event.pk] = EventFacts(
            event, system, facts, error, tuple(recorded), tuple(overrides.get(event.pk, ()))
        )
    return out


def event_facts(event: Event) -> EventFacts:
    return facts_for_events([event])[event.pk]


# --- shared rows ---------------------------------------------------------------------------------


def _user_name(user) -> str:
    return user.get_full_name() or user.get_username()


def _attestations(ids: Sequence[int]) -> dict[int, list[RecordedAttestation]]:
    out: dict[int, list[RecordedAttestation]] = defaultdict(list)
    for a in Attestation.objects.filter(event_id__in=ids).select_related("by").order_by("at"):
        out[a.event_id].append(RecordedAttestation(a.rule_id, _user_name(a.by), a.at, a.note))
    return out


def _overrides(ids: Sequence[int]) -> dict[int, list[RecordedOverride]]:
    out: dict[int, list[RecordedOverride]] = defaultdict(list)
    rows = AcceptanceOverride.objects.filter(event_id__in=ids).select_related("by").order_by("at")
    for o in rows:
        out[o.event_id].append(
            RecordedOverride(tuple(o.rule_ids or ()), o.reason, _user_name(o.by), o.at)
        )
    return out


def _missing(field: str, what: str) -> EngineInputError:
    return EngineInputError(field, f"{what} is not recorded on the event")


# --- ICCF ----------------------------------------------------------------------------------------

_TRANSMISSION = {
    Transmission.POSTAL_WEBSERVER: ("postal", True),
    Transmission.POSTAL_OFF: ("postal", False),
    Transmission.ELECTRONIC: ("electronic", None),
}


def _iccf_rows(ids: list[int]) -> dict[int, list[iccf.IccfGameFacts]]:
    out: dict[int, list[iccf.IccfGameFacts]] = defaultdict(list)
    rows = (
        Game.objects.filter(event_id__in=ids)
        .order_by("event_id", "round", "id")
        .values_list("event_id", "id", "finished_on", "reported_on")
    )
    for event_id, game_id, finished, reported in rows:
        # No separate finish date: the report date stands for it (as in ratings.calendars).
        if reported is not None and finished is None:
            finished = reported
        out[event_id].append(iccf.IccfGameFacts(game_id, finished, reported))
    return out


def _iccf_facts(event: Event, games, attestations) -> iccf.IccfEventFacts:
    if event.transmission not in _TRANSMISSION:
        raise _missing("transmission", "the transmission (postal or electronic)")
    if not event.reflection_days or not event.reflection_moves:
        raise _missing("reflection_days", "the reflection time (days per number of moves)")
    transmission, on_webserver = _TRANSMISSION[event.transmission]
    control = iccf.IccfTimeControl(
        block_moves=event.reflection_moves, days_per_block=event.reflection_days
    )
    return iccf.IccfEventFacts(transmission, control, on_webserver, tuple(games or ()))


# --- EGF -----------------------------------------------------------------------------------------


def _egf_time_control(event: Event) -> egf.EgfTimeControl:
    if event.basic_time_minutes is None:
        raise _missing("basic_time_minutes", "the basic time")
    system = event.time_system
    if system == TimeSystem.SUDDEN_DEATH:
        return egf.EgfTimeControl("sudden_death", event.basic_time_minutes)
    if system == TimeSystem.BYOYOMI:
        if event.overtime_seconds is None:
            raise _missing("overtime_seconds", "the byo-yomi time per move")
        return egf.EgfTimeControl(
            "byoyomi", event.basic_time_minutes, byoyomi_seconds=event.overtime_seconds
        )
    if system == TimeSystem.CANADIAN:
        if event.overtime_seconds is None or not event.overtime_moves:
            raise _missing("overtime_seconds", "the Canadian period (seconds and stones)")
        return egf.EgfTimeControl(
            "canadian",
            event.basic_time_minutes,
            canadian_minutes=Fraction(event.overtime_seconds, 60),
            canadian_stones=event.overtime_moves,
        )
    if system == TimeSystem.FISCHER:
        if event.fischer_bonus_seconds is None:
            raise _missing("fischer_bonus_seconds", "the Fischer bonus")
        return egf.EgfTimeControl(
            "fischer", event.basic_time_minutes, fischer_bonus_seconds=event.fischer_bonus_seconds
        )
    raise _missing("time_system", "the time system")


def _egf_facts(event: Event, _rows, attestations) -> egf.EgfEventFacts:
    declared = event.rating_class or None
    if declared is not None and declared not in egf.CLASSES:
        raise EngineInputError("rating_class", f"{declared} is not an EGF class (A, B, C, D)")
    return egf.EgfEventFacts(
        event.start, event.end, declared, _egf_time_control(event), attestations
    )


def egf_class_verdict(event: Event) -> RuleResult:
    """The EGF class rule for an event's time control and class (saved or not); raises
    EngineInputError naming the first time-control field it lacks."""
    return egf.class_rule(_egf_facts(event, None, frozenset()))


# --- PlayChess -----------------------------------------------------------------------------------


def _playchess_rows(ids: list[int]) -> dict[int, list[playchess.PlaychessGameFacts]]:
    out: dict[int, list[playchess.PlaychessGameFacts]] = defaultdict(list)
    rows = (
        Game.objects.filter(event_id__in=ids, black__isnull=False)
        .exclude(result__in=NOT_PLAYED)
        .order_by("event_id", "round", "id")
        .values_list("event_id", "id", "white_id", "black_id", "result")
    )
    for event_id, game_id, white, black, result in rows:
        # Every Player row is a registered, rated account (guests never enter the database).
        out[event_id].append(
            playchess.PlaychessGameFacts(
                game_id, white, black, PLAYCHESS_RESULT.get(result, result)
            )
        )
    return out


def _playchess_facts(event: Event, games, attestations) -> playchess.PlaychessEventFacts:
    return playchess.PlaychessEventFacts(tuple(games or ()))


# --- WFCC ----------------------------------------------------------------------------------------


@dataclass
class _WfccRows:
    problems: list[wfcc.ProblemFacts]
    fairy_dates: list[date | None]
    solvers: dict[int, str]  # player id -> country
    scores: list[wfcc.ScoreFacts]
    full_ratings: dict[int, int]  # player id -> full rating on the list valid at the start


def _wfcc_rows(events: list[Event]) -> dict[int, _WfccRows]:
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
            wfcc.ProblemFacts(
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
        rows.scores.append(wfcc.ScoreFacts(solver, rnd, number, points))
    solvers = {e.pk: out[e.pk].solvers for e in events}
    for event_id, ratings in ports.full_ratings_at_start(events, solvers).items():
        out[event_id].full_ratings = ratings
    return out


def wfcc_rounds(event: Event) -> tuple[wfcc.RoundFacts, ...]:
    """Rounds 1..N spread over the declared days in order (the model stores counts, not dates).

    Round r is held on day 1 + floor((r - 1) x days / rounds): 2 rounds on 1 day are both on the
    start, 2 rounds on 2 days one each. Declaring more days than the event spans puts a round after
    the end, which R8 reports.
    """
    if not event.rounds:
        return ()
    days = event.days or 1
    return tuple(
        wfcc.RoundFacts(r, event.start + timedelta(days=(r - 1) * days // event.rounds))
        for r in range(1, event.rounds + 1)
    )


def _fairy_announced_on(event: Event, fairy_dates: list[date | None]) -> date | None:
    """When the fairy elements of all fairy problems were announced: the latest date, taking the
    event's date for problems without their own; None while any is unknown."""
    dates = [d or event.fairy_announced_on for d in fairy_dates]
    if not dates:
        return event.fairy_announced_on
    return None if any(d is None for d in dates) else max(dates)


def _wfcc_facts(event: Event, rows: _WfccRows | None, attestations) -> wfcc.WfccEventFacts:
    rows = rows or _WfccRows([], [], {}, [], {})
    if event.solving_rules not in ("W", "O"):
        raise _missing("solving_rules", "whether the WCSC rules apply (solving rules W or O)")
    solvers = tuple(
        wfcc.SolverFacts(pid, country, rows.full_ratings.get(pid))
        for pid, country in sorted(rows.solvers.items())
    )
    return wfcc.WfccEventFacts(
        start=event.start,
        end=event.end,
        rules=event.solving_rules,
        announced_on=event.announced_on,
        documentation_sent_on=event.documentation_sent_on,
        fairy_announced_on=_fairy_announced_on(event, rows.fairy_dates),
        multi_location=event.multi_location,
        championship=CHAMPIONSHIP.get(event.championship),
        rounds=wfcc_rounds(event),
        problems=tuple(rows.problems),
        solvers=solvers,
        scores=tuple(rows.scores),
        attestations=attestations,
    )


__all__ = [
    "EventFacts",
    "RATEABLE_STATUSES",
    "event_facts",
    "facts_for_events",
    "wfcc_rounds",
]
