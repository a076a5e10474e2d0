"""ICCF typed API for the Django side: errors name the entry, whichever checking path runs."""

from __future__ import annotations

import math

import numpy as np
import pytest

from ratings.engines.core.errors import EngineInputError
from ratings.engines.iccf import Game, Params, Player, Substitution, explain, rate_period

GOOD_PLAYERS = [Player("a", 1900.0, 80.0), Player("b", 2000.0, 150.0), Player("u")]
GOOD_GAMES = [Game("a", "b", 1.0), Game("b", "u", 0.5)]


@pytest.mark.parametrize(
    ("players", "games", "subs", "where"),
    [
        ([Player("a", math.nan), Player("b", 1.0, 1.0)], [], [], "players[0].rating"),
        ([Player("a", 1900.0, math.inf)], [], [], "players[0].rd"),
        ([Player("a", 1900.0, 251.0)], [], [], "players[0].rd"),
        ([Player("a", 1900.0, 0.0)], [], [], "players[0].rd"),
        ([Player("a", None, 80.0)], [], [], "players[0].rd"),
        ([Player("a", 4100.0, 80.0)], [], [], "players[0].rating"),
        ([Player("a", fide=-1.0)], [], [], "players[0].fide"),
        ([Player(7, 1900.0, 80.0)], [], [], "players[0].id"),
        ([Player("a"), Player("a")], [], [], "players[1].id"),
        (GOOD_PLAYERS, [Game("a", "zz", 1.0)], [], "games[0].black"),
        (GOOD_PLAYERS, [Game("a", "b", True)], [], "games[0].result"),
        (GOOD_PLAYERS, [Game("a", "b", "1")], [], "games[0].result"),
        (GOOD_PLAYERS, [Game("a", "b", 0.25)], [], "games[0].result"),
        (GOOD_PLAYERS, [Game("a", "b", 1.0, math.nan)], [], "games[0].white_start"),
        (GOOD_PLAYERS, [Game("b", "b", 1.0)], [], "games[0]"),
        (GOOD_PLAYERS, GOOD_GAMES, [Substitution(2, "white", "u")], "substitutions[0].game"),
        (GOOD_PLAYERS, GOOD_GAMES, [Substitution(0, "left", "u")], "substitutions[0].side"),
        (GOOD_PLAYERS, GOOD_GAMES, [Substitution(0, "white", "a")], "substitutions[0].replaces"),
        (GOOD_PLAYERS, GOOD_GAMES, [Substitution(0, "white", "b")], "substitutions[0].replaces"),
        (
            GOOD_PLAYERS,
            GOOD_GAMES,
            [Substitution(0, "white", "u"), Substitution(0, "white", "u")],
            "substitutions[1]",
        ),
        (
            GOOD_PLAYERS,
            GOOD_GAMES,
            [Substitution(1, "white", "a"), Substitution(1, "black", "a")],
            "substitutions[0].replaces",
        ),
    ],
)
def test_bad_entries_are_named(players, games, subs, where):
    with pytest.raises(EngineInputError) as caught:
        rate_period(players, games, subs)
    assert caught.value.where == where


def test_bad_params_are_named():
    with pytest.raises(EngineInputError) as caught:
        rate_period(GOOD_PLAYERS, GOOD_GAMES, (), Params(rd_cap=10.0))
    assert caught.value.where == "params.rd_cap"


def test_numpy_scalars_take_the_slow_path_to_the_same_result():
    numpy_players = [Player("a", np.float64(1900.0), np.float64(80.0)), *GOOD_PLAYERS[1:]]
    assert rate_period(numpy_players, GOOD_GAMES) == rate_period(GOOD_PLAYERS, GOOD_GAMES)


def test_explain_an_unrated_player_without_games():
    explained = explain("u", GOOD_PLAYERS, GOOD_GAMES[:1])
    assert explained.games == () and explained.rating is None
    assert (explained.start_rating, explained.start_rd) == (1800.0, 250.0)
    with pytest.raises(EngineInputError):
        explain("nobody", GOOD_PLAYERS, GOOD_GAMES)


def test_results_in_input_order_with_counts():
    results = rate_period(GOOD_PLAYERS, GOOD_GAMES)
    assert [(r.id, r.games, r.unrated) for r in results] == [
        ("a", 1, False),
        ("b", 2, False),
        ("u", 1, False),
    ]
