from datetime import date

import pytest
from django.core.exceptions import ValidationError

from tournaments.models import Game
from tournaments.services import record_game


@pytest.fixture
def worlds(db):
    from tests.factories import make_world

    return make_world("dd"), make_world("ee")


def test_service_rejects_player_of_another_federation(worlds):
    mine, theirs = worlds
    before = Game.objects.count()
    with pytest.raises(ValidationError) as error:
        record_game(
            event=mine["tournaments.Event"],
            round=3,
            white=mine["players"][0],
            black=theirs["players"][0],
            result="1-0",
        )
    assert "black" in error.value.message_dict
    assert "federation ee" in error.value.message_dict["black"][0]
    assert Game.objects.count() == before


def test_service_records_a_valid_game(worlds):
    mine, _ = worlds
    game = record_game(
        event=mine["tournaments.Event"],
        round=3,
        white=mine["players"][0],
        black=mine["players"][1],
        result="1/2",
        finished_on=date(2026, 2, 1),
    )
    assert Game.objects.get(pk=game.pk).result == "1/2"


def test_service_rejects_self_play(worlds):
    mine, _ = worlds
    with pytest.raises(ValidationError):
        record_game(
            event=mine["tournaments.Event"],
            round=3,
            white=mine["players"][0],
            black=mine["players"][0],
            result="1-0",
        )
