"""ICCF golden values: RULES §1.8 (seed 001 worked example) to every printed digit, the design
targets of beta0/beta1, the RD rules at their boundaries and half-up publication."""

from __future__ import annotations

import math

import numpy as np
import pytest

from ratings.engines import iccf
from ratings.engines.iccf import Game, Params, Player, explain, rate_period
from ratings.engines.iccf import reference as reference

# c = 0 makes the period start keep RD 80/150/70/50, the example's pre-period values
EXAMPLE_PARAMS = Params(c=0.0)
EXAMPLE_PLAYERS = [
    Player("me", 1900.0, 80.0),
    Player("o1", 1750.0, 150.0),
    Player("o2", 2000.0, 70.0),
    Player("o3", 2300.0, 50.0),
]
# win against o1, draw against o2, loss against o3 (colours do not matter with alpha = 0)
EXAMPLE_GAMES = [Game("me", "o1", 1), Game("o2", "me", 0.5), Game("me", "o3", 0)]

# opp: Pw-, Pw+, Pd-, Pd+, Pl-, Pl+, P_j (3 decimals) | w1-, w1+, w2-, w2+ (4) | D1, D2 (5)
TABLE = {
    "o1": (
        ".358 .155 .578 .690 .064 .155 0.513",
        ".6471 .5000 .5025 .3276",
        "0.39739 -0.07732",
    ),
    "o2": (
        ".141 .087 .692 .683 .167 .231 1.374",
        ".4867 .4280 .3138 .2573",
        "0.04244 -0.07466",
    ),
    "o3": (
        ".044 .029 .629 .585 .327 .386 0.713",
        ".3583 .3215 .2010 .1752",
        "-0.33839 -0.07184",
    ),
}


def printed(value: float, places: int) -> str:
    """As the seed prints it: fixed places, leading zero dropped where the seed drops it."""
    return f"{value:.{places}f}"


def same_digits(value: float, shown: str) -> bool:
    places = len(shown.split(".")[1])
    text = printed(value, places)
    return text == shown or text.replace("0.", ".", 1) == shown


@pytest.fixture(scope="module")
def example():
    return explain("me", EXAMPLE_PLAYERS, EXAMPLE_GAMES, (), EXAMPLE_PARAMS)


def test_example_standardised_values(example):
    assert printed(example.mu, 4) == "2.3028"
    assert printed(example.sigma, 4) == "0.4606"
    shown = {"o1": ("1.4393", "0.8636"), "o2": ("2.8785", "0.4030"), "o3": ("4.6056", "0.2879")}
    for game in example.games:
        mu_j = (game.opponent_rating - 1500) / 173.7
        sigma_j = game.opponent_rd / 173.7
        assert (printed(mu_j, 4), printed(sigma_j, 4)) == shown[game.opponent]


@pytest.mark.parametrize("opponent", sorted(TABLE))
def test_example_table_row(example, opponent):
    (game,) = [g for g in example.games if g.opponent == opponent]
    probabilities, weights, derivatives = (row.split() for row in TABLE[opponent])
    values = [game.pw_minus, game.pw_plus, game.pd_minus, game.pd_plus, game.pl_minus]
    values += [game.pl_plus, game.p]
    assert all(same_digits(v, s) for v, s in zip(values, probabilities, strict=True)), values
    values = [game.w1_minus, game.w1_plus, game.w2_minus, game.w2_plus]
    assert all(same_digits(v, s) for v, s in zip(values, weights, strict=True)), values
    assert [printed(game.d1, 5), printed(game.d2, 5)] == derivatives


def test_example_update(example):
    assert printed(example.sigma_prime, 6) == "0.450006"
    assert printed(example.mu_prime, 6) == "2.323361"
    assert printed(example.rating, 3) == "1903.568"
    assert printed(example.rd, 5) == "78.16604"
    assert (example.published_rating, example.published_rd) == (1904, 78)


def test_example_through_the_fast_engine():
    me = rate_period(EXAMPLE_PLAYERS, EXAMPLE_GAMES, (), EXAMPLE_PARAMS)[0]
    assert printed(me.rating, 3) == "1903.568"
    assert printed(me.rd, 5) == "78.16604"
    assert (me.published_rating, me.published_rd, me.games) == (1904, 78, 3)


def test_example_fast_kernel_derivatives():
    mu = np.full(3, (1900 - 1500) / 173.7)
    mu_j = (np.array([1750.0, 2000.0, 2300.0]) - 1500) / 173.7
    sigma_j = np.array([150.0, 70.0, 50.0]) / 173.7
    d1, d2 = iccf.game_terms(mu, mu_j, sigma_j, np.array([1, 0.5, 0]), np.ones(3), Params())
    assert [printed(v, 5) for v in d1] == ["0.39739", "0.04244", "-0.33839"]
    assert [printed(v, 5) for v in d2] == ["-0.07732", "-0.07466", "-0.07184"]


def test_example_next_period_start():
    me = rate_period(EXAMPLE_PLAYERS, EXAMPLE_GAMES, (), EXAMPLE_PARAMS)[0]
    # next period with the official c = 25 and no games: the start values are what stays
    (later,) = rate_period([Player("me", me.rating, me.rd)], [])
    assert printed(later.rating, 3) == "1903.568"
    assert printed(later.rd, 5) == "82.06662"
    assert (later.published_rating, later.published_rd, later.games) == (1904, 82, 0)


@pytest.mark.parametrize(("rating", "draw"), [(1500, "0.600"), (2500, "0.800")])
def test_draw_probability_design_targets(rating, draw):
    mu = (rating - 1500) / 173.7
    _, pd, _ = reference.probabilities(mu, mu, 1, Params())
    assert printed(pd, 3) == draw


def _start_rd(rd: float, params: Params | None = None) -> float:
    params = params or Params()
    fast = iccf.start_of_period(np.array([2000.0]), np.array([rd]), np.array([np.nan]), params)[1]
    slow = reference.start_of_period(2000.0, rd, None, params)[1]
    assert fast[0] == slow
    return slow


@pytest.mark.parametrize(
    ("rd_old", "expected"),
    [
        (119.0, 120.0),  # sqrt(119² + 25²) = 121.6 -> the 120 cap
        (120.0, 120.0),  # 120 is still inflated: 122.6 -> cap
        (121.0, 121.0),  # above 120: carried unchanged
        (250.0, 250.0),
        (80.0, math.sqrt(80**2 + 25**2)),
    ],
)
def test_start_rd_boundaries(rd_old, expected):
    assert _start_rd(rd_old) == pytest.approx(expected, abs=1e-12)


def test_start_rd_without_cap_follows_appendix_1():
    no_cap = Params(rd_cap=None)
    assert _start_rd(119.0, no_cap) == pytest.approx(math.sqrt(119**2 + 25**2), abs=1e-12)
    assert _start_rd(120.0, no_cap) == pytest.approx(math.sqrt(120**2 + 25**2), abs=1e-12)
    assert _start_rd(121.0, no_cap) == 121.0


def test_start_rd_floor_30():
    assert _start_rd(20.0, Params(c=10.0)) == 30.0  # sqrt(500) = 22.4 -> 30
    assert _start_rd(30.0) == pytest.approx(math.sqrt(30**2 + 25**2), abs=1e-12)


def test_start_of_unrated_players():
    r, rd = iccf.start_of_period(
        np.array([np.nan, np.nan, 2000.0]),
        np.array([np.nan, np.nan, 200.0]),
        np.array([np.nan, 2150.0, np.nan]),
        Params(),
    )
    assert list(r) == [1800.0, 2150.0, 2000.0]
    assert list(rd) == [250.0, 150.0, 200.0]


def test_unrated_players_enter_at_1800_or_fide():
    players = [Player("new"), Player("fide", fide=2150.0), Player("x", 1700.0, 90.0)]
    games = [Game("new", "x", 0.5), Game("fide", "x", 1), Game("x", "new", 1)]
    # the same period with both entered by hand as rated players (RD > 120 is carried as is)
    by_hand = [Player("new", 1800.0, 250.0), Player("fide", 2150.0, 150.0), players[2]]
    assert rate_period(players, games) == rate_period(by_hand, games)


def test_end_rd_floor_and_ceiling():
    opponents = [Player(f"o{i}", 2000.0, 30.0) for i in range(40)]
    # c = 0 keeps RD 30 at the start; 40 games bring RD' below 30 -> limited to 30
    steady = Player("steady", 2000.0, 30.0)
    games = [Game("steady", o.id, 0.5) for o in opponents]
    assert rate_period([steady, *opponents], games, (), Params(c=0.0))[0].rd == 30.0
    # 250 is the ceiling: an unrated player's RD' after one game is below it, never above
    newcomer = rate_period([Player("n"), opponents[0]], [Game("n", "o0", 1)])[0]
    assert 200.0 < newcomer.rd < 250.0


def test_no_games_keeps_start_values_and_unrated_stays_unrated():
    players = [Player("a", 2001.25, 100.0), Player("b", 2100.0, 200.0), Player("u")]
    a, b, u = rate_period(players, [])
    assert (a.rating, a.rd, a.games) == (2001.25, math.sqrt(100**2 + 25**2), 0)
    assert (b.rating, b.rd) == (2100.0, 200.0)
    assert u.unrated and (u.rating, u.published_rating, u.games) == (None, None, 0)


def test_published_values_round_half_up():
    # round() would give 1902 and 130 (banker's rounding); ICCF publishes .5 upwards
    (p,) = rate_period([Player("p", 1902.5, 130.5)], [])
    assert (p.rating, p.rd) == (1902.5, 130.5)
    assert (p.published_rating, p.published_rd) == (1903, 131)
    (q,) = rate_period([Player("q", 1903.4999999, 121.49)], [])
    assert (q.published_rating, q.published_rd) == (1903, 121)
