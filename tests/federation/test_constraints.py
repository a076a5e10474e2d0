"""The database itself refuses rows that must never be stored (SQLite and PostgreSQL alike)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from django.db import IntegrityError, transaction

from federation.models import Federation, Official, Player
from tournaments.models import Event, Game, Problem, SolverScore, Substitution


@pytest.fixture
def world(db):
    from tests.factories import make_world

    return make_world("cc")


def _player(world, **overrides):
    fields = dict(federation=world["federation.Federation"], federation_player_id="99", surname="X")
    fields.update(overrides)
    return Player.objects.create(**fields)


def _game(world, **overrides):
    a, b, _ = world["players"]
    fields = dict(event=world["tournaments.Event"], round=1, white=a, black=b, result="1-0")
    fields.update(overrides)
    return Game.objects.create(**fields)


BAD_ROWS = {
    "self play": lambda w: _game(w, black=w["players"][0]),
    "unknown result": lambda w: _game(w, result="2-0"),
    "bye with an opponent": lambda w: _game(w, result="bye+"),
    "played game without black": lambda w: _game(w, black=None),
    "handicap above 30": lambda w: _game(w, handicap=31),
    "round zero": lambda w: _game(w, round=0),
    "duplicate federation id": lambda w: _player(w, federation_player_id="1"),
    "lower-case country": lambda w: _player(w, country="de"),
    "grade 31k": lambda w: _player(w, grade="31k"),
    "grade 10d": lambda w: _player(w, grade="10d"),
    "FIDE rating 500": lambda w: _player(w, fide_rating=500, fide_list_date=date(2026, 1, 1)),
    "FIDE rating without list date": lambda w: _player(w, fide_rating=2000),
    "score above 5": lambda w: SolverScore.objects.create(
        problem=w["tournaments.Problem"], solver=w["players"][1], points=Decimal("5.01")
    ),
    "negative score": lambda w: SolverScore.objects.create(
        problem=w["tournaments.Problem"], solver=w["players"][1], points=Decimal("-0.01")
    ),
    "second score for solver and problem": lambda w: SolverScore.objects.create(
        problem=w["tournaments.Problem"], solver=w["players"][0], points=Decimal("1")
    ),
    "problem group unknown": lambda w: Problem.objects.create(
        event=w["tournaments.Event"], round=1, number=2, group="tenmover", original=True
    ),
    "problem neither original nor published": lambda w: Problem.objects.create(
        event=w["tournaments.Event"], round=1, number=3, group="helpmate", original=False
    ),
    "duplicate problem number": lambda w: Problem.objects.create(
        event=w["tournaments.Event"], round=1, number=1, group="helpmate", original=True
    ),
    "event ends before it starts": lambda w: Event.objects.create(
        federation=w["federation.Federation"],
        name="x",
        code="X",
        kind="individual",
        start=date(2026, 2, 1),
        end=date(2026, 1, 1),
    ),
    "unknown event status": lambda w: Event.objects.create(
        federation=w["federation.Federation"],
        name="x",
        code="X",
        kind="individual",
        start=date(2026, 1, 1),
        end=date(2026, 1, 1),
        status="approved",
    ),
    "duplicate event code": lambda w: Event.objects.create(
        federation=w["federation.Federation"],
        name="x",
        code=w["tournaments.Event"].code,
        kind="individual",
        start=date(2026, 1, 1),
        end=date(2026, 1, 1),
    ),
    "KT above 4": lambda w: Event.objects.create(
        federation=w["federation.Federation"],
        name="x",
        code="KT",
        kind="solving",
        start=date(2026, 1, 1),
        end=date(2026, 1, 1),
        kt=Decimal("4.5"),
    ),
    "second substitution on one side": lambda w: Substitution.objects.create(
        game=w["tournaments.Game"], side="white", replaces=w["players"][1]
    ),
    "unknown rating system": lambda w: Federation.objects.create(
        code="zz", name="z", system="glicko9"
    ),
    "duplicate official role": lambda w: Official.objects.create(
        user=w["user"], federation=w["federation.Federation"], role="rating_officer"
    ),
}


@pytest.mark.parametrize("case", sorted(BAD_ROWS))
def test_database_rejects_bad_row(world, case):
    with pytest.raises(IntegrityError), transaction.atomic():
        BAD_ROWS[case](world)


def test_good_rows_are_accepted(world):
    """The same builders with valid values succeed, so the rejections above are specific."""
    _game(world, result="bye+", black=None)
    _game(world, handicap=9, round=2)
    _player(world, country="FR", grade="30k")
    _player(
        world,
        federation_player_id="98",
        grade="9p",
        fide_rating=2100,
        fide_list_date=date(2026, 1, 1),
    )
    SolverScore.objects.create(
        problem=world["tournaments.Problem"], solver=world["players"][1], points=Decimal("5.00")
    )
