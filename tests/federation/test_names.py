"""Name folding and the one player-name filter: order, case and diacritics forgiven."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from federation.models import Federation, Player
from federation.names import fold, readings, same_person_key
from federation.player_search import player_name_q


@pytest.mark.parametrize(
    ("typed", "folded"),
    [
        ("Kamińska", "kaminska"),
        ("  ŁUKASZ  Wróbel ", "lukasz wrobel"),
        ("Straße", "strasse"),
        ("Øster", "oster"),
        ("Tóth", "toth"),
    ],
)
def test_fold(typed, folded):
    assert fold(typed) == folded


def test_readings_cover_both_orders_and_comma():
    assert readings("Kamińska, Adam") == (readings("Kamińska, Adam")[0],)
    assert readings("Kamińska, Adam")[0].surname == "kaminska"
    splits = {(s.surname, s.given) for s in readings("adam kaminska")}
    assert ("kaminska", "adam") in splits and ("adam", "kaminska") in splits
    assert readings("   ") == () and readings(", Adam") == ()


@given(st.text(max_size=30))
def test_fold_is_idempotent(text):
    assert fold(fold(text)) == fold(text)


def test_same_person_key_ignores_order_case_and_marks():
    assert same_person_key("Kamińska", "Adam") == same_person_key("ADAM", "kaminska")
    assert same_person_key("Kamińska", "Adam") != same_person_key("Kaminski", "Adam")


@pytest.mark.django_db
def test_player_name_q_finds_the_same_player_every_way():
    federation = Federation.objects.create(code="fx", name="Federation X", system="iccf")
    adam = Player.objects.create(
        federation=federation, federation_player_id="77", surname="Kamińska", given_name="Adam"
    )
    Player.objects.create(
        federation=federation, federation_player_id="78", surname="Adams", given_name="Kamil"
    )
    for typed in ("Kaminska", "Kamińska, Adam", "adam kaminska", "KAMINSKA a", "77"):
        found = list(Player.objects.filter(player_name_q(typed)))
        assert adam in found, typed
    assert list(Player.objects.filter(player_name_q(""))) == []
