"""What-if calculator and "explain my change": the engines' numbers for a reader's inputs, checked
against the worked examples of RULES.md (§3.4 PlayChess) and the formulas written out here."""

from __future__ import annotations

import math
import re
from datetime import date

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from federation.models import Player
from federation.permissions import COMMAND_LINE
from tests.ratings.web.factories import make_federation, make_players, standard_world
from tournaments.models import Event, Game

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
# Explain my change: real runs (eager), published, then explained from the rebuilt inputs


def _run_and_publish(federation, code):
    from ratings.services import publication, runs

    run = runs.run_now(federation=federation, period_code=code, by=COMMAND_LINE)
    assert run.status == "succeeded", run.error
    publication.publish_list(list_id=run.rating_list.pk, by=COMMAND_LINE)
    return run


@pytest.fixture
def iccf_run():
    from ratings.services.publication import import_list

    fed = make_federation("icc", "iccf")
    players = make_players(fed, [(str(100 + i), f"P{i}", "DE", "") for i in range(6)])
    import_list(
        federation=fed,
        period_code="2025Q4",
        entries=[
            {
                "player_id": p.pk,
                "rating": 1900.0 + 50 * i,
                "published_rating": 1900 + 50 * i,
                "rd": 80.0,
                "published_rd": 80,
            }
            for i, p in enumerate(players[:5])
        ],
        by=COMMAND_LINE,
    )
    event = Event.objects.create(
        federation=fed,
        name="Section 1",
        code="S1",
        kind="individual",
        status="accepted",
        start=date(2025, 10, 15),
        end=date(2026, 6, 30),
        transmission="electronic",
        reflection_days=50,
        reflection_moves=10,
    )
    for i, result in enumerate(["1-0", "1/2", "0-1", "1-0", "1/2"]):
        Game.objects.create(
            event=event,
            round=1,
            white=players[i],
            black=players[(i + 1) % 6],
            result=result,
            finished_on=date(2025, 10, 20 + i),
            reported_on=date(2025, 10, 21 + i),
        )
    return fed, players, _run_and_publish(fed, "2026Q1")


def test_explain_iccf_recomputes_the_published_rating_and_rd(client, iccf_run):
    fed, players, run = iccf_run
    for p in (players[0], players[5]):  # a rated player and a newcomer
        html = client.get(f"/federations/icc/players/{p.federation_player_id}/explain/{run.pk}/")
        html = html.content.decode()
        assert "exactly the run" in html, html
        assert "equal to the published rating" in html
        for name in ("D1", "D2", "σ′", "μ′", "Pw−", "Pd+"):
            assert name in html
    entry = run.rating_list.entries.get(player=players[0])
    html = client.get(f"/federations/icc/players/100/explain/{run.pk}/").content.decode()
    assert f"{entry.rating:.3f}" in html


def test_explain_says_when_the_data_changed_after_the_run(client, iccf_run):
    """The breakdown stays the run's own (from its stored input); the page names the edit."""
    fed, players, run = iccf_run
    url = f"/federations/icc/players/100/explain/{run.pk}/"
    assert "has changed since the run" not in client.get(url).content.decode()
    game = Game.objects.get(event__code="S1", white=players[0])
    game.result = "0-1"
    game.save()  # marks the rated period for a re-run, so the cached report is not reused
    html = client.get(url).content.decode()
    assert "The database has changed since the run" in html
    assert f"event S1, game {game.pk}: changed since the run (result: 1.0 then, 0.0 now)" in html
    assert "equal to the published rating" in html


def test_explain_is_linked_from_the_profile_and_event(client, iccf_run):
    fed, players, run = iccf_run
    link = f"/federations/icc/players/100/explain/{run.pk}/"
    assert link in client.get("/federations/icc/players/100/").content.decode()
    assert link in client.get("/federations/icc/events/S1/").content.decode()


def test_explain_playchess_run(client):
    fed = make_federation("pc", "playchess")
    players = make_players(fed, [(str(i), f"Q{i}", "DE", "") for i in range(4)])
    event = Event.objects.create(
        federation=fed,
        name="Blitz",
        code="B1",
        kind="individual",
        status="accepted",
        start=date(2026, 3, 1),
        end=date(2026, 3, 20),
    )
    for i, (w, b, r) in enumerate([(0, 1, "1-0"), (2, 3, "1/2"), (1, 2, "0-1"), (3, 0, "1-0")]):
        Game.objects.create(
            event=event,
            round=i + 1,
            white=players[w],
            black=players[b],
            result=r,
            finished_on=date(2026, 3, 2 + i),
        )
    run = _run_and_publish(fed, "2026-03")
    html = client.get(f"/federations/pc/players/0/explain/{run.pk}/").content.decode()
    assert "exactly the run" in html
    assert "equal to the published rating" in html
    assert "Provisional rating" in html and "Rc" in html
    assert "Q1, Ann" in html or "Q1" in html  # opponents by name


def test_explain_egf_event(client):
    fed = make_federation("go", "egf")
    players = [
        Player.objects.create(federation=fed, federation_player_id=str(i), surname=f"G{i}", grade=g)
        for i, g in enumerate(["3d", "1d", "2k", "5k"])
    ]
    event = Event.objects.create(
        federation=fed,
        name="Go Cup",
        code="T260314A",
        kind="individual",
        status="accepted",
        start=date(2026, 3, 14),
        end=date(2026, 3, 15),
        rating_class="A",
    )
    for i, (w, b, r, h) in enumerate([(0, 1, "1-0", 0), (1, 2, "0-1", 2), (3, 0, "1-0", 5)]):
        Game.objects.create(
            event=event, round=i + 1, white=players[w], black=players[b], result=r, handicap=h
        )
    from ratings.calendars import period_for

    code = period_for("egf", date(2026, 3, 15)).code
    run = _run_and_publish(fed, code)
    for p in players:
        html = client.get(f"/federations/go/players/{p.federation_player_id}/explain/{run.pk}/")
        html = html.content.decode()
        assert "equal to the published rating" in html, html
        assert "con" in html and "SE" in html


def test_explain_without_rebuildable_inputs_says_no_breakdown(client):
    world = standard_world(system="playchess", code="pc")  # hand-made rows: no run input
    response = client.get(f"/federations/pc/players/101/explain/{world.runs[1].pk}/")
    assert response.status_code == 200
    assert "no breakdown" in response.content.decode()


# ---------------------------------------------------------------------------------------------
# ICCF and EGF calculators against RULES §1.8 and §2.4


def test_whatif_iccf_worked_example(client):
    response = client.get(
        "/what-if/iccf/",
        {"rating": "1900", "rd": "80", "opponents": "1750 150 1\n2000 70 0.5\n2300 50 0"},
    )  # "inflate" unchecked: the values are already the period-start values of §1.8
    html = response.content.decode()
    assert response.status_code == 200, html
    assert _new_rating(html) == "1904"
    assert re.search(r'id="new-rd">78<', html)
    assert "1903.5680" in html[html.index("new-rating") :][:80] or "1903.568" in html
    for d1 in ("0.39739", "0.04244", "-0.33839"):
        assert d1 in html
    for d2 in ("-0.07732", "-0.07466", "-0.07184"):
        assert d2 in html
    assert "0.450006" in html and "2.323361" in html  # sigma', mu'


def test_whatif_iccf_inflates_list_values(client):
    html = client.get(
        "/what-if/iccf/",
        {"rating": "1900", "rd": "80", "inflate": "on", "opponents": "1900 80 0.5"},
    ).content.decode()
    # Period start RD = sqrt(80² + 25²) = 83.8153
    assert f"{math.sqrt(80**2 + 25**2):.3f}" in html


@pytest.mark.parametrize(
    ("params", "after"),
    [
        ({"rating": "2400", "opponents": "2400 1"}, "2407.62"),  # Ex.3
        ({"rating": "320", "opponents": "400 1"}, "383.68"),  # Ex.4
        ({"rating": "1850", "opponents": "2400 1 b 5"}, "1875.09"),  # Ex.5: Black, 5 stones
        ({"rating": "2400", "opponents": "1850 0 w 5"}, "2388.83"),  # Ex.5 from B's side
    ],
)
def test_whatif_egf_worked_examples(client, params, after):
    response = client.get("/what-if/egf/", {"tournament_class": "A", **params})
    html = response.content.decode()
    assert response.status_code == 200, html
    shown = re.search(r'id="new-rating">\d+</output> \(([\d.]+)\)', html).group(1)
    # the page shows 4 decimals; RULES prints 2 (2388.83 is 2388.83496)
    assert abs(float(shown) - float(after)) <= 0.005 + 0.00005


def test_whatif_egf_needs_rating_or_grade(client):
    response = client.get("/what-if/egf/", {"tournament_class": "A", "opponents": "2000 1"})
    assert response.status_code == 400
    response = client.get(
        "/what-if/egf/", {"tournament_class": "A", "grade": "2K", "opponents": "2000 1"}
    )
    assert response.status_code == 200
    response = client.get(
        "/what-if/egf/", {"tournament_class": "A", "grade": "99x", "opponents": "2000 1"}
    )
    assert response.status_code == 400


def test_explain_wfcc_tournament(client):
    from decimal import Decimal

    from ratings.services.publication import import_list
    from ratings.systems.wfcc.calendar import period_for_tournament as wfcc_period_for_tournament
    from tournaments.models import Problem, SolverScore

    fed = make_federation("wf", "wfcc")
    solvers = make_players(
        fed, [(str(i), f"S{i:02d}", "RS" if i % 2 else "DE", "") for i in range(12)]
    )
    start, end = date(2026, 2, 7), date(2026, 2, 8)
    base = wfcc_period_for_tournament(start, end).counted_in
    import_list(
        federation=fed,
        period_code="2026Q1",
        entries=[
            {"player_id": p.pk, "rating": 2000.0 + 40 * i, "published_rating": 2000 + 40 * i}
            for i, p in enumerate(solvers[:11])
        ],
        by=COMMAND_LINE,
    )
    event = Event.objects.create(
        federation=fed,
        name="Solving Open",
        code="SO-26",
        kind="solving",
        status="accepted",
        start=start,
        end=end,
        kt=Decimal("1.5"),
    )
    groups = ["twomover", "threemover", "moremover", "endgame", "helpmate", "selfmate"]
    problems = [
        Problem.objects.create(
            event=event, round=r, number=n, group=groups[(n - 1) % 6], original=True
        )
        for r in (1, 2)
        for n in range(1, 7)
    ]
    for i, solver in enumerate(solvers):
        for k, problem in enumerate(problems):
            points = Decimal(5) if (i + k) % 12 < 3 + i * 0.7 else Decimal("2.5") * (k % 2)
            SolverScore.objects.create(problem=problem, solver=solver, points=points)
    run = _run_and_publish(fed, base.code)
    for solver in (solvers[0], solvers[10], solvers[11]):  # rated, top rated, unrated
        html = client.get(
            f"/federations/wf/players/{solver.federation_player_id}/explain/{run.pk}/"
        )
        html = html.content.decode()
        assert "exactly the run" in html, html
        assert "equal to the published rating" in html, html
        assert "CorrCoeff" in html and "RMAS" in html


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.sampled_from(["playchess", "wfcc", "iccf", "egf"]),
    st.dictionaries(
        st.sampled_from(
            [
                "rating",
                "rd",
                "games",
                "points_so_far",
                "opponents_so_far",
                "opponents",
                "kt",
                "half_rating",
                "score",
                "field",
                "fide",
                "inflate",
                "grade",
                "tournament_class",
            ]
        ),
        st.one_of(
            st.text(max_size=30),
            st.from_regex(
                r"(\d{3,4}(\.\d+)? [01](\.5)?( [wb])?( \d{1,2})?\n){1,4}", fullmatch=True
            ),
        ),
        max_size=6,
    ),
)
def test_no_calculator_input_gives_a_500(client, system, params):
    """Random and well-formed-looking inputs: a result or form errors, never a server error."""
    response = client.get(f"/what-if/{system}/", params)
    assert response.status_code in (200, 400), (system, params)


@pytest.mark.parametrize(
    ("system", "params"),
    [
        ("wfcc", {"kt": "1.0", "rating": "2000", "score": "15", "field": "2000 10\n2000 20"}),
        ("wfcc", {"kt": "1.0", "rating": "2000", "score": "10", "field": "2100 10\n2200 10"}),
        ("wfcc", {"kt": "1.0", "rating": "2300", "score": "5", "field": "2100 30\n2200 20"}),
        ("iccf", {"rating": "4000", "rd": "350", "opponents": "0 350 1\n4000 1 0"}),
        ("egf", {"rating": "3200", "tournament_class": "D", "opponents": "100 0 b 30"}),
        ("playchess", {"games": "0", "opponents": "4000 0\n0 1"}),
    ],
)
def test_degenerate_calculator_inputs_are_answered(client, system, params):
    """Zero variance, negative slopes, extreme ratings: the engine's answer or its error."""
    response = client.get(f"/what-if/{system}/", params)
    assert response.status_code in (200, 400)
    if response.status_code == 400:
        assert 'class="error"' in response.content.decode()
