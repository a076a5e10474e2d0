"""An official of federation A can neither list, choose, open nor change federation B's rows.

Parametrised over every registered admin, so an admin that forgets the scoping fails here.
"""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.urls import reverse

from federation.permissions import FederationScopedAdmin

REGISTERED = sorted(admin.site._registry.items(), key=lambda item: item[0]._meta.label)
SCOPED = [
    (model, model_admin)
    for model, model_admin in REGISTERED
    if model._meta.app_label in {"federation", "tournaments", "ratings"}
]


@pytest.fixture
def worlds(db):
    from tests.factories import make_world

    return make_world("aa"), make_world("bb")


def _url(model, name, *args):
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_{name}", args=args)


def test_every_site_admin_is_federation_scoped():
    for model, model_admin in SCOPED:
        assert isinstance(model_admin, FederationScopedAdmin), model._meta.label
    assert {m._meta.label for m, _ in SCOPED} >= {
        "federation.Player",
        "tournaments.Event",
        "tournaments.Game",
        "ratings.RatingList",
    }


@pytest.mark.parametrize("model,model_admin", SCOPED, ids=[m._meta.label for m, _ in SCOPED])
def test_official_cannot_list_or_open_other_federation_rows(client, worlds, model, model_admin):
    mine, theirs = worlds
    client.force_login(mine["user"])
    own_obj, other_obj = mine[model._meta.label], theirs[model._meta.label]

    response = client.get(_url(model, "changelist"))
    assert response.status_code == 200
    listed = {obj.pk for obj in response.context["cl"].result_list}
    assert other_obj.pk not in listed
    if model._meta.label != "federation.Official" or own_obj.pk:
        assert own_obj.pk in listed

    for view in ("change", "delete", "history"):
        response = client.get(_url(model, view, other_obj.pk))
        assert response.status_code == 404, (view, response.status_code)
        assert str(other_obj) not in response.content.decode()

    response = client.post(_url(model, "change", other_obj.pk), {})
    assert response.status_code == 404
    response = client.post(_url(model, "delete", other_obj.pk), {"post": "yes"})
    assert response.status_code == 404
    assert model.objects.filter(pk=other_obj.pk).exists()


@pytest.mark.parametrize("model,model_admin", SCOPED, ids=[m._meta.label for m, _ in SCOPED])
def test_foreign_key_choices_are_scoped(rf, worlds, model, model_admin):
    mine, theirs = worlds
    request = rf.get("/")
    request.user = mine["user"]
    form_class = model_admin.get_form(request, mine[model._meta.label])
    for name, field in form_class.base_fields.items():
        queryset = getattr(field, "queryset", None)
        if queryset is None:
            continue
        label = queryset.model._meta.label
        if label in theirs:
            assert theirs[label].pk not in set(queryset.values_list("pk", flat=True)), name


def test_autocomplete_does_not_offer_other_federation_players(client, worlds):
    mine, theirs = worlds
    client.force_login(mine["user"])
    other = theirs["federation.Player"]
    response = client.get(
        reverse("admin:autocomplete"),
        {
            "app_label": "tournaments",
            "model_name": "game",
            "field_name": "white",
            "term": other.surname,
        },
    )
    assert response.status_code == 200
    assert response.json()["results"] == []
    own = mine["federation.Player"]
    response = client.get(
        reverse("admin:autocomplete"),
        {
            "app_label": "tournaments",
            "model_name": "game",
            "field_name": "white",
            "term": own.surname,
        },
    )
    assert [r["id"] for r in response.json()["results"]] == [str(own.pk)]


def test_posting_a_game_with_other_federation_player_is_rejected(client, worlds):
    from tournaments.models import Game

    mine, theirs = worlds
    client.force_login(mine["user"])
    event = mine["tournaments.Event"]
    before = Game.objects.count()
    response = client.post(
        _url(Game, "add"),
        {
            "event": event.pk,
            "round": 2,
            "white": mine["players"][0].pk,
            "black": theirs["players"][0].pk,
            "result": "1-0",
            "handicap": 0,
            "substitutions-TOTAL_FORMS": 0,
            "substitutions-INITIAL_FORMS": 0,
        },
    )
    assert response.status_code == 200  # the form again, with the error
    assert "Select a valid choice" in response.content.decode()
    assert Game.objects.count() == before


def test_staff_without_a_role_sees_nothing(client, worlds):
    from tests.factories import make_user

    client.force_login(make_user("plain-staff"))
    response = client.get(reverse("admin:index"))
    assert response.status_code == 200
    assert response.context["app_list"] == []
    response = client.get(_url(worlds[0]["federation.Player"].__class__, "changelist"))
    assert response.status_code == 403


def test_superuser_sees_both_federations(client, worlds):
    from tests.factories import make_user

    client.force_login(make_user("root", superuser=True))
    response = client.get(reverse("admin:federation_player_changelist"))
    listed = {obj.pk for obj in response.context["cl"].result_list}
    assert {worlds[0]["federation.Player"].pk, worlds[1]["federation.Player"].pk} <= listed
