"""The pure pieces a stored run rests on: canonical bytes, the labelled input difference, the
first differing player of two outputs."""

from __future__ import annotations

from ratings.services import provenance
from ratings.services.provenance import InputChange, OutputDifference

STORED = {
    "params": {"rd_cap": 120},
    "players": [{"id": "1", "rating": 1900.0}, {"id": "2", "rating": 1800.0}],
    "games": [
        {"white": "1", "black": "2", "result": 1.0},
        {"white": "2", "black": "1", "result": 0.5},
    ],
}
LABELS = {"games": ["event A, game 10", "event A, game 11"]}


def test_canonical_bytes_sort_keys_and_round_trip_floats_exactly():
    raw = provenance.canonical_bytes({"b": 0.1 + 0.2, "a": [1, "é"]})
    assert raw == b'{"a":[1,"\\u00e9"],"b":0.30000000000000004}'
    assert provenance.decompress(provenance.compress(raw)) == raw


def test_the_same_input_has_no_change():
    assert provenance.input_changes(STORED, LABELS, STORED, LABELS) == []


def test_a_changed_result_is_named_by_its_game():
    now = {**STORED, "games": [STORED["games"][0], {**STORED["games"][1], "result": 0.0}]}
    assert provenance.input_changes(STORED, LABELS, now, LABELS) == [
        InputChange("changed", "event A, game 11", "result: 0.5 then, 0.0 now")
    ]


def test_added_and_removed_games_are_named_and_positions_do_not_count():
    added = {"white": "1", "black": "2", "result": 0.0}
    now = {**STORED, "games": [added, STORED["games"][1]]}
    labels = {"games": ["event B, game 12", "event A, game 11"]}
    changes = provenance.input_changes(STORED, LABELS, now, labels)
    assert changes == [
        InputChange("removed", "event A, game 10"),
        InputChange("added", "event B, game 12"),
    ]
    assert str(changes[0]) == "event A, game 10: removed since the run"


def test_an_unlabelled_difference_is_told_by_its_path():
    now = {**STORED, "players": [STORED["players"][0], {"id": "2", "rating": 1810.0}]}
    assert provenance.input_changes(STORED, LABELS, now, LABELS) == [
        InputChange("other", "players[1].rating", "1800.0 then, 1810.0 now")
    ]


def test_the_first_differing_player_of_two_outputs():
    stored = {"games": [{"white_change": 1.0}], "players": [{"id": "7", "rating": 1.0}]}
    now = {"games": [{"white_change": 2.0}], "players": [{"id": "7", "rating": 2.0}]}
    # A player's row is preferred to an earlier difference that belongs to nobody.
    assert provenance.output_difference(stored, now) == OutputDifference(
        "7", "players[0].rating", "1.0 stored, 2.0 now"
    )
    assert provenance.output_difference(stored, stored) is None
    nested_stored = {"tournaments": [{"id": "E1", "kt": 2, "players": []}]}
    nested_now = {"tournaments": [{"id": "E1", "kt": 3, "players": []}]}
    # A tournament's id is not a player's.
    assert provenance.output_difference(nested_stored, nested_now) == OutputDifference(
        None, "tournaments[0].kt", "2 stored, 3 now"
    )


def test_a_game_added_to_a_tournament_is_the_game_not_the_tournament():
    stored = {"tournaments": [{"id": "T", "class": "A", "games": [{"result": 1.0}]}]}
    labels = {"tournaments": ["event T"], "tournaments[0].games": ["event T, game 1"]}
    now = {"tournaments": [{"id": "T", "class": "A", "games": [{"result": 1.0}, {"result": 0}]}]}
    now_labels = {**labels, "tournaments[0].games": ["event T, game 1", "event T, game 2"]}
    assert provenance.input_changes(stored, labels, now, now_labels) == [
        InputChange("added", "event T, game 2")
    ]
    reclassed = {"tournaments": [{**stored["tournaments"][0], "class": "B"}]}
    assert provenance.input_changes(stored, labels, reclassed, labels) == [
        InputChange("changed", "event T", 'class: "A" then, "B" now')
    ]
