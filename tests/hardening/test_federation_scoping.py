"""Every row that joins a player to an event (or to a list, run or period) belongs to one
federation: the database refuses anything else (INSERT and UPDATE triggers, PostgreSQL and
SQLite), and so does the model validation the admin and services run.

The class is enumerated: every model with a foreign key to Player must be registered in
federation.scoping.SCOPED_ROWS with each of those keys as a side; then for every registered
model and every side, a row whose side points into another federation is refused by a raw
UPDATE, by an INSERT and by check_one_federation. The audit's reproduction (a user with roles
in two federations putting B's player into A's TeamMember, SolverScore, Substitution) is three
of those cases.
"""

from __future__ import annotations

import pytest
from django.apps import apps
from django.core.exceptions import ValidationError
from django.db import DatabaseError, IntegrityError, transaction

from federation.models import Player
from federation.scoping import MOVE_MESSAGE, SCOPE_MESSAGE, SCOPED_ROWS, check_one_federation
from tests.factories import make_player, make_world
from tournaments.models import BYE_RESULTS

pytestmark = pytest.mark.django_db
CASES = [(row.model, side.field) for row in SCOPED_ROWS for side in row.sides]


def _model(label):
    return apps.get_model(label)


def test_every_model_joining_a_player_is_registered_with_every_player_key():
    registered = {row.model: {side.field for side in row.sides} for row in SCOPED_ROWS}
    found = {}
    for model in apps.get_models():
        keys = {
            f.name
            for f in model._meta.get_fields()
            if f.is_relation and f.many_to_one and f.related_model is Player
        }
        if keys and model is not Player:
            found[model._meta.label] = keys
    assert set(found) <= set(registered), f"not registered: {set(found) - set(registered)}"
    for label, keys in found.items():
        assert keys <= registered[label], f"{label}: unregistered player keys"
    assert len(found) >= 7


@pytest.fixture
def worlds(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # speed
    return make_world("aa"), make_world("bb")


def _stored_values(row) -> dict:
    """The row's column values but its primary key: the same row, to insert anew."""
    return {
        f.attname: getattr(row, f.attname) for f in row._meta.concrete_fields if not f.primary_key
    }


def _refused(error: Exception, message: str) -> bool:
    return message in str(error)


@pytest.mark.parametrize(("label", "field"), CASES)
def test_database_refuses_a_side_in_another_federation(worlds, label, field):
    ours, theirs = worlds
    model = _model(label)
    row = ours[label]
    foreign = theirs[model._meta.get_field(field).related_model._meta.label]
    attname = model._meta.get_field(field).attname
    with pytest.raises((IntegrityError, DatabaseError)) as refused, transaction.atomic():
        model.objects.filter(pk=row.pk).update(**{attname: foreign.pk})
    assert _refused(refused.value, SCOPE_MESSAGE), refused.value
    # The same row inserted anew (the trigger runs before any unique key is checked).
    values = _stored_values(row)
    with pytest.raises((IntegrityError, DatabaseError)) as refused, transaction.atomic():
        model.objects.bulk_create([model(**{**values, attname: foreign.pk})])
    assert _refused(refused.value, SCOPE_MESSAGE), refused.value
    assert model.objects.filter(pk=row.pk).exists()


NULLABLE_SIDES = [
    (row.model, side.field)
    for row in SCOPED_ROWS
    for side in row.sides[1:]
    if apps.get_model(row.model)._meta.get_field(side.field).null
]


# What else a row needs for the side to be unset (its own check constraints).
WHEN_UNSET = {("tournaments.Game", "black"): {"result": BYE_RESULTS[0]}}


def test_some_side_may_be_unset():
    assert ("tournaments.Game", "black") in NULLABLE_SIDES  # a bye: the list is not empty


@pytest.mark.parametrize(("label", "field"), NULLABLE_SIDES)
def test_database_takes_a_row_whose_optional_side_is_unset(worlds, label, field):
    """An unset side is of no federation: the triggers' comparison with it is NULL, never a
    refusal (they do not look it up twice to say so)."""
    ours, _ = worlds
    model = _model(label)
    row = ours[label]
    attname = model._meta.get_field(field).attname
    unset = {attname: None, **WHEN_UNSET.get((label, field), {})}
    model.objects.filter(pk=row.pk).update(**unset)
    values = _stored_values(row)
    (copy,) = model.objects.bulk_create([model(**{**values, **unset})])
    assert model.objects.filter(pk__in=[row.pk, copy.pk], **{attname: None}).count() == 2


@pytest.mark.parametrize(("label", "field"), CASES)
def test_validation_refuses_a_side_in_another_federation(worlds, label, field):
    ours, theirs = worlds
    model = _model(label)
    row = model.objects.get(pk=ours[label].pk)
    foreign = theirs[model._meta.get_field(field).related_model._meta.label]
    check_one_federation(row)  # as stored: one federation
    setattr(row, field, foreign)
    with pytest.raises(ValidationError) as refused:
        check_one_federation(row)
    assert "belongs to federation" in str(refused.value)
    if label.startswith("tournaments."):  # the admin's forms run full_clean -> clean
        with pytest.raises(ValidationError):
            row.full_clean()


def test_the_audits_three_rows_are_refused_through_the_models(worlds):
    """TeamMember, SolverScore and Substitution with B's player in A's event."""
    from tournaments.models import SolverScore, Substitution, TeamMember

    ours, theirs = worlds
    stranger = theirs["federation.Player"]
    rows = [
        TeamMember(team=ours["tournaments.Team"], player=stranger, board=2),
        SolverScore(problem=ours["tournaments.Problem"], solver=stranger, points=1),
        Substitution(game=ours["tournaments.Game"], side="black", replaces=stranger),
    ]
    for row in rows:
        with pytest.raises(ValidationError) as refused:
            row.full_clean()
        assert "belongs to federation bb, not to aa" in str(refused.value)
        with pytest.raises((IntegrityError, DatabaseError)), transaction.atomic():
            row.save()
    assert not TeamMember.objects.filter(player=stranger, team__event__federation__code="aa")


PARENTS = [
    ("federation.Player", "federation", "federation.Federation"),
    ("tournaments.Event", "federation", "federation.Federation"),
    ("ratings.RatingPeriod", "federation", "federation.Federation"),
    ("tournaments.Team", "event", "tournaments.Event"),
    ("tournaments.Problem", "event", "tournaments.Event"),
]


@pytest.mark.parametrize(("label", "field", "target"), PARENTS)
def test_a_referred_row_cannot_move_to_another_federation(worlds, label, field, target):
    ours, theirs = worlds
    model = _model(label)
    row = ours[label]
    attname = model._meta.get_field(field).attname
    with pytest.raises((IntegrityError, DatabaseError)) as refused, transaction.atomic():
        model.objects.filter(pk=row.pk).update(**{attname: theirs[target].pk})
    assert _refused(refused.value, MOVE_MESSAGE) or _refused(refused.value, SCOPE_MESSAGE)


def test_an_unused_player_may_still_move(worlds):
    ours, theirs = worlds
    loner = make_player(ours["federation.Federation"], "99", "Loner")
    Player.objects.filter(pk=loner.pk).update(federation=theirs["federation.Federation"])
    loner.refresh_from_db()
    assert loner.federation_id == theirs["federation.Federation"].pk
