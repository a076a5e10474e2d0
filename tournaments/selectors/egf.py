"""EGF's acceptability facts (tournaments.acceptability.egf) from an event: its time control and
class. EGF reads no rows beside the event."""

from __future__ import annotations

from fractions import Fraction

from ratings.engines.core.errors import EngineInputError
from tournaments.acceptability import egf as rules
from tournaments.acceptability.types import RuleResult
from tournaments.models import Event, TimeSystem
from tournaments.selectors.common import missing


def rows(events: list[Event]) -> dict[int, object]:
    return {}


def _time_control(event: Event) -> rules.EgfTimeControl:
    if event.basic_time_minutes is None:
        raise missing("basic_time_minutes", "the basic time")
    system = event.time_system
    if system == TimeSystem.SUDDEN_DEATH:
        return rules.EgfTimeControl("sudden_death", event.basic_time_minutes)
    if system == TimeSystem.BYOYOMI:
        if event.overtime_seconds is None:
            raise missing("overtime_seconds", "the byo-yomi time per move")
        return rules.EgfTimeControl(
            "byoyomi", event.basic_time_minutes, byoyomi_seconds=event.overtime_seconds
        )
    if system == TimeSystem.CANADIAN:
        if event.overtime_seconds is None or not event.overtime_moves:
            raise missing("overtime_seconds", "the Canadian period (seconds and stones)")
        return rules.EgfTimeControl(
            "canadian",
            event.basic_time_minutes,
            canadian_minutes=Fraction(event.overtime_seconds, 60),
            canadian_stones=event.overtime_moves,
        )
    if system == TimeSystem.FISCHER:
        if event.fischer_bonus_seconds is None:
            raise missing("fischer_bonus_seconds", "the Fischer bonus")
        return rules.EgfTimeControl(
            "fischer", event.basic_time_minutes, fischer_bonus_seconds=event.fischer_bonus_seconds
        )
    raise missing("time_system", "the time system")


def facts(event: Event, _rows, attestations) -> rules.EgfEventFacts:
    declared = event.rating_class or None
    if declared is not None and declared not in rules.CLASSES:
        raise EngineInputError("rating_class", f"{declared} is not an EGF class (A, B, C, D)")
    return rules.EgfEventFacts(event.start, event.end, declared, _time_control(event), attestations)


def class_verdict(event: Event) -> RuleResult:
    """The EGF class rule for an event's time control and class (saved or not); raises
    EngineInputError naming the first time-control field it lacks."""
    return rules.class_rule(facts(event, None, frozenset()))
