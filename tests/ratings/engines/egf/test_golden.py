"""EGF GoR golden tests: RULES §2 Table I, Table II, Examples 3-5, grades, floor, cap, weights, reset."""

from __future__ import annotations

import math

import pytest

from ratings.engines import egf
from ratings.engines.core import grades
from ratings.engines.core.errors import EngineInputError
from ratings.engines.core.rounding import half_up_2, half_up_int
from ratings.engines.egf import Game, Params, PlayerEntry, Tournament


def duel(r_a, r_b, a_wins=True, stones_for_a=0, eps=0.016, cls="A"):
    """A (the weaker, Black when receiving stones) against B, one game."""
    players = (PlayerEntry("A", "1d", r_a), PlayerEntry("B", "1d", r_b))
    game = Game(white="B", black="A", result=0.0 if a_wins else 1.0, handicap=stones_for_a)
    return Tournament("T", cls, "2013-07-27", players, (game,)), Params(epsilon=eps)


def afters(tournament, params=egf.DEFAULT_PARAMS):
    return {p.id: p.after for p in egf.rate_tournament(tournament, params).players}


# --------------------------------------------------------------------------------- Table I and II

TABLE_I = {20: 0.457, 40: 0.414, 60: 0.372, 80: 0.333, 100: 0.295, 120: 0.260, 140: 0.228,
           160: 0.199, 180: 0.173, 200: 0.149, 300: 0.069, 400: 0.030}  # fmt: skip


@pytest.mark.parametrize(("d", "printed"), sorted(TABLE_I.items()))
def test_table_one_expectancy_with_a_115(d, printed):
    # a = 115 is a(1800): a player at 1800 against one D points stronger, eps = 0.
    tournament, params = duel(1800.0, 1800.0 + d, eps=0.0)
    explained = egf.explain_player(tournament, "A", params)
    assert explained.games[0].a == 115.0
    assert f"{explained.games[0].expected:.3f}" == f"{printed:.3f}"


TABLE_II = [
    (100, 116, 200, 37.8), (200, 110, 195, 37.5), (300, 105, 190, 37.1), (400, 100, 185, 36.8),
    (500, 95, 180, 36.5), (600, 90, 175, 36.1), (700, 85, 170, 35.7), (800, 80, 165, 35.3),
    (900, 75, 160, 34.9), (1000, 70, 155, 34.4), (1100, 65, 150, 33.9), (1200, 60, 145, 33.4),
    (1300, 55, 140, 32.9), (1400, 51, 135, 32.3), (1500, 47, 130, 31.7), (1600, 43, 125, 31.0),
    (1700, 39, 120, 30.3), (1800, 35, 115, 29.5), (1900, 31, 110, 28.7), (2000, 27, 105, 27.8),
    (2100, 24, 100, 26.9), (2200, 21, 95, 25.9), (2300, 18, 90, 24.8), (2400, 15, 85, 23.6),
    (2500, 13, 80, 22.3), (2600, 11, 75, 20.9), (2700, 10, 70, 19.3),
]  # fmt: skip


@pytest.mark.parametrize(("gor", "con", "a", "se_percent"), TABLE_II)
def test_table_two_con_a_and_expectancy_against_100_stronger(gor, con, a, se_percent):
    tournament, params = duel(float(gor), gor + 100.0, eps=0.0)
    game = egf.explain_player(tournament, "A", params).games[0]
    assert game.con == con
    assert game.a == a
    assert f"{100 * game.expected:.1f}" == f"{se_percent:.1f}"


def test_con_and_a_beyond_the_table_and_between_nodes():
    assert egf.con_of(50.0) == 116.0 and egf.con_of(3000.0) == 10.0
    assert egf.a_of(50.0) == 200.0 and egf.a_of(3000.0) == 70.0
    assert egf.con_of(1350.0) == 53.0  # halfway between 55 and 51
    assert egf.con_of(2290.5) == pytest.approx(21 - 3 * 0.905)


# ----------------------------------------------------------------------------------- Examples 3-5


@pytest.mark.parametrize(
    ("r_a", "r_b", "stones", "eps", "printed_a", "printed_b"),
    [
        (2400, 2400, 0, 0.0, 2407.50, 2392.50),
        (2400, 2400, 0, 0.016, 2407.62, 2392.62),
        (320, 400, 0, 0.0, 382.84, 339.57),
        (320, 400, 0, 0.016, 383.68, 340.37),
        (1850, 2400, 5, 0.0, 1874.83, 2388.71),
        (1850, 2400, 5, 0.016, 1875.09, 2388.83),
    ],
)
def test_worked_examples(r_a, r_b, stones, eps, printed_a, printed_b):
    tournament, params = duel(float(r_a), float(r_b), stones_for_a=stones, eps=eps)
    after = afters(tournament, params)
    assert half_up_2(after["A"]) == printed_a
    assert half_up_2(after["B"]) == printed_b


def test_published_integer_values_eps_zero():
    for r_a, r_b, stones, want in [(320, 400, 0, (383, 340)), (1850, 2400, 5, (1875, 2389))]:
        after = afters(*duel(float(r_a), float(r_b), stones_for_a=stones, eps=0.0))
        assert (half_up_int(after["A"]), half_up_int(after["B"])) == want


def test_example_four_intermediate_values():
    tournament, params = duel(320.0, 400.0, eps=0.0)
    a_side = egf.explain_player(tournament, "A", params).games[0]
    b_side = egf.explain_player(tournament, "B", params).games[0]
    assert a_side.a == 189.0 and b_side.a == 189.0
    assert f"{a_side.expected:.5f}" == "0.39573"
    assert (a_side.con, b_side.con) == (104.0, 100.0)
    assert a_side.expected + b_side.expected == pytest.approx(1.0)


def test_example_five_intermediate_values():
    tournament, params = duel(1850.0, 2400.0, stones_for_a=5, eps=0.0)
    a_side = egf.explain_player(tournament, "A", params).games[0]
    assert a_side.adjusted == 2300.0 and a_side.opponent_adjusted == 2400.0
    assert a_side.a == 90.0  # a at the adjusted weaker rating, 1850 + 450
    assert f"{a_side.expected:.5f}" == "0.24766"
    assert a_side.con == 33.0  # con at his own unadjusted rating


def test_epsilon_is_split_between_the_players():
    tournament, params = duel(1000.0, 1700.0, stones_for_a=2, eps=0.016)
    a_side = egf.explain_player(tournament, "A", params).games[0]
    b_side = egf.explain_player(tournament, "B", params).games[0]
    assert a_side.expected + b_side.expected == pytest.approx(1 - 0.016, abs=1e-15)


def test_one_stone_means_no_komi_fifty_points():
    tournament, params = duel(2000.0, 2000.0, stones_for_a=1, eps=0.0)
    assert egf.explain_player(tournament, "A", params).games[0].adjusted == 2050.0


# ------------------------------------------------------------------------------------------ grades


@pytest.mark.parametrize(
    ("grade", "rating"),
    [("20k", 100), ("1k", 2000), ("1d", 2100), ("6d", 2600), ("7d", 2700), ("1p", 2700),
     ("2p", 2730), ("9p", 2940), ("30k", 100), ("25K", 100), ("15k", 600), ("5", 1600), ("3D", 2300)],
)  # fmt: skip
def test_grade_values(grade, rating):
    assert grades.grade_rating(grade) == rating


@pytest.mark.parametrize("grade", ["0k", "10d", "10p", "d", "1x", "", "100k"])
def test_bad_grades(grade):
    with pytest.raises(ValueError):
        grades.parse_grade(grade)


def test_new_player_starts_from_his_grade():
    tour = Tournament("T", "A", None, (PlayerEntry("x", "5k"), PlayerEntry("y", "2d")), ())
    players = egf.rate_tournament(tour).players
    assert [(p.before, p.after, p.games, p.start) for p in players] == [
        (1600.0, 1600.0, 0, "grade"),
        (2200.0, 2200.0, 0, "grade"),
    ]


# ----------------------------------------------------------------------------- floor, cap, weights


def losing_streak(rating, opponents, cls="A", before_cap=False, eps=0.0):
    players = (PlayerEntry("P", "1d", rating),) + tuple(
        PlayerEntry(f"o{i}", "1d", r) for i, r in enumerate(opponents)
    )
    games = tuple(Game(f"o{i}", "P", 1.0) for i in range(len(opponents)))
    params = Params(epsilon=eps, weight_before_cap=before_cap)
    return Tournament("T", cls, None, players, games), params


def lose(rating, opponents, cls="A", before_cap=False, eps=0.0):
    tournament, params = losing_streak(rating, opponents, cls, before_cap, eps)
    return egf.rate_tournament(tournament, params).players[0]


def test_floor_of_100():
    p = lose(130.0, [120.0] * 3)
    # 3 losses at con(130) = 114.2 would take ~170 points; the floor stops at 100.
    assert p.after == 100.0


def test_drop_at_one_tournament_is_capped_at_100():
    p = lose(2100.0, [1500.0] * 10)  # 10 x about -23.8
    assert p.after == 2000.0


@pytest.mark.parametrize(("cls", "after", "weighted_first"), [("B", 1925, 1900), ("C", 1950, 1920)])
def test_the_cap_comes_before_the_class_weight(cls, after, weighted_first):
    """RULES §2.3 example: a 2000 player loses six games to 1200 players (eps 0.016):
    sum of dR = -160.06, capped at -100, times the class weight (B 0.75, C 0.5)."""
    tournament, params = losing_streak(2000.0, [1200.0] * 6, cls, eps=0.016)
    assert params == Params()  # the default is cap, then weight
    explained = egf.explain_player(tournament, "P", params)
    assert half_up_2(explained.sum_of_changes) == -160.06
    assert explained.capped == -100.0 and not explained.weight_before_cap
    assert explained.weighted == explained.change == explained.class_weight * -100.0
    assert half_up_int(explained.after) == after
    assert half_up_int(egf.rate_tournament(tournament).players[0].after) == after
    # the JSON contract has the same default
    data = {
        "tournaments": [
            {
                "id": "T",
                "class": cls,
                "players": [
                    {"id": p.id, "grade": p.grade, "rating": p.rating} for p in tournament.players
                ],
                "games": [
                    {"white": g.white, "black": g.black, "result": g.result}
                    for g in tournament.games
                ],
            }
        ]
    }
    assert half_up_int(egf.run_json(data)["tournaments"][0]["players"][0]["after"]) == after
    # the setting is kept: weight first, then the cap
    old = Params(weight_before_cap=True)
    assert half_up_int(egf.rate_tournament(tournament, old).players[0].after) == weighted_first
    data["params"] = {"weight_before_cap": True}
    assert (
        half_up_int(egf.run_json(data)["tournaments"][0]["players"][0]["after"]) == weighted_first
    )


@pytest.mark.parametrize(("cls", "weight"), [("A", 1.0), ("B", 0.75), ("C", 0.5), ("D", 0.25)])
def test_class_weights(cls, weight):
    tournament, params = duel(2400.0, 2400.0, eps=0.0, cls=cls)
    after = afters(tournament, params)
    assert after["A"] == 2400.0 + weight * 7.5
    assert after["B"] == 2400.0 - weight * 7.5


def test_bad_class_is_rejected():
    tournament, params = duel(2400.0, 2400.0, cls="E")
    with pytest.raises(EngineInputError, match="class"):
        egf.rate_tournament(tournament, params)


# ------------------------------------------------------------------------------- history and reset


def single(tid, grade, result_for_p, rating=None, opp_grade="5k"):
    """P plays one game against a fresh opponent of the tournament."""
    players = (PlayerEntry("P", grade, rating), PlayerEntry(f"o{tid}", opp_grade))
    return Tournament(tid, "A", None, players, (Game("P", f"o{tid}", result_for_p),))


def p_of(history, params=egf.DEFAULT_PARAMS):
    return [t.players[0] for t in egf.rate_history(history, params)]


def test_rating_carries_over_between_tournaments():
    first, second = p_of([single("T1", "5k", 1.0), single("T2", "5k", 0.0)])
    assert first.start == "grade" and second.start == "carried"
    assert second.before == first.after != 1600.0


def test_given_rating_wins_over_the_carried_one():
    _, second = p_of([single("T1", "5k", 1.0), single("T2", "5k", 0.0, rating=1234.5)])
    assert (second.before, second.start) == (1234.5, "given")


def test_reset_after_two_grades_of_improvement():
    _, second = p_of([single("T1", "5k", 0.0), single("T2", "3k", 1.0)])
    assert (second.before, second.start) == (1800.0, "reset")


def test_no_reset_after_one_grade():
    first, second = p_of([single("T1", "5k", 0.0), single("T2", "4k", 1.0)])
    assert (second.before, second.start) == (first.after, "carried")


def test_reset_is_against_the_highest_earlier_grade():
    changes = p_of([single("T1", "3k", 1.0), single("T2", "5k", 1.0), single("T3", "2k", 1.0)])
    assert changes[2].start == "carried"  # 2k is one grade above the highest earlier (3k)
    changes = p_of([single("T1", "3k", 1.0), single("T2", "5k", 1.0), single("T3", "1k", 1.0)])
    assert (changes[2].start, changes[2].before) == ("reset", 2000.0)


@pytest.mark.parametrize(
    ("earlier", "later", "reset"),
    [("1p", "2p", True), ("2p", "2p", False), ("5d", "1p", True), ("6d", "1p", False),
     ("7d", "1p", False), ("1d", "2d", False), ("1k", "2d", True), ("30k", "28k", True)],
)  # fmt: skip
def test_reset_rule_pairs(earlier, later, reset):
    assert egf.is_reset(grades.parse_grade(later), grades.parse_grade(earlier)) is reset
    changes = p_of([single("T1", earlier, 0.5), single("T2", later, 0.5)])
    assert (changes[1].start == "reset") is reset
    if reset:
        assert changes[1].before == grades.grade_rating(later)


def test_all_games_use_pre_tournament_ratings():
    # P beats two 2000 players: both games see P at 2000, so the two changes are equal.
    players = (
        PlayerEntry("P", "1k", 2000.0),
        PlayerEntry("x", "1k", 2000.0),
        PlayerEntry("y", "1k", 2000.0),
    )
    games = (Game("P", "x", 1.0), Game("y", "P", 0.0))
    explained = egf.explain_player(Tournament("T", "A", None, players, games), "P")
    first, second = explained.games
    assert first.change == second.change
    assert explained.sum_of_changes == first.change + second.change
    assert explained.after == 2000.0 + (first.change + second.change)


def test_unknown_player_and_self_play_are_rejected():
    players = (PlayerEntry("P", "1k"), PlayerEntry("Q", "1k"))
    with pytest.raises(EngineInputError, match=r"tournaments\[0\]\.games\[0\]\.black"):
        egf.rate_history([Tournament("T", "A", None, players, (Game("P", "Z", 1.0),))])
    with pytest.raises(EngineInputError, match="himself"):
        egf.rate_history([Tournament("T", "A", None, players, (Game("P", "P", 1.0),))])
    with pytest.raises(EngineInputError, match="twice"):
        egf.rate_history([Tournament("T", "A", None, players + players[:1], ())])


def test_empty_history():
    assert egf.rate_history([]) == ()
    assert math.isclose(grades.grade_rating("1d"), 2100.0)
