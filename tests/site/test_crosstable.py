"""Crosstable and solving sheet: plain functions over fetched rows (no database)."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from ratings.crosstable import crosstable, solving_sheet


@dataclass
class P:
    id: int
    full_name: str


@dataclass
class G:
    round: int
    white_id: int
    black_id: int | None
    result: str
    handicap: int = 0


PEOPLE = {1: P(1, "Ann"), 2: P(2, "Bob"), 3: P(3, "Cy")}


def test_lines_by_score_with_opponent_numbers_colours_and_stones():
    games = [
        G(1, 1, 2, "1-0"),
        G(1, 3, None, "bye+"),
        G(2, 2, 3, "1/2", handicap=3),
        G(2, 1, None, "bye-"),
        G(3, 3, 1, "0-1ff"),
    ]
    rounds, lines = crosstable(games, PEOPLE)
    assert rounds == [1, 2, 3]
    by_name = {line.player.full_name: line for line in lines}
    assert [line.player.full_name for line in lines] == ["Ann", "Cy", "Bob"]  # 2, 1.5, 0.5
    assert (
        by_name["Ann"].score == 2.0 and by_name["Cy"].score == 1.5 and by_name["Bob"].score == 0.5
    )
    ann, cy, bob = lines
    assert ann.cells == [f"{bob.number}+/w", "0-", f"{cy.number}+!b"]  # a forfeit win: "!"
    assert bob.cells == [f"{ann.number}-/b", f"{cy.number}=/w3", ""]
    assert cy.cells == ["0+", f"{bob.number}=/b3", f"{ann.number}-!w"]


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
