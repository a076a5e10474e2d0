"""Duplicate players: suggestions (pure grouping and per federation), the merge and its refusals,
the admin page, and the merged player's page."""

from __future__ import annotations

from datetime import date

import pytest

from federation.duplicates import (
    MergeRefused,
    Person,
    duplicate_suggestions,
    group_duplicates,
    merge_players,
)
from federation.models import AuditEvent, Federation, Player
from federation.permissions import COMMAND_LINE
from ratings.models import RatingPeriod
from tests.factories import make_official
from tournaments.models import Event, EventKind, Game, Result, TeamMember


def test_names_equal_ignoring_case_marks_and_order_with_country_and_grade():
    people = [
        Person(1, "Kamińska", "Ewa", "PL", "3k"),
        Person(2, "ewa", "KAMINSKA", "PL", "3k"),
        Person(3, "Kaminska", "Ewa", "DE", "3k"),  # another country
        Person(4, "Kaminska", "Ewa", "PL", ""),  # grade unknown: joins the one known grade
        Person(5, "Novak", "Jan", "CZ", "1d"),
        Person(6, "Novák", "Jan", "CZ", "5k"),  # grades known and different: two people
        Person(7, "Solo", "", "", ""),
        Person(8, "solo", "", "", ""),
    ]
    assert [[p.id for p in g] for g in group_duplicates(people)] == [[1, 2, 4], [7, 8]]


@pytest.fixture
def world(db):
    fed = Federation.objects.create(code="egx", name="EGF X", system="egf")
    other = Federation.objects.create(code="egy", name="EGF Y", system="egf")

    def player(fid, surname, given, federation=fed, **extra):
        return Player.objects.create(
            federation=federation,
            federation_player_id=fid,
            surname=surname,
            given_name=given,
            country="PL",
            grade="3k",
            **extra,
        )

    keep = player("1", "Kamińska", "Ewa")
    dup = player("2", "KAMINSKA", "ewa")
    opponent = player("3", "Nowak", "Jan")
    stranger = player("4", "Kaminska", "Ewa", federation=other)
    event = Event.objects.create(
        federation=fed,
        name="Cup",
        code="CUP",
        kind=EventKind.INDIVIDUAL,
        start=date(2026, 1, 10),
        end=date(2026, 1, 11),
    )
    game = Game.objects.create(
        event=event, round=1, white=dup, black=opponent, result=Result.WHITE_WINS
    )
    return {
        "fed": fed,
        "keep": keep,
        "dup": dup,
        "opponent": opponent,
        "stranger": stranger,
        "event": event,
        "game": game,
    }


def test_suggestions_stay_within_a_federation(world):
    assert duplicate_suggestions(world["fed"]) == [[world["keep"], world["dup"]]]


def test_a_merge_moves_the_games_and_leaves_an_audit_row(world):
    result = merge_players(keep=world["keep"], duplicate=world["dup"], by=COMMAND_LINE)
    world["game"].refresh_from_db()
    assert world["game"].white_id == world["keep"].pk
    assert result.moved == {"game (white)": 1}
    world["dup"].refresh_from_db()
    assert world["dup"].merged_into_id == world["keep"].pk and not world["dup"].active
    audit = AuditEvent.objects.get(action="merge")
    assert audit.new_values == {"merged_into": world["keep"].pk, "active": False}
    assert duplicate_suggestions(world["fed"]) == []
    with pytest.raises(MergeRefused, match="already merged"):
        merge_players(keep=world["keep"], duplicate=world["dup"], by=COMMAND_LINE)


def test_a_merge_of_players_who_met_is_refused_and_changes_nothing(world):
    with pytest.raises(MergeRefused, match="they met"):
        merge_players(keep=world["opponent"], duplicate=world["dup"], by=COMMAND_LINE)
    world["game"].refresh_from_db()
    assert (world["game"].white_id, world["game"].black_id) == (
        world["dup"].pk,
        world["opponent"].pk,
    )
    assert not AuditEvent.objects.filter(action="merge").exists()


def test_a_merge_across_federations_is_refused(world):
    with pytest.raises(MergeRefused, match="different federations"):
        merge_players(keep=world["keep"], duplicate=world["stranger"], by=COMMAND_LINE)


def test_memberships_move_and_published_lists_keep_the_old_id(world, client):
    from ratings.models import ListStatus, RatingEntry
    from ratings.services.publication import import_list

    published = import_list(
        federation=world["fed"],
        period_code="2025-12",
        entries=[
            {"player_id": world["dup"].pk, "rating": 1500.0, "published_rating": 1500},
        ],
        by=COMMAND_LINE,
    )
    team_event = Event.objects.create(
        federation=world["fed"],
        name="League",
        code="LEAGUE",
        kind=EventKind.TEAM,
        start=date(2026, 1, 1),
        end=date(2026, 1, 2),
    )
    member = TeamMember.objects.create(
        team=team_event.teams.create(name="A"), player=world["dup"], board=1
    )
    merge_players(keep=world["keep"], duplicate=world["dup"], by=COMMAND_LINE)
    member.refresh_from_db()
    assert member.player_id == world["keep"].pk
    entry = RatingEntry.objects.get(rating_list=published)
    assert entry.player_id == world["dup"].pk and published.status == ListStatus.PUBLISHED
    response = client.get(f"/federations/egx/players/{world['dup'].federation_player_id}/")
    assert response.status_code == 301
    assert response["Location"] == f"/federations/egx/players/{world['keep'].federation_player_id}/"


def test_a_merged_game_of_a_rated_period_marks_it_for_a_rerun(world):
    from ratings.models import RatingList, RatingRun, RunStatus
    from ratings.services.runs import ensure_period

    # A drafted period whose run read the accepted event (rows of a published run cannot be
    # made up).
    Event.objects.filter(pk=world["event"].pk).update(status="accepted")
    period = ensure_period(federation=world["fed"], code="2026-01")
    run = RatingRun.objects.create(
        federation=world["fed"],
        period=period,
        status=RunStatus.SUCCEEDED,
        report={"events": [world["event"].code]},
    )
    RatingList.objects.create(federation=world["fed"], period=period, run=run)
    merge_players(keep=world["keep"], duplicate=world["dup"], by=COMMAND_LINE)
    assert RatingPeriod.objects.get(pk=period.pk).needs_rerun


def test_the_admin_page_suggests_and_merges_within_the_officials_federation(world, client):
    officer = make_official("egx-officer", world["fed"])
    client.force_login(officer)
    page = client.get("/admin/federation/player/duplicates/")
    assert page.status_code == 200
    assert b"KAMINSKA" in page.content and b"EGF Y" not in page.content
    # Another federation's player cannot be merged from here: it is not even found.
    client.post(
        "/admin/federation/player/duplicates/",
        {"keep": world["keep"].pk, "merge": [world["stranger"].pk]},
    )
    assert not Player.objects.filter(merged_into__isnull=False).exists()
    client.post(
        "/admin/federation/player/duplicates/",
        {"keep": world["keep"].pk, "merge": [world["dup"].pk]},
    )
    assert Player.objects.get(pk=world["dup"].pk).merged_into_id == world["keep"].pk
