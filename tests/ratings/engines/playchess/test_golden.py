"""PlayChess engine: golden values from RULES §3 and cases worked by hand from its formulas."""

from __future__ import annotations

import math

import numpy as np
import pytest

from ratings.engines import playchess as pc
from ratings.engines.core.errors import EngineInputError
from ratings.engines.playchess import Game, KTable, Params, Player, PriorGame


def by_id(result: pc.BatchResult) -> dict[str, pc.PlayerResult]:
    return {p.id: p for p in result.players}


# --- RULES §3.4: the IECG worked example -------------------------------------------------------

IECG_A = Player("A", rating=2000.0, games=5, score=2.5, opponents=10000.0)
IECG_B = Player("B", rating=2200.0, games=40)


@pytest.mark.parametrize(
    ("result", "p", "f", "dp", "rating", "b_change"),
    [
        (1.0, 7 / 12, 0.986111, 58.4512, 2090.97, -13.6754),
        (0.5, 6 / 12, 1.0, 0.0, 2033.33, -4.6754),
        (0.0, 5 / 12, 0.986111, -58.4512, 1975.69, 4.3246),
    ],
)
def test_iecg_example(result, p, f, dp, rating, b_change):
    games = [Game("A", "B", result)]
    out = by_id(pc.rate_batch([IECG_A, IECG_B], games))
    assert out["A"].rating == pytest.approx(rating, abs=0.005)
    assert out["A"].games == 6 and out["A"].provisional
    assert out["A"].score == 2.5 + result and out["A"].opponents == 12200.0
    # B: k = (70 − 2200/40)·(1.4 − 40/200) = 18, We = P(200) = 0.759747
    assert out["B"].rating - 2200.0 == pytest.approx(b_change, abs=5e-5)
    assert not out["B"].provisional and out["B"].score is None

    why = pc.explain([IECG_A, IECG_B], games, "A")
    assert why.provisional.rc == pytest.approx(2033.33, abs=0.005)
    assert why.provisional.p == pytest.approx(p, rel=1e-15)
    assert why.provisional.f == pytest.approx(f, abs=5e-7)
    assert why.provisional.dp == pytest.approx(dp, abs=5e-5)
    assert why.established is None
    why_b = pc.explain([IECG_A, IECG_B], games, "B")
    step = why_b.established.steps[0]
    assert (step.r, step.g, step.k) == (15.0, 1.2, pytest.approx(18.0, rel=1e-15))
    assert step.we == pytest.approx(0.759747, abs=5e-7)
    assert why_b.result == by_id(pc.rate_batch([IECG_A, IECG_B], games))["B"]


def test_iecg_example_published_rating_rounds_the_exact_value():
    out = by_id(pc.rate_batch([IECG_A, IECG_B], [Game("A", "B", 1.0)]))
    assert out["A"].published_rating == 2091  # 2090.97 half-up (the IECG page printed 2088)


# --- seed 003 "dummies": one game between equal 1000-rated newcomers -----------------------------


@pytest.mark.parametrize(("result", "white", "black"), [(1, 1400, 600), (0.5, 1000, 1000)])
def test_dummies_one_game_between_equal_newcomers(result, white, black):
    players = [Player("w", rating=1000.0), Player("b", rating=1000.0)]  # declared entry ratings
    out = by_id(pc.rate_batch(players, [Game("w", "b", result)]))
    assert out["w"].rating == white and out["b"].rating == black
    # the same with the entry rating as a parameter and unrated players
    out = by_id(pc.rate_batch([Player("w"), Player("b")], [Game("w", "b", result)], Params(1000.0)))
    assert out["w"].rating == white and out["b"].rating == black


def test_dummies_loss_is_600():
    out = by_id(pc.rate_batch([Player("w"), Player("b")], [Game("b", "w", 1)], Params(1000.0)))
    assert out["w"].rating == 600 and out["b"].rating == 1400


# --- formulas ------------------------------------------------------------------------------------


def test_performance_difference_ends_and_symmetry():
    p = np.array([0.0, 1.0, 0.5, 0.75, 0.25])
    d = pc.performance_difference(p)
    assert d[0] == -800.0 and d[1] == 800.0 and d[2] == 0.0
    assert d[3] == pytest.approx(400 * math.log10(3)) and d[4] == pytest.approx(-d[3])


def test_correction_factor_is_the_restored_formula():
    # F(0.5) = 1 (the rejected variant 2p² − 2p + 0.5 would give 0), F(0) = F(1) = 0.5
    assert pc.correction_factor(np.array([0.5, 0.0, 1.0])).tolist() == [1.0, 0.5, 0.5]


def test_default_k_table_is_the_rules_table():
    def r_rule(ro):
        return 10 if ro >= 2400 else 20 if ro <= 2000 else 70 - ro / 40

    def g_rule(n):
        return 1 if n >= 80 else 1.25 if n <= 30 else 1.4 - n / 200

    ratings = [0, 1500, 2000, 2000.5, 2137.25, 2200, 2399.9, 2400, 2800]
    for ro, r in zip(ratings, pc.rating_coefficient(np.array(ratings)), strict=True):
        assert r == pytest.approx(r_rule(ro), rel=1e-14)
    counts = [10, 30, 31, 40, 55, 79, 80, 500]
    for n, g in zip(counts, pc.experience_coefficient(np.array(counts)), strict=True):
        assert g == pytest.approx(g_rule(n), rel=1e-14)


def test_k_table_is_a_parameter():
    flat = Params(k_table=KTable(r_nodes=((0.0, 32.0),), g_nodes=((0.0, 1.0),)))
    players = [Player("a", 2000.0, 50), Player("b", 2000.0, 50)]
    out = by_id(pc.rate_batch(players, [Game("a", "b", 1)], flat))
    assert out["a"].rating == 2016.0 and out["b"].rating == 1984.0


# --- cut-off, entry, split -----------------------------------------------------------------------


def test_cutoff_clamps_provisional_opponents_around_the_pre_batch_rating():
    players = [Player("new"), Player("strong", 2100.0, 200)]
    out = pc.rate_batch(players, [Game("new", "strong", 0.5)])
    # newcomer at 1500: opponent 2100 enters as 1900; p = 1/2 -> Rp = Rc = 1900
    assert out.games[0].white_opponent_rating == 1900.0
    assert out.players[0].rating == 1900.0 and out.players[0].opponents == 1900.0
    # strong is established: D = clamp(2100 − 1500) = 400, k = (70 − 2100/40)·1 = 17.5
    assert out.games[0].black_opponent_rating == 1700.0
    expected = 17.5 * (0.5 - 1 / (1 + 10**-1))
    assert out.games[0].black_change == pytest.approx(expected, rel=1e-14)


def test_batch_crossing_the_tenth_game_is_split_there():
    x = Player("x", 1800.0, 9, score=4.5, opponents=9 * 1800.0)
    y = Player("y", 2000.0, 50)
    z = Player("z", 1900.0, 20)
    games = [Game("x", "y", 1), Game("z", "x", 0.5)]
    out = pc.rate_batch([x, y, z], games)
    # game 10 (provisional, cumulative): Rc = (16200 + 2000)/10, p = 5.5/10
    p = 0.55
    rp = 1820.0 + (-400 * math.log10((1 - p) / p)) * (-2 * p * p + 2 * p + 0.5)
    # game 11 (established) from Ro = Rp with N = 10: r = 20, g = 1.25
    we = 1 / (1 + 10 ** (-(rp - 1900.0) / 400))
    assert out.players[0].rating == pytest.approx(rp + 25 * (0.5 - we), rel=1e-14)
    assert out.players[0].games == 11 and not out.players[0].provisional
    assert out.players[0].score is None
    assert out.games[0].white_provisional and not out.games[1].black_provisional
    assert out.games[1].black_opponent_rating == 1900.0
    # y and z see x at his PRE-batch 1800: y k = 20·(1.4 − 50/200), z k = 20·1.25
    assert out.players[1].rating == pytest.approx(2000 + 23 * (0 - 1 / (1 + 10**-0.5)), rel=1e-14)
    assert out.players[2].rating == pytest.approx(
        1900 + 25 * (0.5 - 1 / (1 + 10**-0.25)), rel=1e-14
    )
    why = pc.explain([x, y, z], games, "x")
    assert why.provisional.rating == pytest.approx(rp, rel=1e-14)
    assert why.established.rating_before == why.provisional.rating
    assert why.established.games_before == 10 and why.established.k == 25.0
    assert why.established.rating == out.players[0].rating


def test_clamp_centre_of_the_established_part_is_the_rating_after_the_tenth_game():
    x = Player("x", 1500.0, 9, score=9.0, opponents=9 * 1500.0)
    weak = Player("weak", 1050.0, 100)
    games = [Game("x", "weak", 1), Game("x", "weak", 1)]
    out = pc.rate_batch([x, weak], games)
    # game 10: weak clamped to 1100; p = 1 -> Rp = 14600/10 + 800·0.5 = 1860
    assert out.games[0].white_opponent_rating == 1100.0
    # game 11: Ro = 1860, D = clamp(1860 − 1050) = 400, opponent used 1460
    assert out.games[1].white_opponent_rating == 1460.0
    k = 20.0 * 1.25
    expected = 1860.0 + k * (1 - 1 / (1 + 10**-1))
    assert out.players[0].rating == pytest.approx(expected, rel=1e-14)


def test_unrated_player_without_games_stays_unrated():
    out = pc.rate_batch([Player("c"), Player("d", 1700.0)], [])
    assert out.players[0].rating is None and out.players[0].published_rating is None
    assert out.players[0].provisional and out.players[0].games == 0
    assert out.players[1].rating == 1700.0  # declared entry rating kept


def test_history_and_totals_give_the_same_result():
    history = (PriorGame(1900.0, 1), PriorGame(2050.5, 0.5), PriorGame(1700.25, 0))
    totals = Player("a", 1888.0, 3, score=1.5, opponents=1900.0 + 2050.5 + 1700.25)
    listed = Player("a", 1888.0, 3, history=history)
    other = Player("b", 2000.0, 30)
    games = [Game("a", "b", 1), Game("b", "a", 0.5)]
    assert pc.rate_batch([totals, other], games) == pc.rate_batch([listed, other], games)


def test_player_outside_the_batch_is_unchanged():
    players = [Player("a", 1600.0, 4, score=2, opponents=6000.0), Player("b", 1700.0, 12)]
    out = pc.rate_batch(players, [])
    assert out.players[0].rating == 1600.0 and out.players[0].score == 2.0
    assert out.players[1].rating == 1700.0 and out.players[1].games == 12


# --- bad input -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "games", "where"),
    [
        ([Player("a"), Player("a")], [], "players[1].id"),
        ([Player("a", None, 3)], [], "players[0].rating"),
        ([Player("a", 1500.0, 3)], [], "players[0].score"),
        ([Player("a", 1500.0, 3, score=3.5, opponents=1.0)], [], "players[0].score"),
        ([Player("a", 1500.0, 12, score=3, opponents=1.0)], [], "players[0].score"),
        ([Player("a", 1500.0, 2, history=(PriorGame(1, 1),))], [], "players[0].history"),
        ([Player("a"), Player("b")], [Game("a", "c", 1)], "games[0].black"),
        ([Player("a")], [Game("a", "a", 1)], "games[0]"),
        ([Player("a"), Player("b")], [Game("a", "b", 2)], "games[0].result"),
    ],
)
def test_bad_input_names_the_entry(players, games, where):
    with pytest.raises(EngineInputError) as err:
        pc.rate_batch(players, games)
    assert err.value.where == where


def test_bad_k_table_is_rejected():
    bad = Params(k_table=KTable(r_nodes=((2400.0, 10.0), (2000.0, 20.0))))
    with pytest.raises(EngineInputError) as err:
        pc.rate_batch([], [], bad)
    assert err.value.where == "params.k_table.r[1]"


def test_explain_unknown_player_and_player_without_games():
    players = [Player("a", 1800.0, 20), Player("b", 1700.0, 20), Player("c", 1600.0, 20)]
    with pytest.raises(EngineInputError) as err:
        pc.explain(players, [], "zz")
    assert err.value.where == "player_id"
    why = pc.explain(players, [Game("a", "b", 1)], "c")
    assert why.provisional is None and why.established is None
    assert why.result.rating == 1600.0 and why.result.games == 20
