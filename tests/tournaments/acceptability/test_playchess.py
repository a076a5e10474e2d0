from __future__ import annotations

from datetime import date

import pytest

from ratings.engines.core.errors import EngineInputError
from tournaments.acceptability import check_event, is_acceptable
from tournaments.acceptability.playchess import PlaychessEventFacts, PlaychessGameFacts
from tournaments.acceptability.types import Status

TODAY = date(2026, 6, 1)


def statuses(games):
    return [r.status for r in check_event("playchess", PlaychessEventFacts(games), TODAY)]


def test_finished_games_between_distinct_rated_players_pass():
    games = [PlaychessGameFacts(1, "a", "b", "1-0"), PlaychessGameFacts(2, "b", "a", "1/2-1/2")]
    assert statuses(games) == [Status.PASS, Status.PASS]
    assert is_acceptable(check_event("playchess", PlaychessEventFacts(games), TODAY))


def test_unfinished_game_fails_and_is_named():
    games = [PlaychessGameFacts(1, "a", "b", "0-1"), PlaychessGameFacts(7, "a", "c", None)]
    res = check_event("playchess", PlaychessEventFacts(games), TODAY)[0]
    assert res.status is Status.FAIL
    assert res.message == "1 of 2 games without a finished result (games 7)"
    assert statuses([PlaychessGameFacts(1, "a", "b", "*")])[0] is Status.FAIL


@pytest.mark.parametrize(
    ("game", "text"),
    [
        (PlaychessGameFacts(3, "a", "a", "1-0"), "1 game with the same player on both sides"),
        (PlaychessGameFacts(3, "a", None, "1-0"), "1 game without both players"),
        (
            PlaychessGameFacts(3, "a", "b", "1-0", black_rated=False),
            "1 game with an unrated player",
        ),
    ],
)
def test_players_rule(game, text):
    res = check_event("playchess", PlaychessEventFacts([game]), TODAY)[1]
    assert res.status is Status.FAIL and text in res.message


def test_no_games_is_not_ratable():
    assert statuses([]) == [Status.FAIL, Status.NOT_APPLICABLE]


def test_duplicate_game_ids_are_bad_input():
    with pytest.raises(EngineInputError):
        PlaychessEventFacts([PlaychessGameFacts(1, "a", "b", "1-0")] * 2)
