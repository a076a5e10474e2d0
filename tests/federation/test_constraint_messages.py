"""Plain words (issue 13 item 5): every database constraint carries a message written for an
official and names the field it concerns; forms show that message on that field."""

from __future__ import annotations

from datetime import date

import pytest
from django.apps import apps
from django.db.models import BaseConstraint
from django.forms import modelform_factory

from federation.constraint_errors import ConstraintErrorsOnFields
from tests.factories import make_player, make_world
from tournaments.models import Event, Game

APPS = ("federation", "tournaments", "ratings")
CONSTRAINTS = [
    (model, constraint)
    for model in apps.get_models()
    if model._meta.app_label in APPS
    for constraint in model._meta.constraints
]


def test_the_enumeration_sees_the_constraints():
    assert len(CONSTRAINTS) >= 40


@pytest.mark.parametrize(
    ("model", "constraint"), CONSTRAINTS, ids=[c.name for _m, c in CONSTRAINTS]
)
def test_every_constraint_has_a_message_for_officials_on_its_field(model, constraint):
    message = str(constraint.violation_error_message)
    assert message != str(BaseConstraint.default_violation_error_message), "no message"
    assert constraint.name not in message and "_" not in message and "%(" not in message
    assert message[0].isupper() and message.endswith(".")
    fields = {f.name for f in model._meta.concrete_fields}
    assert constraint.violation_error_code in fields, "the code names the field it concerns"
    assert issubclass(model, ConstraintErrorsOnFields)


@pytest.mark.django_db
def test_a_bye_with_an_opponent_is_refused_on_the_black_field():
    world = make_world("cm1")
    other = make_player(world["federation.Federation"], "x2", "Other")
    form = modelform_factory(Game, fields=["event", "round", "white", "black", "result"])(
        {
            "event": world["tournaments.Event"].pk,
            "round": 1,
            "white": world["federation.Player"].pk,
            "black": other.pk,
            "result": "bye+",
        }
    )
    assert not form.is_valid()
    assert form.errors["black"] == [
        "A free round (bye) has no opponent and a game needs one: leave Black empty only with "
        "a bye result."
    ]
    assert "game_bye_has_no_opponent" not in str(form.errors)


@pytest.mark.django_db
def test_an_event_ending_before_it_starts_is_refused_on_the_end_field():
    world = make_world("cm2")
    form = modelform_factory(Event, fields=["federation", "name", "code", "kind", "start", "end"])(
        {
            "federation": world["federation.Federation"].pk,
            "name": "Open",
            "code": "O1",
            "kind": "individual",
            "start": date(2026, 5, 2),
            "end": date(2026, 5, 1),
        }
    )
    assert not form.is_valid()
    assert form.errors["end"] == [
        "The event cannot end before it starts: check the start and end dates."
    ]
    assert "__all__" not in form.errors
