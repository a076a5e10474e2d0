"""The federation dashboard on the admin index: what waits for an official, in flow order
(events awaiting acceptance and their failing rules, periods needing a re-run and why, drafts
awaiting publication, the next list due)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from django.utils import timezone

from federation.models import Federation
from federation.permissions import visible_federations
from ratings import calendars
from ratings.models import ListStatus, RatingList, RatingPeriod
from ratings.services.runs import calendar_of
from tournaments.acceptability_report import reports_for
from tournaments.models import Event, EventStatus

SHOWN = 20


@dataclass(frozen=True)
class AwaitingEvent:
    event: Event
    summary: str  # the verdict and the failing rules


@dataclass(frozen=True)
class NextList:
    code: str
    valid_from: date
    due_on: date


@dataclass
class FederationBoard:
    federation: Federation
    awaiting: list[AwaitingEvent] = field(default_factory=list)
    reruns: list[RatingPeriod] = field(default_factory=list)
    drafts: list[RatingList] = field(default_factory=list)
    next_list: NextList | None = None

    @property
    def is_empty(self) -> bool:
        return not (self.awaiting or self.reruns or self.drafts)


def _next_list(federation: Federation) -> NextList | None:
    newest = (
        RatingPeriod.objects.filter(federation=federation, lists__status=ListStatus.PUBLISHED)
        .order_by("-valid_from")
        .first()
    )
    if newest is None:
        return None
    params = calendar_of(federation)
    following = calendars.next_period(
        calendars.period_by_code(federation.system, newest.code, params=params), params=params
    )
    return NextList(following.code, following.valid_from, following.due_on)


def boards_for(user, today: date | None = None) -> list[FederationBoard]:
    today = today or timezone.localdate()
    boards = []
    for federation in visible_federations(user).order_by("code"):
        submitted = list(
            Event.objects.filter(federation=federation, status=EventStatus.SUBMITTED).order_by(
                "end", "code"
            )[:SHOWN]
        )
        reports = reports_for(submitted, today=today)
        boards.append(
            FederationBoard(
                federation,
                [AwaitingEvent(e, reports[e.pk].summary()) for e in submitted],
                list(
                    RatingPeriod.objects.filter(federation=federation, needs_rerun=True).order_by(
                        "valid_from"
                    )[:SHOWN]
                ),
                list(
                    RatingList.objects.filter(federation=federation, status=ListStatus.DRAFT)
                    .select_related("period")
                    .order_by("period__valid_from")[:SHOWN]
                ),
                _next_list(federation),
            )
        )
    return boards
