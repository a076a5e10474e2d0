"""Every admin change leaves an audit row; audit rows never change afterwards."""

from __future__ import annotations

import pytest
from django.db import DatabaseError, transaction
from django.urls import reverse

from federation.models import AppendOnlyError, AuditEvent, Player


@pytest.fixture
def world(db):
    from tests.factories import make_world

    return make_world("au")


def _player_form(player, **changes):
    data = {
        "federation": player.federation_id,
        "federation_player_id": player.federation_player_id,
        "surname": player.surname,
        "given_name": player.given_name,
        "country": player.country,
        "club": player.club,
        "grade": player.grade,
        "active": "on",
    }
    data.update(changes)
    return data


def test_admin_change_writes_audit_with_old_and_new_values(client, world):
    player = world["federation.Player"]
    client.force_login(world["user"])
    url = reverse("admin:federation_player_change", args=[player.pk])
    response = client.post(url, _player_form(player, club="New Club", country="FR"))
    assert response.status_code == 302, response.content.decode()[:2000]
    event = AuditEvent.objects.filter(
        object_type="federation.Player", object_id=str(player.pk), action="change"
    ).get()
    assert event.actor == world["user"]
    assert event.federation_id == player.federation_id
    assert event.old_values == {"club": player.club, "country": "DE"}
    assert event.new_values == {"club": "New Club", "country": "FR"}


def test_invalid_admin_form_saves_nothing_and_names_the_field(client, world):
    player = world["federation.Player"]
    client.force_login(world["user"])
    url = reverse("admin:federation_player_change", args=[player.pk])
    before = AuditEvent.objects.count()
    response = client.post(url, _player_form(player, country="XX", grade="45k"))
    assert response.status_code == 200
    form = response.context["adminform"].form
    assert "XX is not an ISO 3166 alpha-2 country code" in form.errors["country"][0]
    assert "grade" in form.errors
    player.refresh_from_db()
    assert player.country == "DE"
    assert AuditEvent.objects.count() == before


def test_admin_add_and_delete_are_audited(client, world):
    client.force_login(world["user"])
    federation = world["federation.Federation"]
    response = client.post(
        reverse("admin:federation_player_add"),
        {
            "federation": federation.pk,
            "federation_player_id": "777",
            "surname": "Newcomer",
            "country": "PL",
            "active": "on",
        },
    )
    assert response.status_code == 302
    created = Player.objects.get(federation=federation, federation_player_id="777")
    assert AuditEvent.objects.filter(action="create", object_id=str(created.pk)).exists()
    response = client.post(
        reverse("admin:federation_player_delete", args=[created.pk]), {"post": "yes"}
    )
    assert response.status_code == 302
    deleted = AuditEvent.objects.get(action="delete", object_id=str(created.pk))
    assert deleted.old_values["surname"] == "Newcomer"


def test_inline_game_changes_are_audited(client, world):
    event = world["tournaments.Event"]
    event.kind = "individual"
    event.save()
    a, b, c = world["players"]
    client.force_login(world["user"])
    url = reverse("admin:tournaments_event_change", args=[event.pk])
    game = world["tournaments.Game"]
    data = {
        "federation": event.federation_id,
        "name": event.name,
        "code": event.code,
        "kind": "individual",
        "status": "draft",
        "start": "2026-01-01",
        "end": "2026-03-01",
        "games-TOTAL_FORMS": 2,
        "games-INITIAL_FORMS": 1,
        "games-MIN_NUM_FORMS": 0,
        "games-MAX_NUM_FORMS": 1000,
        "games-0-id": game.pk,
        "games-0-event": event.pk,
        "games-0-round": 1,
        "games-0-white": a.pk,
        "games-0-black": b.pk,
        "games-0-result": "1/2",
        "games-0-handicap": 0,
        "games-1-event": event.pk,
        "games-1-round": 2,
        "games-1-white": b.pk,
        "games-1-black": c.pk,
        "games-1-result": "0-1",
        "games-1-handicap": 0,
    }
    response = client.post(url, data)
    assert response.status_code == 302, response.context["errors"] if response.context else ""
    change = AuditEvent.objects.get(object_type="tournaments.Game", object_id=str(game.pk))
    assert change.old_values == {"result": "1-0"} and change.new_values == {"result": "1/2"}
    assert AuditEvent.objects.filter(object_type="tournaments.Game", action="create").count() == 1


def test_inline_with_bad_row_saves_nothing(client, world):
    event = world["tournaments.Event"]
    a, b, _ = world["players"]
    client.force_login(world["user"])
    before = (event.games.count(), AuditEvent.objects.count())
    data = {
        "federation": event.federation_id,
        "name": "Renamed",
        "code": event.code,
        "kind": "team",
        "status": "draft",
        "start": "2026-01-01",
        "end": "2026-03-01",
        "teams-TOTAL_FORMS": 0,
        "teams-INITIAL_FORMS": 0,
        "games-TOTAL_FORMS": 2,
        "games-INITIAL_FORMS": 0,
        "games-0-event": event.pk,
        "games-0-round": 2,
        "games-0-white": a.pk,
        "games-0-black": b.pk,
        "games-0-result": "1-0",
        "games-0-handicap": 0,
        "games-1-event": event.pk,
        "games-1-round": 2,
        "games-1-white": a.pk,
        "games-1-black": a.pk,
        "games-1-result": "1-0",
        "games-1-handicap": 0,
    }
    response = client.post(reverse("admin:tournaments_event_change", args=[event.pk]), data)
    assert response.status_code == 200
    assert "cannot play himself" in response.content.decode()
    event.refresh_from_db()
    assert event.name != "Renamed"
    assert (event.games.count(), AuditEvent.objects.count()) == before


def test_audit_rows_are_append_only(world):
    row = world["federation.AuditEvent"]
    row.message = "tampered"
    with pytest.raises(AppendOnlyError):
        row.save()
    with pytest.raises(AppendOnlyError):
        row.delete()
    with pytest.raises(DatabaseError), transaction.atomic():
        AuditEvent.objects.filter(pk=row.pk).update(message="tampered")
    with pytest.raises(DatabaseError), transaction.atomic():
        AuditEvent.objects.filter(pk=row.pk).delete()
    assert AuditEvent.objects.get(pk=row.pk).message == ""
