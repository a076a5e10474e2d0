"""What-if calculator and "explain my change": the engines' numbers for a reader's inputs, checked
against the worked examples of RULES.md (§3.4 PlayChess) and the formulas written out here."""

from __future__ import annotations

import math
import re
from datetime import date

import pytest

from ratings.models import EventRating
from tests.site.factories import (
    make_event,
    make_federation,
    make_list,
    make_period,
    make_players,
    publish,
)

pytestmark = pytest.mark.django_db

# RULES §3.4: provisional A (5 games, 2.5 points, opponents averaging 2000) beats established B
# (2200, 40 games). Rc = (5·2000 + 2200)/6, p = 7/12, F = −2p² + 2p + 0.5, D(p) = −400·log10((1−p)/p).
RC = (5 * 2000 + 2200) / 6
P = 7 / 12
A_AFTER_WIN = RC + (-400 * math.log10((1 - P) / P)) * (-2 * P * P + 2 * P + 0.5)
B_K = (70 - 2200 / 40) * (1.4 - 40 / 200)
B_WE = 1 / (1 + 10 ** (-200 / 400))
B_AFTER_LOSS = 2200 + B_K * (0 - B_WE)


def _new_rating(html: str) -> str:
    return re.search(r'id="new-rating">([^<]+)<', html).group(1)


def test_worked_example_values():
    assert round(A_AFTER_WIN, 2) == 2090.97
    assert pytest.approx(18) == B_K and round(B_AFTER_LOSS, 4) == 2186.3246


def test_whatif_playchess_established(client):
    response = client.get(
        "/what-if/playchess/", {"rating": "2200", "games": "40", "opponents": "2000 1"}
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert _new_rating(html) == "2204"  # 2200 + 18·(1 − 0.759747) = 2204.3246
    assert f"{2200 + B_K * (1 - B_WE):.4f}" in html
    assert "18.0000" in html  # k = r·g
    assert f"{B_WE:.6f}" in html  # We


def test_whatif_playchess_provisional_worked_example(client):
    response = client.get(
        "/what-if/playchess/",
        {
            "rating": "2000",
            "games": "5",
            "points_so_far": "2.5",
            "opponents_so_far": "10000",
            "opponents": "2200 1",
        },
    )
    html = response.content.decode()
    assert _new_rating(html) == "2091"
    assert f"{A_AFTER_WIN:.4f}" in html
    assert f"{RC:.4f}" in html and f"{P:.6f}" in html


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"rating": "2000", "games": "40", "opponents": ""}, "required"),
        ({"rating": "2000", "games": "40", "opponents": "2000 2"}, "must be 1, 0.5 or 0"),
        ({"rating": "2000", "games": "40", "opponents": "abc 1"}, "is not a number"),
        ({"rating": "2000", "games": "40", "opponents": "2000"}, "give a rating and a result"),
        ({"rating": "x", "games": "40", "opponents": "2000 1"}, "Enter a number"),
        ({"rating": "2000", "games": "-1", "opponents": "2000 1"}, "greater than or equal"),
        # A provisional player needs his earlier totals: the engine says so, as a form error.
        ({"rating": "2000", "games": "5", "opponents": "2000 1"}, "players[0]"),
    ],
)
def test_whatif_bad_input_is_a_form_error(client, params, message):
    response = client.get("/what-if/playchess/", params)
    assert response.status_code == 400
    assert message in response.content.decode()


def _wfcc_line(ratings, scores):
    """RULES §4.1 written out, for a one-round field with CorrCoeff >= 0.6: least squares, then
    the RMAS correction when the line expects more of the top rating than the best score."""
    n = len(ratings)
    ar, as_ = sum(ratings) / n, sum(scores) / n
    cov = sum(r * s for r, s in zip(ratings, scores, strict=True)) / n - ar * as_
    var = sum((r - ar) ** 2 for r in ratings) / n
    slope = cov / var
    intercept = as_ - slope * ar
    rmas, top = max(scores), max(ratings)
    if slope * top + intercept > rmas:
        slope = (rmas - as_) / (top - ar)
        intercept = as_ - slope * ar
    return slope, intercept


@pytest.mark.parametrize(
    "field",
    [
        [(2500.0, 50.0), (2400.0, 45.0), (2300.0, 41.0), (2200.0, 30.0), (2100.0, 26.0)],  # RMAS
        [(2500.0, 58.0), (2400.0, 45.0), (2300.0, 41.0), (2200.0, 30.0), (2100.0, 26.0)],
    ],
)
def test_whatif_wfcc_rated_solver(client, field):
    mine = (2350.0, 44.0)
    ratings = [mine[0]] + [r for r, _ in field]
    scores = [mine[1]] + [s for _, s in field]
    slope, intercept = _wfcc_line(ratings, scores)
    expected = slope * mine[0] + intercept
    change = 2 * (mine[1] - expected)
    assert abs(change * 100 - round(change * 100)) > 1e-6  # no half-cent tie to round
    text = "\n".join(f"{r:g} {s:g}" for r, s in field)
    response = client.get(
        "/what-if/wfcc/", {"kt": "2.0", "rating": "2350", "score": "44", "field": text}
    )
    html = response.content.decode()
    assert response.status_code == 200, html
    assert f"{expected:.4f}" in html
    assert f"{change:.2f}" in html
    assert f"{2350 + change:.2f}" in html


def test_whatif_wfcc_unrated_solver_gets_a_half_rating(client):
    response = client.get(
        "/what-if/wfcc/",
        {"kt": "1.0", "score": "40", "field": "2500 50\n2400 45\n2300 41\n2200 30\n- 20"},
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "PerfRat" in html and "No full rating yet" in html


def test_whatif_index_lists_calculators(client):
    html = client.get("/what-if/").content.decode()
    assert "/what-if/playchess/" in html and "/what-if/wfcc/" in html


# ---------------------------------------------------------------------------------------------
# Explain my change


def _playchess_world(details_a: dict | None, after_a: float):
    fed = make_federation("pc", "playchess")
    a, b = make_players(fed, [("A", "Alpha", "DE", ""), ("B", "Bravo", "DE", "")])
    period = make_period(fed, "2026-02", date(2026, 2, 1))
    rl = make_list(fed, period, {a: after_a, b: B_AFTER_LOSS}, published=False)
    event, _ = make_event(fed, "BLITZ-1", [a, b])
    EventRating.objects.create(
        run=rl.run,
        event=event,
        player=a,
        before=2000.0,
        after=after_a,
        games=1,
        score=1,
        details=details_a or {},
    )
    EventRating.objects.create(
        run=rl.run,
        event=event,
        player=b,
        before=2200.0,
        after=B_AFTER_LOSS,
        games=1,
        score=0,
        details={
            "rating_before": 2200.0,
            "games_before": 40,
            "games": [{"opponent": "A", "opponent_rating": 2000.0, "colour": "black", "result": 0}],
        },
    )
    publish(rl)
    return rl.run


def test_explain_playchess_recomputes_the_published_rating(client):
    run = _playchess_world(
        {
            "rating_before": 2000.0,
            "games_before": 5,
            "score_before": 2.5,
            "opponents_before": 10000.0,
            "games": [{"opponent": "B", "opponent_rating": 2200.0, "colour": "white", "result": 1}],
        },
        A_AFTER_WIN,
    )
    html = client.get(f"/federations/pc/players/A/explain/{run.pk}/").content.decode()
    assert "equal to the published rating" in html
    assert "Provisional rating" in html and f"{RC:.4f}" in html
    html = client.get(f"/federations/pc/players/B/explain/{run.pk}/").content.decode()
    assert "equal to the published rating" in html
    assert "Established rating" in html and f"{B_WE:.6f}" in html


def test_explain_flags_a_published_value_the_engine_does_not_reproduce(client):
    run = _playchess_world(
        {
            "rating_before": 2000.0,
            "games_before": 5,
            "score_before": 2.5,
            "opponents_before": 10000.0,
            "games": [{"opponent": "B", "opponent_rating": 2200.0, "colour": "white", "result": 1}],
        },
        A_AFTER_WIN + 1,
    )
    html = client.get(f"/federations/pc/players/A/explain/{run.pk}/").content.decode()
    assert "differs from the published rating" in html


@pytest.mark.parametrize(
    "details",
    [None, {"games": [{"opponent": "B"}]}, {"games": "nonsense"}, {"games": [{"result": 5}]}],
)
def test_explain_without_usable_details_says_no_breakdown(client, details):
    run = _playchess_world(details, 2050.0)
    response = client.get(f"/federations/pc/players/A/explain/{run.pk}/")
    assert response.status_code == 200
    assert "no breakdown stored" in response.content.decode()
