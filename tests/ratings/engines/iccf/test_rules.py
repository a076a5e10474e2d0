"""ICCF rule 1.4 (start rating, RULES §1.5) and rule 6 (team substitutes, RULES §1.6).

Each case is compared with the same period written without the rule's machinery (the game
entered directly between the players the rule says it is between), and with what ignoring the
rule would give, so a test fails if the rule is dropped. Run on the engine and the reference.
"""

from __future__ import annotations

import pytest

from ratings.engines.iccf import Game, Player, Substitution, explain, rate_period
from ratings.engines.iccf.reference import rate_period_reference


@pytest.fixture(params=["engine", "reference"])
def rate(request):
    function = rate_period if request.param == "engine" else rate_period_reference

    def by_id(players, games, substitutions=()):
        return {r.id: r for r in function(players, games, substitutions)}

    return by_id


# RD above 120 is carried unchanged, so the ratings written here are the pre-period values
OPP = Player("P", 1900.0, 150.0)


# Rule 1.4 -----------------------------------------------------------------------------------------


def test_opponent_sees_a_fallen_player_at_his_start_rating(rate):
    x = Player("X", 1800.0, 140.0)
    with_rule = rate([OPP, x], [Game("P", "X", 1, black_start=1950.0)])
    as_if_1950 = rate([OPP, Player("X", 1950.0, 140.0)], [Game("P", "X", 1)])
    ignored = rate([OPP, x], [Game("P", "X", 1)])
    assert with_rule["P"] == as_if_1950["P"]
    assert with_rule["P"].rating != ignored["P"].rating
    # the fallen player's own update uses his own current rating
    assert with_rule["X"] == ignored["X"]


def test_start_rating_below_current_rating_changes_nothing(rate):
    x = Player("X", 1800.0, 140.0)
    assert rate([OPP, x], [Game("X", "P", 0.5, white_start=1750.0)]) == rate(
        [OPP, x], [Game("X", "P", 0.5)]
    )


def test_start_rating_belongs_to_its_own_game(rate):
    x, q = Player("X", 1800.0, 140.0), Player("Q", 2000.0, 130.0)
    games = [Game("P", "X", 1, black_start=1950.0), Game("X", "Q", 0)]
    # Q's game had no start rating: Q sees X at 1800 whatever happened in P's tournament
    assert rate([OPP, x, q], games)["Q"] == rate([x, q], games[1:])["Q"]
    assert rate([OPP, x, q], games)["Q"] != rate([Player("X", 1950.0, 140.0), q], games[1:])["Q"]


# Rule 6 -------------------------------------------------------------------------------------------

ORIGINAL = Player("O", 2000.0, 150.0)  # the original team member
SUB = Player("S", 1800.0, 160.0)  # his substitute, lower rated


def test_substitute_win_counts_for_him_and_opponent_faces_the_higher_rated(rate):
    subbed = rate([OPP, ORIGINAL, SUB], [Game("P", "S", 0)], [Substitution(0, "black", "O")])
    assert (subbed["S"].games, subbed["O"].games, subbed["P"].games) == (1, 0, 1)
    # S is rated for his own game against P; P as if he had lost to O (2000 > 1800)
    assert subbed["S"] == rate([OPP, SUB], [Game("P", "S", 0)])["S"]
    assert subbed["P"] == rate([OPP, ORIGINAL], [Game("P", "O", 0)])["P"]
    assert subbed["P"] != rate([OPP, SUB], [Game("P", "S", 0)])["P"]
    # O played nothing: he keeps his period-start values
    assert (subbed["O"].rating, subbed["O"].rd) == (2000.0, 150.0)


def test_substitute_loss_counts_for_the_replaced_player(rate):
    subbed = rate([OPP, ORIGINAL, SUB], [Game("P", "S", 1)], [Substitution(0, "black", "O")])
    assert (subbed["S"].games, subbed["O"].games) == (0, 1)
    # same result, same colour, for O
    assert subbed["O"] == rate([OPP, ORIGINAL], [Game("P", "O", 1)])["O"]
    assert (subbed["S"].rating, subbed["S"].rd) == (1800.0, 160.0)
    assert subbed["P"] == rate([OPP, ORIGINAL], [Game("P", "O", 1)])["P"]


def test_draw_counts_for_a_weaker_substitute_not_for_a_stronger_one(rate):
    weak = rate([OPP, ORIGINAL, SUB], [Game("S", "P", 0.5)], [Substitution(0, "white", "O")])
    assert (weak["S"].games, weak["O"].games) == (1, 0)
    strong_sub = Player("S", 2100.0, 160.0)
    strong = rate(
        [OPP, ORIGINAL, strong_sub], [Game("S", "P", 0.5)], [Substitution(0, "white", "O")]
    )
    assert (strong["S"].games, strong["O"].games) == (0, 1)
    assert strong["O"] == rate([OPP, ORIGINAL], [Game("O", "P", 0.5)])["O"]
    # P is rated against the higher-rated of the two: the substitute at 2100
    assert strong["P"] == rate([OPP, strong_sub], [Game("S", "P", 0.5)])["P"]


def test_equal_ratings_opponent_faces_the_original_player(rate):
    twin = Player("S", 2000.0, 240.0)  # same rating as O, other RD
    subbed = rate([OPP, ORIGINAL, twin], [Game("P", "S", 0.5)], [Substitution(0, "black", "O")])
    assert subbed["P"] == rate([OPP, ORIGINAL], [Game("P", "O", 0.5)])["P"]
    assert subbed["P"] != rate([OPP, twin], [Game("P", "S", 0.5)])["P"]


def test_unrated_substitute_who_lost_stays_unrated(rate):
    subbed = rate(
        [OPP, ORIGINAL, Player("S")], [Game("S", "P", 0)], [Substitution(0, "white", "O")]
    )
    assert subbed["S"].unrated and subbed["S"].games == 0
    assert subbed["O"] == rate([OPP, ORIGINAL], [Game("O", "P", 0)])["O"]


def test_rule_6_test_uses_the_opponents_start_rating(rate):
    # P has fallen from 2200 to 1800. Against 1800 a 2000 substitute's draw would lower his
    # rating (-> O); against P's start rating 2200 (rule 1.4) it raises it (-> S).
    fallen = Player("P", 1800.0, 150.0)
    sub = Player("S", 2000.0, 150.0)
    games = [Game("P", "S", 0.5, white_start=2200.0)]
    subbed = rate([fallen, ORIGINAL, sub], games, [Substitution(0, "black", "O")])
    assert (subbed["S"].games, subbed["O"].games) == (1, 0)
    ignored = rate([fallen, ORIGINAL, sub], [Game("P", "S", 0.5)], [Substitution(0, "black", "O")])
    assert (ignored["S"].games, ignored["O"].games) == (0, 1)


def test_substitute_seen_at_his_own_start_rating_when_higher_rated(rate):
    sub = Player("S", 2050.0, 150.0)
    games = [Game("P", "S", 1, black_start=2150.0)]
    subbed = rate([OPP, ORIGINAL, sub], games, [Substitution(0, "black", "O")])
    assert subbed["P"] == rate([OPP, Player("S", 2150.0, 150.0)], [Game("P", "S", 1)])["P"]


def test_both_sides_substituted(rate):
    o2, s2 = Player("O2", 1850.0, 150.0), Player("S2", 1950.0, 150.0)
    games = [Game("S", "S2", 1)]
    subs = [Substitution(0, "white", "O"), Substitution(0, "black", "O2")]
    subbed = rate([ORIGINAL, SUB, o2, s2], games, subs)
    # white's win counts for S, rated against the higher of O2/S2 (S2 1950)
    assert subbed["S"] == rate([SUB, s2], [Game("S", "S2", 1)])["S"]
    # black's loss counts for O2, rated against the higher of O/S (O 2000)
    assert subbed["O2"] == rate([ORIGINAL, o2], [Game("O", "O2", 1)])["O2"]
    assert (subbed["O"].games, subbed["S2"].games) == (0, 0)


def test_explanation_names_the_players_of_a_substitute_game():
    players = [OPP, ORIGINAL, SUB]
    games = [Game("P", "S", 1)]
    subs = [Substitution(0, "black", "O")]
    o = explain("O", players, games, subs)
    (game,) = o.games
    assert (game.played_by, game.opponent, game.colour, game.y) == ("S", "P", "black", 0.0)
    (decision,) = o.substitute_decisions
    assert decision.d1 < 0 and decision.counted_for == "O"
    assert o.rating == rate_period(players, games, subs)[1].rating
    p = explain("P", players, games, subs)
    assert (p.games[0].opponent, p.games[0].opponent_played_by) == ("O", "S")
    assert p.games[0].opponent_rating == 2000.0
