"""WFCC engine on tournaments built by hand, one per branch of RULES §4.

No official numeric example exists (RULES §4), so each case is designed so that the regression
comes out in round numbers; the expected values are worked out in the comments from the formulas
of §4.1, not taken from the engine.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from ratings.engines.core.errors import EngineInputError
from ratings.engines.wfcc import explain_solver, rate_tournament
from ratings.engines.wfcc.reference import rate_tournament_reference
from ratings.engines.wfcc.types import Solver, Tournament, WfccParams

ENGINES = [rate_tournament, rate_tournament_reference]


def by_id(result):
    return {s.id: s for s in result.solvers}


def approx(x):
    return pytest.approx(x, rel=1e-12, abs=1e-9)


# Ratings 2000/2200/2400: AveRat 2200, VarRat = (200² + 0 + 200²)/3 = 80000/3.
# Results 30/46/50: AveRes 42, deviations -12/4/8, VarRes = 224/3,
# Covar = (-200·-12 + 0 + 200·8)/3 = 4000/3, Slope = 0.05, Intercept = 42 - 0.05·2200 = -68,
# CorrCoeff = 4000/sqrt(80000·224) = 5/sqrt(28) ≥ 0.6. ExpRes: 2000 → 32, 2200 → 42, 2400 → 52.
def plain() -> Tournament:
    return Tournament(
        id="plain",
        kt=2,
        problems=(6, 6),
        solvers=(
            Solver("A", (25, 25), rating=2400, country="SRB"),
            Solver("B", (30, 16), rating=2200, country="POL"),
            Solver("C", (10, 20), rating=2000, country="GER"),
            Solver("D", (20, 28), country="FIN"),  # first tournament: a first half-rating
        ),
    )


@pytest.mark.parametrize("engine", ENGINES)
def test_plain_regression(engine):
    result = engine(plain())
    line = result.line
    assert (line.sorted, line.corrected) == (False, False)
    assert line.rmas == 58.0  # best round 1 (B 30) + best round 2 (D 28), D unrated
    assert line.slope == approx(0.05)
    assert line.intercept == approx(-68)
    assert line.correlation == approx(5 / 28**0.5)
    assert (line.average_rating, line.average_result, line.max_rating) == (2200, 42, 2400)
    s = by_id(result)
    # ChOfRat = KT·(Res - ExpRes) with KT 2: A 2·(50-52) = -4, B 2·(46-42) = 8, C 2·(30-32) = -4.
    assert [s[x].expected for x in "ABC"] == [approx(52), approx(42), approx(32)]
    assert [s[x].change for x in "ABC"] == [-4.0, 8.0, -4.0]
    assert [s[x].rating for x in "ABC"] == [2396.0, 2208.0, 1996.0]
    assert [s[x].published_rating for x in "ABC"] == [2396, 2208, 1996]
    # PerfRat = (Res + 68)/0.05: A 2360, B 2280, C 1960, D 2320 (D's first half-rating).
    assert [s[x].performance for x in "ABCD"] == [2360.0, 2280.0, 1960.0, 2320.0]
    assert s["D"].half_ratings == (2320.0,)
    assert s["D"].rating is None and s["D"].expected is None and s["D"].change is None
    assert s["D"].published_rating == 2320
    # Places: A 50, D 48, B 46, C 30.
    assert [s[x].place for x in "ADBC"] == [1, 2, 3, 4]
    assert [e.id for e in result.solvers] == ["A", "D", "B", "C"]
    assert all(e.norms == () for e in result.solvers)  # 3 rated solvers: N1 fails


# The same ratings, results permuted: C (2000) 50, B (2200) 30, A (2400) 46. Deviations of the
# results from 42: +8, -12, +4 against -200, 0, +200: Covar = (-1600 + 800)/3 = -800/3,
# CorrCoeff = -800/sqrt(80000·224) = -1/sqrt(28) < 0.6 → re-sort: 2400 with 50, 2200 with 46,
# 2000 with 30, which is the plain case: Slope 0.05, Intercept -68.
def resorted() -> Tournament:
    return Tournament(
        id="resorted",
        kt=1,
        problems=(6, 6),
        solvers=(
            Solver("A", (20, 26), rating=2400, time=100),
            Solver("B", (10, 20), rating=2200, time=100),
            Solver("C", (25, 25), rating=2000, time=300),
            # second tournament of a solver without a full rating
            Solver("D", (30, 20), half_ratings=(2300.5,), time=250),
        ),
    )


@pytest.mark.parametrize("engine", ENGINES)
def test_resorted_regression_and_second_half_rating(engine):
    result = engine(resorted())
    line = result.line
    assert (line.sorted, line.corrected) == (True, False)
    assert line.correlation == approx(-1 / 28**0.5)
    assert line.slope == approx(0.05) and line.intercept == approx(-68)
    assert line.rmas == 56.0  # D's 30 + A's 26; ExpRes(2400) = 52 ≤ 56
    s = by_id(result)
    # KT 1: C 50 - 32 = 18, B 30 - 42 = -12, A 46 - 52 = -6.
    assert [s[x].change for x in "CBA"] == [18.0, -12.0, -6.0]
    assert [s[x].rating for x in "CBA"] == [2018.0, 2188.0, 2394.0]
    # D: PerfRat (50 + 68)/0.05 = 2360; with the earlier 2300.5 the average 2330.25 is the
    # full rating; published 2330.
    assert s["D"].performance == 2360.0
    assert s["D"].half_ratings == (2300.5, 2360.0)
    assert s["D"].rating == 2330.25 and s["D"].published_rating == 2330
    # D and C both 50: D used less time.
    assert [s[x].place for x in "DCAB"] == [1, 2, 3, 4]


# As the plain case without D, and with round scores whose maxima sum to RMAS = 26 + 25 = 51 <
# ExpRes(2400) = 52 → corrected: CorrSlope = (51 - 42)/(2400 - 2200) = 0.045,
# CorrIntercept = 42 - 0.045·2200 = -57. CorrExpRes: 2000 → 33, 2200 → 42, 2400 → 51.
def corrected() -> Tournament:
    return Tournament(
        id="corrected",
        kt=4,
        solvers=(
            Solver("A", (25, 25), rating=2400),
            Solver("B", (26, 20), rating=2200),
            Solver("C", (10, 20), rating=2000),
        ),
    )


@pytest.mark.parametrize("engine", ENGINES)
def test_rmas_correction(engine):
    result = engine(corrected())
    line = result.line
    assert (line.sorted, line.corrected) == (False, True)
    assert line.rmas == 51.0
    assert line.regression_slope == approx(0.05) and line.regression_intercept == approx(-68)
    assert line.slope == approx(0.045) and line.intercept == approx(-57)
    s = by_id(result)
    assert [s[x].expected for x in "ABC"] == [approx(51), approx(42), approx(33)]
    # KT 4: A 4·(50-51) = -4, B 4·(46-42) = 16, C 4·(30-33) = -12.
    assert [s[x].change for x in "ABC"] == [-4.0, 16.0, -12.0]
    assert [s[x].rating for x in "ABC"] == [2396.0, 2216.0, 1988.0]
    # CorrPerfRat = (Res + 57)/0.045: 107/0.045 = 2377.777…, 103/0.045 = 2288.888…,
    # 87/0.045 = 1933.333… → two decimals half-up.
    assert [s[x].performance for x in "ABC"] == [2377.78, 2288.89, 1933.33]


# Low ratings 20/120/220 (AveRat 120, VarRat 20000/3) with results 50/54/22 (AveRes 42,
# deviations 8/12/-20): Covar = (100·8 + 0 + -100·-20)/3 = 2800/3, Slope 0.14,
# Intercept 42 - 0.14·120 = 25.2, CorrCoeff = 2800/sqrt(20000·608) ≈ 0.80.
# ExpRes: 220 → 56, 120 → 42, 20 → 28; RMAS = 30 + 30 = 60 ≥ 56.
def low() -> Tournament:
    return Tournament(
        id="low",
        kt=4,
        solvers=(
            Solver("A", (20, 30), rating=220),
            Solver("B", (30, 24), rating=120),
            Solver("C", (10, 12), rating=20),
            Solver("D", (0.5, 0.5)),
        ),
    )


@pytest.mark.parametrize("engine", ENGINES)
def test_floor_for_negative_ratings(engine):
    # Without a floor: C 20 + 4·(22 - 28) = -4; D's PerfRat (1 - 25.2)/0.14 = -172.857… → -172.86;
    # C's PerfRat (22 - 25.2)/0.14 = -22.857… → -22.86.
    free = by_id(engine(low(), WfccParams(floor=None)))
    assert free["C"].change == -24.0 and free["C"].rating == -4.0
    assert free["C"].published_rating == -4
    assert free["D"].performance == -172.86 and free["D"].half_ratings == (-172.86,)
    assert free["C"].performance == -22.86
    assert not any(e.floored for e in free.values())
    # A 220 + 4·(50 - 56) = 196, PerfRat 24.8/0.14 = 177.142… ; B 120 + 4·12 = 168.
    assert (free["A"].rating, free["A"].performance, free["B"].rating) == (196.0, 177.14, 168.0)
    # The default floor 0 lifts the negative values only, and says so.
    s = by_id(engine(low()))
    assert (s["C"].rating, s["C"].performance, s["C"].published_rating) == (0.0, 0.0, 0)
    assert s["D"].half_ratings == (0.0,) and s["D"].performance == 0.0
    assert s["C"].floored and s["D"].floored
    assert not s["A"].floored and s["A"].rating == 196.0
    # Another floor value is a parameter.
    s = by_id(engine(low(), WfccParams(floor=180.0)))
    assert s["A"].rating == 196.0 and s["A"].performance == 180.0 and s["A"].floored
    assert s["B"].rating == 180.0 and s["B"].floored


def test_explain_matches_the_hand_values():
    e = explain_solver(corrected(), "C")
    assert e.line.corrected and e.kt == 4.0
    assert (e.rating, e.result, e.change, e.new_rating, e.performance) == (
        2000,
        30.0,
        -12.0,
        1988.0,
        1933.33,
    )
    assert e.expected == approx(33)
    d = explain_solver(plain(), "D")
    assert (d.rating, d.expected, d.change, d.new_rating, d.performance) == (
        None,
        None,
        None,
        None,
        2320.0,
    )
    assert d.half_ratings == (2320.0,)
    # D's second tournament: (2300.5 + 2360)/2 = 2330.25 becomes his full rating.
    d = explain_solver(resorted(), "D")
    assert (d.half_ratings, d.new_rating) == ((2300.5, 2360.0), 2330.25)
    with pytest.raises(EngineInputError, match="solver_id"):
        explain_solver(plain(), "nobody")


# ----------------------------------------------------------------------------------------------
# Norms. 16 fully rated solvers from 3 countries, in pairs of equal rating whose results lie
# ±d around the line S = 0.05·R - 70, so the regression is that line (the ±d cancel in Covar):
# PerfRat = (S + 70)·20. GM norm: PerfRat ≥ 2650 ⇔ S ≥ 62.5; IM ≥ 2550 ⇔ S ≥ 57.5;
# FM ≥ 2450 ⇔ S ≥ 52.5. Qualifying ratings: 6 solvers ≥ 2550, 8 ≥ 2450, 10 ≥ 2350.
RATED = [
    ("R1", 2600, 63.0),  # PerfRat 2660
    ("R2", 2600, 57.0),  # 2540
    ("R3", 2560, 62.5),  # 2650: exactly the GM performance
    ("R4", 2560, 53.5),  # 2470
    ("R5", 2550, 57.5),  # 2550: exactly the IM performance
    ("R6", 2550, 57.5),  # 2550
    ("R7", 2500, 57.45),  # 2549: 1 short of IM
    ("R8", 2500, 52.55),  # 2451
    ("R9", 2400, 52.5),  # 2450: exactly the FM performance
    ("R10", 2400, 47.5),  # 2350
    ("R11", 2200, 45.0),
    ("R12", 2200, 35.0),
    ("R13", 2000, 35.0),
    ("R14", 2000, 25.0),
    ("R15", 1800, 25.0),
    ("R16", 1800, 15.0),
]
COUNTRIES = ("SRB", "POL", "GER")


def rounds_of(total: float) -> tuple[float, ...]:
    """Three rounds of 6 problems (30 points each) adding up to ``total`` (exact decimals)."""
    left = Decimal(repr(total))
    rounds = []
    for _ in range(3):
        points = min(Decimal(30), left)
        rounds.append(float(points))
        left -= points
    return tuple(rounds)


def norm_tournament(extra=(), *, multi_location=False, rated=RATED, times=None) -> Tournament:
    times = times or {}
    solvers = [
        Solver(
            sid,
            rounds_of(res),
            rating=rating,
            country=COUNTRIES[i % 3],
            time=times.get(sid),
        )
        for i, (sid, rating, res) in enumerate(rated)
    ]
    # U1 without a rating: 64 points, PerfRat 2680, first place.
    solvers.append(Solver("U1", rounds_of(64.0), country="FIN", time=times.get("U1")))
    solvers.extend(extra)
    return Tournament(
        id="norms",
        kt=3,
        problems=(6, 6, 6),
        multi_location=multi_location,
        solvers=tuple(solvers),
    )


@pytest.mark.parametrize("engine", ENGINES)
def test_norms_at_each_threshold(engine):
    result = engine(norm_tournament())
    line, cond = result.line, result.norm_conditions
    assert line.slope == approx(0.05) and line.intercept == approx(-70)
    assert (line.sorted, line.corrected) == (False, False)  # RMAS 64 > ExpRes(2600) = 60
    assert (cond.rated_solvers, cond.countries, cond.n1, cond.n3) == (16, 3, True, True)
    assert cond.qualified == {"GM": 6, "IM": 8, "FM": 10}
    assert cond.n2 == {"GM": True, "IM": True, "FM": True}
    s = by_id(result)
    # Places: U1 64, R1 63, R3 62.5, R5 = R6 57.5 (shared 4th), R7 57.45, R2 57, R4 53.5, R8, R9
    assert [s[x].place for x in ("U1", "R1", "R3", "R5", "R6", "R7", "R2", "R4", "R8", "R9")] == [
        1,
        2,
        3,
        4,
        4,
        6,
        7,
        8,
        9,
        10,
    ]
    expected = {
        "U1": ("GM",),  # 2680, 1st: a solver without a rating gains norms too
        "R1": ("GM",),  # 2660, 2nd
        "R3": ("GM",),  # 2650, 3rd (threshold reached exactly)
        "R5": ("IM",),  # 2550 (exactly), 4th ≤ 8
        "R6": ("IM",),
        "R7": ("FM",),  # 2549: not IM
        "R2": ("FM",),  # 2540, 7th
        "R4": ("FM",),  # 2470, 8th
        "R8": ("FM",),  # 2451, 9th
        "R9": ("FM",),  # 2450 (exactly), 10th ≤ 10
        "R10": (),  # 2350
    }
    assert {x: s[x].norms for x in expected} == expected
    assert all(s[x].norms == () for x in ("R11", "R12", "R13", "R14", "R15", "R16"))
    assert s["R1"].change == 9.0  # KT 3 · (63 - 60)


def four_at(points: float) -> list[Solver]:
    return [Solver(f"U{k}", rounds_of(points), country="FIN") for k in range(2, 6)]


@pytest.mark.parametrize("engine", ENGINES)
def test_n4_needs_a_place_within_the_qualifiers(engine):
    # Four more unrated solvers with 62.75 (PerfRat 2655) share 3rd place: U1 1, R1 2,
    # U2–U5 3, R3 7th, R5 = R6 8th (sharing 8th and 9th), R7 10th.
    s = by_id(engine(norm_tournament(four_at(62.75))))
    assert [s[x].place for x in ("U2", "U5", "R3", "R5", "R6", "R7")] == [3, 3, 7, 8, 8, 10]
    assert s["U2"].norms == ("GM",)  # a shared place counts as its best place: 3 ≤ 6
    assert s["R3"].norms == ("IM",)  # PerfRat 2650 but 7th > 6 qualifiers: no GM norm
    # R5 and R6 share 8th = the 8 IM qualifiers: both gain it, though two solvers take 8th and 9th
    assert s["R5"].norms == ("IM",) and s["R6"].norms == ("IM",)
    assert s["R7"].norms == ("FM",)  # 10th ≤ 10
    assert s["R2"].place == 11 and s["R2"].norms == ()  # 2540 but 11th > 10


@pytest.mark.parametrize("engine", ENGINES)
def test_time_breaks_a_tie_at_the_qualifier_boundary(engine):
    # With times for everyone, the time breaks the tie of R5 and R6: R6, slower, is 9th > 8.
    times = {sid: 100.0 for sid, _, _ in RATED} | {"U1": 100.0, "R6": 200.0}
    extra = [Solver(u.id, u.rounds, country="FIN", time=100.0) for u in four_at(62.75)]
    s = by_id(engine(norm_tournament(extra, times=times)))
    assert (s["R5"].place, s["R6"].place) == (8, 9)
    assert s["R5"].norms == ("IM",) and s["R6"].norms == ("FM",)


@pytest.mark.parametrize("engine", ENGINES)
def test_tournament_conditions_n1_n2_n3(engine):
    # N3: a multi-location tournament gives no norms.
    result = engine(norm_tournament(multi_location=True))
    assert not result.norm_conditions.n3
    assert all(e.norms == () for e in result.solvers)
    # N1: 14 fully rated solvers are too few (R15, R16 dropped: the line is unchanged).
    result = engine(norm_tournament(rated=RATED[:14]))
    assert result.norm_conditions.rated_solvers == 14 and not result.norm_conditions.n1
    assert all(e.norms == () for e in result.solvers)
    # N1: 16 rated solvers but only 2 countries among them (U1's country does not count).
    two = norm_tournament()
    two = Tournament(
        id=two.id,
        kt=two.kt,
        problems=two.problems,
        solvers=tuple(
            Solver(
                x.id, x.rounds, rating=x.rating, country="SRB" if x.country == "GER" else x.country
            )
            for x in two.solvers
        ),
    )
    result = engine(two)
    assert result.norm_conditions.countries == 2 and not result.norm_conditions.n1
    assert all(e.norms == () for e in result.solvers)
    # N2: with R1 and R2 rated 2540 (results 60 and 54, still ±3 around the line) only 4
    # solvers have 2550: no GM norms; 8 still have 2450 and 10 have 2350.
    rated = [("R1", 2540, 60.0), ("R2", 2540, 54.0)] + RATED[2:]
    result = engine(norm_tournament(rated=rated))
    cond = result.norm_conditions
    assert cond.qualified == {"GM": 4, "IM": 8, "FM": 10}
    assert cond.n2 == {"GM": False, "IM": True, "FM": True}
    s = by_id(result)
    # The line moved; U1 (64 points, 1st) has a GM-level performance but only an IM norm.
    assert s["U1"].performance >= 2650 and s["U1"].norms == ("IM",)
