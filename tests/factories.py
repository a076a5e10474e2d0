"""One of everything in one federation, for scoping and constraint tests."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from django.contrib.auth import get_user_model

from federation.models import AuditEvent, Federation, FideList, Official, OfficialRole, Player
from tournaments.models import (
    AcceptanceOverride,
    Attestation,
    Event,
    EventKind,
    Game,
    Placement,
    Problem,
    Result,
    SolverScore,
    Substitution,
    Team,
    TeamMember,
)


def make_user(username: str, *, superuser: bool = False, staff: bool = True):
    User = get_user_model()
    user = User.objects.create_user(
        username=username, password="pw-" + username, is_staff=staff, is_superuser=superuser
    )
    return user


def make_official(username: str, federation: Federation, role: str = OfficialRole.RATING_OFFICER):
    user = make_user(username)
    Official.objects.create(user=user, federation=federation, role=role)
    return user


def make_player(federation: Federation, fid: str, surname: str = "Player", **extra) -> Player:
    return Player.objects.create(
        federation=federation,
        federation_player_id=fid,
        surname=surname,
        given_name="Test",
        country="DE",
        **extra,
    )


def make_event(federation: Federation, code: str, kind: str = EventKind.INDIVIDUAL) -> Event:
    """The federation's open event of early 2026 (code ``<code>-OPEN``)."""
    return Event.objects.create(
        federation=federation,
        name=f"Open {code}",
        code=f"{code}-OPEN",
        kind=kind,
        start=date(2026, 1, 1),
        end=date(2026, 3, 1),
    )


def make_world(code: str, system: str = "iccf") -> dict:
    """A federation with one row of every scoped model, keyed by model label."""
    federation = Federation.objects.create(code=code, name=f"Federation {code}", system=system)
    official = make_official(f"{code}-official", federation)
    a = make_player(federation, "1", f"Alpha{code}")
    b = make_player(federation, "2", f"Bravo{code}")
    c = make_player(federation, "3", f"Charlie{code}")
    event = make_event(federation, code, EventKind.TEAM)
    game = Game.objects.create(event=event, round=1, white=a, black=b, result=Result.WHITE_WINS)
    team = Team.objects.create(event=event, name=f"Team {code}")
    member = TeamMember.objects.create(team=team, player=c, board=1)
    substitution = Substitution.objects.create(game=game, side="white", replaces=c)
    problem = Problem.objects.create(
        event=event, round=1, number=1, group="twomover", original=True
    )
    placement = Placement.objects.create(event=event, player=b, place=1)
    score = SolverScore.objects.create(problem=problem, solver=a, points=Decimal("5.00"))
    attestation = Attestation.objects.create(event=event, rule_id="WFCC-R12", by=official)
    override = AcceptanceOverride.objects.create(
        event=event, rule_ids=["WFCC-R4"], reason="test", by=official
    )
    audit = AuditEvent.objects.create(
        federation=federation,
        actor=official,
        action="create",
        object_type="federation.Player",
        object_id=str(a.pk),
        object_repr=str(a),
    )
    fide_list = FideList.objects.create(
        federation=federation, valid_from=date(2026, 1, 1), row_count=0, digest="-"
    )
    world = {
        "federation.FideList": fide_list,
        "federation.Federation": federation,
        "federation.Player": a,
        "federation.Official": Official.objects.get(user=official),
        "federation.AuditEvent": audit,
        "tournaments.Event": event,
        "tournaments.Game": game,
        "tournaments.Team": team,
        "tournaments.TeamMember": member,
        "tournaments.Substitution": substitution,
        "tournaments.Problem": problem,
        "tournaments.SolverScore": score,
        "tournaments.Placement": placement,
        "tournaments.Attestation": attestation,
        "tournaments.AcceptanceOverride": override,
        "user": official,
        "players": [a, b, c],
    }
    from tests.rating_factories import add_rating_rows

    world.update(add_rating_rows(world))
    return world
