"""Rules that several places need have one home: every caller gets the same answer.

Go grades (parser, engine, calendar, model, what-if form), the EGF reset (engine in one run and
across runs), WFCC's N1 countries and KT category thresholds (acceptability and engine), and
month arithmetic (calendar and acceptability).
"""

from __future__ import annotations

from datetime import date

import pytest

from federation.models import Player
from ratings.engines import egf, wfcc
from ratings.engines.core import grades, months
from ratings.engines.core.errors import EngineInputError
from ratings.systems.egf.calendar import is_active as egf_is_active
from ratings.systems.egf.whatif import EgfForm
from tests.acceptability.wfcc_factory import passing_event
from tournaments.acceptability import wfcc as wfcc_rules
from tournaments.acceptability.types import Status
from tournaments.acceptability.wfcc import problems as wfcc_problem_rules
from tournaments.acceptability.wfcc import tournament as wfcc_tournament_rules
from tournaments.formats import egf as h9

TEXTS = ["3D", " 12K ", "5", "30k", "31k", "45k", "0k", "10d", "9d", "1p", "9p", "10p", "7d"]
TEXTS += ["x", "", "d3", "-1k", "100k", "2 d"]


def _core(text: str) -> str | None:
    try:
        return str(grades.parse_grade(text))
    except ValueError:
        return None


def _table_grade(text: str) -> str | None:
    header = "; CL[B]\n; EV[Cup]\n; PC[CZ,Brno]\n; DT[2024-05-04,2024-05-05]\n; TM[60]\n"
    line = f"1 A a {text.strip()} CZ Brno 2+/w0\n2 B b 3d CZ Brno 1-/b0\n"
    parsed = h9.parse_table(header + line)
    return None if parsed.errors else parsed.players[0].grade


def _engine(text: str) -> bool:
    data = {
        "tournaments": [
            {
                "id": "t",
                "class": "A",
                "players": [{"id": "a", "grade": text}, {"id": "b", "grade": "3d"}],
                "games": [{"white": "a", "black": "b", "result": 1}],
            }
        ]
    }
    try:
        egf.run_json(data)
    except EngineInputError:
        return False
    return True


def _calendar(text: str) -> bool:
    try:
        egf_is_active(text, date(2025, 1, 1), date(2025, 2, 1))
    except EngineInputError:
        return False
    return True


def _model(text: str) -> bool:
    from django.core.exceptions import ValidationError

    try:
        Player._meta.get_field("grade").run_validators(text)
    except ValidationError:
        return False
    return True


def _form(text: str) -> str | None:
    form = EgfForm(data={"grade": text})
    form.is_valid()
    return None if "grade" in form.errors else form.cleaned_data["grade"]


@pytest.mark.parametrize("text", TEXTS)
def test_every_reader_of_a_go_grade_gives_the_same_answer(text):
    canonical = _core(text)
    accepted = canonical is not None
    if text.strip() and " " not in text.strip():  # a table token is one word
        assert _table_grade(text) == canonical, "EGF table parser"
    assert _engine(text) is accepted, "EGF engine"
    assert _calendar(text) is accepted, "calendar (inactivity)"
    if text:
        assert _form(text) == canonical, "what-if form"
    # the model stores the canonical form: it accepts exactly those ("" is no grade at all)
    if text:
        assert _model(text) is (accepted and canonical == text), "player model"
    if accepted:
        assert _model(canonical)


@pytest.mark.parametrize(
    ("a", "b", "stronger"),
    [
        ("9d", "1p", "9d"),
        ("7d", "1p", "1p"),
        ("6d", "1p", "1p"),
        ("1k", "1d", "1d"),
        (None, "3k", "3k"),
    ],
)
def test_the_stronger_grade_is_the_one_with_the_higher_value(a, b, stronger):
    assert grades.stronger_grade(a, b) == stronger
    assert grades.stronger_grade(b, a) == stronger


# ------------------------------------------------------------------------------ EGF reset (§2.1)


def _two_tournaments(first: str, second: str) -> list[egf.Tournament]:
    def one(code: str, grade: str) -> egf.Tournament:
        return egf.Tournament(
            id=code,
            tournament_class="A",
            date=None,
            players=(egf.PlayerEntry("p", grade), egf.PlayerEntry("q", "2d")),
            games=(egf.Game("p", "q", 0.0),),
        )

    return [one("T1", first), one("T2", second)]


@pytest.mark.parametrize(
    ("first", "second", "reset"),
    [
        ("6d", "1p", False),
        ("5d", "1p", True),
        ("1p", "2p", True),
        ("4k", "2k", True),
        ("4k", "3k", False),
    ],
)
def test_the_reset_is_the_same_in_one_run_and_in_two(first, second, reset):
    one_run = egf.rate_history(_two_tournaments(first, second))
    t1, t2 = _two_tournaments(first, second)
    first_run = egf.rate_history([t1])[0]
    carried = next(p.after for p in first_run.players if p.id == "p")
    # the second run gets what the database keeps: the rating and the highest grade so far
    t2 = egf.Tournament(
        id=t2.id,
        tournament_class="A",
        date=None,
        players=(
            egf.PlayerEntry("p", second, rating=carried, highest_grade=first),
            egf.PlayerEntry("q", "2d", rating=first_run.players[1].after, highest_grade="2d"),
        ),
        games=t2.games,
    )
    second_run = egf.rate_history([t2])[0]
    in_one, in_two = one_run[1].players[0], second_run.players[0]
    assert (in_one.start == "reset") is reset
    assert (in_two.start == "reset") is reset
    assert in_two.before == in_one.before and in_two.after == in_one.after
    expected_before = grades.grade_rating(second) if reset else carried
    assert in_one.before == expected_before


def test_the_highest_grade_before_counts_even_when_a_weaker_one_came_between():
    """Highest professed 5d (an earlier run), now 4d then 6d: +1 over the highest, no reset."""
    t1, t2 = _two_tournaments("4d", "6d")
    players = (egf.PlayerEntry("p", "4d", rating=2480.0, highest_grade="5d"), t1.players[1])
    t1 = egf.Tournament(t1.id, "A", None, players, t1.games)
    changes = egf.rate_history([t1, t2])
    assert changes[1].players[0].start == "carried"


# ------------------------------------------------------------------- WFCC N1 and KT (§4.4, §4.5)


def _solvers(countries):
    return [(2400.0 + i, c) for i, c in enumerate(countries)]


@pytest.mark.parametrize(
    "countries",
    [
        ["SRB"] * 7 + ["GER"] * 7 + [None],  # a solver without a country adds no country
        ["SRB"] * 7 + ["GER"] * 7 + [""],
        ["SRB"] * 5 + ["GER"] * 5 + ["NED"] * 5,
        ["SRB"] * 13 + [None, None],
    ],
)
def test_n1_and_o15_count_countries_the_same_in_acceptability_and_engine(countries):
    rated = _solvers(countries)
    facts = passing_event(
        rules="O",
        solvers=tuple(wfcc_rules.SolverFacts(i, c or "", r) for i, (r, c) in enumerate(rated)),
    )
    n1 = wfcc_rules.n1_rated_countries(facts)
    tournament = wfcc.Tournament(
        id="t",
        kt=1.0,
        solvers=tuple(
            wfcc.Solver(id=str(i), rating=r, country=c or None, rounds=(10.0 + i,))
            for i, (r, c) in enumerate(rated)
        ),
    )
    engine = wfcc.norm_conditions(tournament)
    assert n1.facts["countries"] == engine.countries == len({c for c in countries if c})
    assert (n1.status is Status.PASS) is engine.n1
    category = wfcc_rules.propose_category(facts)[0]
    assert (category == "O15") is engine.n1  # all are rated >= 2350 here: O15 iff N1


@pytest.mark.parametrize(
    ("ratings", "category"),
    [
        ([2300.0, 2301.0, 2302.0, 2303.0, 2310.0], "W25"),
        ([2299.99, 2250.0, 2240.0, 2230.0, 2200.0, 1900.0], "W20"),
        ([2100.0, 2101.0, 2150.0, 2199.0, 2100.5], "W15"),
        ([2100.0, 2101.0, 2150.0, 2199.0, 2099.99], "W10"),
    ],
)
def test_kt_category_thresholds_have_one_home(ratings, category):
    facts = passing_event(
        solvers=tuple(wfcc_rules.SolverFacts(i, "SRB", r) for i, r in enumerate(ratings))
    )
    proposal = wfcc.propose_category("W", None, [(r, "SRB") for r in ratings])
    assert wfcc_rules.propose_category(facts)[0] == proposal.code == category
    assert wfcc_rules.propose_category(facts)[1] == wfcc.CATEGORY_KT[category]
    solvers = tuple(
        wfcc.Solver(id=str(i), rating=r, country="SRB", rounds=(10.0 + i,))
        for i, r in enumerate(ratings)
    )
    rated = wfcc.rate_tournament(wfcc.Tournament(id="t", kt=1.0, solvers=solvers, rules="W"))
    assert rated.category == category


# ------------------------------------------------------------------------------ month arithmetic


def test_acceptability_and_calendar_add_months_with_one_function():
    from ratings import calendars

    assert calendars.add_months is months.add_months
    assert wfcc_tournament_rules.add_months is months.add_months
    assert wfcc_problem_rules.add_months is months.add_months
