"""Crosstable and solving sheet: plain functions over fetched rows (no database)."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from ratings.systems.egf.event_table import egd_table
from ratings.systems.iccf.event_table import square_crosstable
from ratings.systems.playchess.event_table import game_lists
from ratings.systems.wfcc.event_table import solving_sheet


@dataclass
class P:
    id: int
    full_name: str
    grade: str = ""


@dataclass
class G:
    round: int
    white_id: int
    black_id: int | None
    result: str
    handicap: int = 0


PEOPLE = {1: P(1, "Ann"), 2: P(2, "Bob"), 3: P(3, "Cy")}


@dataclass
class C:  # the EventChange fields the tables read
    before: float | None
    after_event: float = 0.0


GAMES = [
    G(1, 1, 2, "1-0"),
    G(1, 3, None, "bye+"),
    G(2, 2, 3, "1/2", handicap=3),
    G(2, 1, None, "bye-"),
    G(3, 3, 1, "0-1ff"),
]


def test_egd_table_keeps_the_results_file_order_with_grades_and_round_cells():
    # The file placed Bob 1st, Cy 2nd, Ann 3rd (whatever the wins say): that order is kept.
    placements = {2: (1, "3d"), 3: (2, "1k"), 1: (3, "5k")}
    rounds, lines, from_file = egd_table(GAMES, PEOPLE, placements, {})
    assert from_file and rounds == [1, 2, 3]
    assert [(line.place, line.player.full_name, line.grade) for line in lines] == [
        (1, "Bob", "3d"),
        (2, "Cy", "1k"),
        (3, "Ann", "5k"),
    ]
    bob, cy, ann = lines
    assert ann.cells == ["1+/w0", "0-", "2+!b0"]  # opponent's place, result, colour, stones
    assert bob.cells == ["3-/b0", "2=/w3", ""]
    assert cy.cells == ["0+", "1=/b3", "3-!w0"]
    assert (ann.score, bob.score, cy.score) == (2.0, 0.5, 1.5)


def test_egd_table_without_a_file_orders_by_wins_then_opponents_wins():
    rounds, lines, from_file = egd_table(GAMES, PEOPLE, {}, {})
    assert not from_file
    assert [(line.place, line.player.full_name) for line in lines] == [
        (1, "Ann"),
        (2, "Cy"),
        (3, "Bob"),
    ]


def test_square_crosstable_from_each_players_side_with_iccf_symbols():
    games = [G(1, 1, 2, "1-0"), G(1, 2, 3, "1/2"), G(2, 3, 1, "1-0ff"), G(2, 1, 2, "1/2")]
    lines = square_crosstable(games, PEOPLE, {}, {})
    assert [line.player.full_name for line in lines] == ["Ann", "Cy", "Bob"]  # 1.5, 1.5, 1
    ann, cy, bob = lines
    assert ann.cells == ["■", "−", "1½"]  # two games against Bob: a win and a draw
    assert cy.cells == ["+", "■", "½"]
    assert bob.cells == ["0½", "½", "■"]
    assert (cy.games, ann.games, bob.games) == (2, 3, 3)


def test_square_crosstable_of_a_team_event_by_team_and_board():
    boards = {1: ("Team B", 1), 2: ("Team A", 2), 3: ("Team A", 1)}
    lines = square_crosstable([G(1, 1, 3, "0-1")], PEOPLE, boards, {})
    assert [(line.team, line.board, line.player.full_name) for line in lines] == [
        ("Team A", 1, "Cy"),
        ("Team A", 2, "Bob"),
        ("Team B", 1, "Ann"),
    ]


def test_game_lists_show_every_game_from_each_side_with_the_opponents_rating():
    games = [G(1, 1, 2, "1-0"), G(1, 2, 3, "1/2"), G(2, 3, 1, "0-1"), G(2, 1, 2, "1/2")]
    changes = {1: C(2000.4), 2: C(1890.0), 3: C(None)}
    lists = game_lists(games, PEOPLE, changes)
    assert [(pg.player.full_name, pg.score, len(pg.games)) for pg in lists] == [
        ("Ann", 2.5, 3),
        ("Bob", 1.0, 3),
        ("Cy", 0.5, 2),
    ]
    ann = lists[0]
    assert [(g.opponent.full_name, g.colour, g.result, g.opponent_rating) for g in ann.games] == [
        ("Bob", "w", "1", 1890.0),
        ("Cy", "b", "1", None),
        ("Bob", "w", "½", 1890.0),
    ]
    assert sum(len(pg.games) for pg in lists) == 2 * len(games)


def test_solving_sheet_totals_rounds_and_shared_places():
    @dataclass
    class Pr:
        id: int
        round: int
        number: int

    @dataclass
    class S:
        solver_id: int
        problem_id: int
        points: Decimal
        time_used_minutes: int | None = None

    problems = [Pr(10, 1, 1), Pr(11, 1, 2), Pr(12, 2, 1)]
    scores = [
        S(1, 10, Decimal("5")),
        S(1, 11, Decimal("2.5")),
        S(1, 12, Decimal("0")),
        S(2, 10, Decimal("2.5")),
        S(2, 12, Decimal("5")),
        S(3, 10, Decimal("5")),
        S(3, 11, Decimal("1.25")),
    ]
    _, rounds, lines = solving_sheet(problems, scores, PEOPLE)
    assert rounds == [1, 2]
    assert [(line.solver.full_name, line.place, line.total) for line in lines] == [
        ("Ann", 1, Decimal("7.5")),
        ("Bob", 1, Decimal("7.5")),
        ("Cy", 3, Decimal("6.25")),
    ]
    bob = lines[1]
    assert bob.per_problem == [Decimal("2.5"), None, Decimal("5")]  # no score: not attempted
    assert bob.per_round == [Decimal("2.5"), Decimal("5")]
    assert bob.minutes_per_round == [None, None] and bob.minutes is None


def test_solving_sheet_places_equal_totals_by_less_time_as_the_engine_does():
    @dataclass
    class Pr:
        id: int
        round: int
        number: int

    @dataclass
    class S:
        solver_id: int
        problem_id: int
        points: Decimal
        time_used_minutes: int | None = None

    problems = [Pr(10, 1, 1), Pr(11, 2, 1)]
    scores = [
        S(1, 10, Decimal("5"), 50),
        S(1, 11, Decimal("2.5"), 40),
        S(2, 10, Decimal("2.5"), 20),
        S(2, 11, Decimal("5"), 30),
        S(3, 10, Decimal("5"), 60),
    ]
    _, _, lines = solving_sheet(problems, scores, PEOPLE)
    assert [(line.solver.full_name, line.place, line.minutes) for line in lines] == [
        ("Bob", 1, 50),  # 7.5 in 50 minutes beats 7.5 in 90
        ("Ann", 2, 90),
        ("Cy", 3, 60),
    ]
    assert lines[1].minutes_per_round == [50, 40]
