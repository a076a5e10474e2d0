"""Who may do what, asked of the services themselves (not of the admin): every guarded service
against every kind of actor. A refusal is NotAllowed and changes nothing, the audit log included;
what is allowed goes through and its audit row names the actor."""

from __future__ import annotations

import io
import re
from collections.abc import Callable

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.management import call_command
from django.db import transaction

from federation.duplicates import merge_players
from federation.models import AuditEvent, Federation, OfficialRole, Player
from federation.permissions import COMMAND_LINE, SCHEDULER, NotAllowed
from ratings import tasks
from ratings.models import ListStatus, RatingList, RatingRun
from ratings.services import publication, runs
from ratings.services.imports import import_player_list
from tests.factories import make_official, make_user

ROLES = [
    "superuser",
    "rating officer",
    "tournament director",
    "officer of another federation",
    "anonymous",
    "nobody",
    "command line",
    "scheduler",
]
MAY_RATE = {"superuser", "rating officer", "command line", "scheduler"}
# Merging duplicates is an official's work: tournament directors enter the players.
MAY_MERGE = MAY_RATE | {"tournament director"}


@pytest.fixture
def actors(iccf_world):
    federation = iccf_world["federation"]
    other = Federation.objects.create(code="oth", name="Other", system="iccf")
    return {
        "superuser": make_user("root", superuser=True),
        "rating officer": make_official("ro", federation),
        "tournament director": make_official(
            "td", federation, role=OfficialRole.TOURNAMENT_DIRECTOR
        ),
        "officer of another federation": make_official("stranger", other),
        "anonymous": AnonymousUser(),
        "nobody": None,
        "command line": COMMAND_LINE,
        "scheduler": SCHEDULER,
    }


def _draft(federation) -> RatingList:
    return runs.run_now(federation=federation, period_code="2026Q1", by=COMMAND_LINE).rating_list


def _chain_head(federation) -> int:
    publication.publish_list(list_id=_draft(federation).pk, by=COMMAND_LINE)
    chain = publication.rerate_from(federation=federation, period_code="2026Q1", by=COMMAND_LINE)
    return chain[0].pk


CSV = b"id;surname;given_name;country;rating\nN1;Newman;Ann;DE;\n"


def _services(world) -> dict[str, Callable]:
    """Each service, prepared up to the call: ``prepare()`` returns ``act(by)``."""
    federation = world["federation"]

    def request_run():
        return lambda by: runs.request_run(
            federation=federation, period_code="2026Q1", by=by, enqueue=False
        )

    def run_now():
        return lambda by: runs.run_now(federation=federation, period_code="2026Q1", by=by)

    def publish_list():
        draft = _draft(federation)
        return lambda by: publication.publish_list(list_id=draft.pk, by=by)

    def discard_list():
        draft = _draft(federation)
        return lambda by: publication.discard_list(list_id=draft.pk, by=by)

    def rerate_from():
        publication.publish_list(list_id=_draft(federation).pk, by=COMMAND_LINE)
        return lambda by: publication.rerate_from(
            federation=federation, period_code="2026Q1", by=by
        )

    def publish_chain():
        head = _chain_head(federation)
        return lambda by: publication.publish_chain(head_run_id=head, by=by)

    def discard_chain():
        head = _chain_head(federation)
        return lambda by: publication.discard_chain(head_run_id=head, by=by)

    def import_list():
        return lambda by: publication.import_list(
            federation=federation, period_code="2026Q1", entries=[], by=by
        )

    def import_players():
        return lambda by: import_player_list(
            federation=federation,
            source=lambda: io.BytesIO(CSV),
            filename="players.csv",
            by=by,
        )

    def merge():
        keep, duplicate = (
            Player.objects.create(federation=federation, federation_player_id=f"D{i}", surname="D")
            for i in range(2)
        )
        return lambda by: merge_players(keep=keep, duplicate=duplicate, by=by)

    return {
        "request_run": request_run,
        "run_now": run_now,
        "publish_list": publish_list,
        "discard_list": discard_list,
        "rerate_from": rerate_from,
        "publish_chain": publish_chain,
        "discard_chain": discard_chain,
        "import_list": import_list,
        "import_player_list": import_players,
        "merge_players": merge,
    }


SERVICES = list(_services({"federation": None}))


def _state():
    return (
        AuditEvent.objects.count(),
        RatingRun.objects.count(),
        sorted(RatingList.objects.values_list("pk", "status")),
        Player.objects.count(),
        Player.objects.filter(merged_into__isnull=False).count(),
    )


class _Undo(Exception):
    """Raised to roll an allowed call back, so the next role meets the same state."""


@pytest.mark.parametrize("service", SERVICES)
def test_each_service_allows_exactly_the_roles_that_may(iccf_world, actors, service):
    # One preparation per service (a run takes seconds); each role acts in a rolled-back block.
    act = _services(iccf_world)[service]()
    may = MAY_MERGE if service == "merge_players" else MAY_RATE
    outcomes = {}
    for role in ROLES:
        before = _state()
        try:
            with transaction.atomic():
                act(actors[role])
                raise _Undo
        except _Undo:
            outcomes[role] = "allowed"
        except NotAllowed as refused:
            assert re.fullmatch(
                r"Only an? (rating officer|official) of icc may [a-z -]+\.", str(refused)
            )
            assert _state() == before, f"{role} was refused {service} but something changed"
            outcomes[role] = "refused"
    assert outcomes == {role: "allowed" if role in may else "refused" for role in ROLES}


def test_the_audit_row_names_the_user_or_the_system(iccf_world, actors):
    federation = iccf_world["federation"]
    officer = actors["rating officer"]
    publication.publish_list(list_id=_draft(federation).pk, by=officer)
    event = AuditEvent.objects.filter(action="publish").latest("id")
    assert (event.actor, event.actor_name) == (officer, "ro")
    publication.discard_list(list_id=_draft(federation).pk, by=SCHEDULER)
    event = AuditEvent.objects.filter(action="discard").latest("id")
    assert (event.actor, event.actor_name) == (None, "scheduler")


def test_the_command_line_publishes_as_the_command_line(iccf_world):
    draft = _draft(iccf_world["federation"])
    call_command("publish", draft.pk, stdout=io.StringIO())
    event = AuditEvent.objects.get(action="publish", object_id=str(draft.pk))
    assert (event.actor, event.actor_name) == (None, "command line")
    assert RatingList.objects.get(pk=draft.pk).published_by is None


def test_the_worker_publishes_as_the_scheduler(iccf_world):
    draft = _draft(iccf_world["federation"])
    assert tasks.publish_list(draft.pk) == ListStatus.PUBLISHED
    event = AuditEvent.objects.get(action="publish", object_id=str(draft.pk))
    assert event.actor_name == "scheduler"
