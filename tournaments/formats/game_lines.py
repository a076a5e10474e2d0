"""Game results as lines: one game per line, as pasted, typed in the grid or read from CSV (pure).

Columns, in this order unless a header row names them (``white, black, result, finished,
reported, round, board, white_replaces, black_replaces``); the first five are required::

    white id, black id, result, finished date, reported date[, round[, board[, white replaces
    [, black replaces]]]]

``round`` defaults to 1. ``board`` (team events) is checked against the team's board order.
``white_replaces`` / ``black_replaces`` name the team member a substitute played instead of
(ICCF rule 6). Results: ``1-0 0-1 1/2`` (also ``½ = 1:0 0:1 ½-½ 1/2-1/2``), forfeits ``1-0ff
0-1ff 0-0ff`` (also ``+- -+ --``), ``*`` not finished (no finished date). Dates ISO
``2026-03-01`` or ``01.03.2026``. Every problem is reported with its line; nothing is guessed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from tournaments.formats.tabular import Row

COLUMNS = (
    "white",
    "black",
    "result",
    "finished",
    "reported",
    "round",
    "board",
    "white_replaces",
    "black_replaces",
)
REQUIRED = COLUMNS[:5]
_ALIASES = {
    "white id": "white",
    "black id": "black",
    "finished on": "finished",
    "finished date": "finished",
    "reported on": "reported",
    "reported date": "reported",
    "white replaces": "white_replaces",
    "black replaces": "black_replaces",
}
# Written forms -> the stored result codes (tournaments.models.Result values; a test checks).
RESULTS = {
    "1-0": "1-0",
    "1:0": "1-0",
    "0-1": "0-1",
    "0:1": "0-1",
    "1/2": "1/2",
    "½": "1/2",
    "=": "1/2",
    "½-½": "1/2",
    "1/2-1/2": "1/2",
    "0.5-0.5": "1/2",
    "1-0ff": "1-0ff",
    "+-": "1-0ff",
    "+:-": "1-0ff",
    "0-1ff": "0-1ff",
    "-+": "0-1ff",
    "-:+": "0-1ff",
    "0-0ff": "0-0ff",
    "--": "0-0ff",
    "-:-": "0-0ff",
    "*": "*",
}
UNFINISHED = "*"
MAX_ROUND = 999
_ID = re.compile(r"^[A-Za-z0-9_.-]{1,20}$")
_DOTTED = re.compile(r"^(\d{1,2})\.(\d{1,2})\.(\d{4})$")
_NUMBER = re.compile(r"^[0-9]{1,4}$")


@dataclass(frozen=True)
class LineIssue:
    """What is wrong and where: ``line 7: black: no player with id 'X9'``."""

    line: int
    message: str
    label: str = "line"  # "line" for pastes and files, "row" for the admin grid

    def __str__(self) -> str:
        return f"{self.label} {self.line}: {self.message}"


@dataclass(frozen=True)
class GameLine:
    line: int
    white: str  # as written: a federation id, or a name the importer looks up
    black: str
    result: str  # a stored result code
    finished_on: date | None
    reported_on: date | None
    round: int = 1
    board: int | None = None
    white_replaces: str | None = None
    black_replaces: str | None = None


@dataclass(frozen=True)
class ParsedLines:
    games: tuple[GameLine, ...]
    errors: tuple[LineIssue, ...]

    @property
    def ok(self) -> bool:
        return not self.errors


def parse_date(text: str) -> date | None:
    """``2026-03-01`` or ``01.03.2026``; None when it is neither or no real day."""
    try:
        if _DOTTED.match(text):
            day, month, year = map(int, _DOTTED.match(text).groups())
            return date(year, month, day)
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
            return date.fromisoformat(text)
    except ValueError:
        return None
    return None


def _header(row: Row) -> dict[str, int] | None:
    names = [_ALIASES.get(c.casefold().strip(), c.casefold().strip()) for c in row.cells]
    if "white" not in names or "black" not in names:
        return None  # the first line is a game
    return {name: i for i, name in enumerate(names)}


def _positions(header: dict[str, int] | None) -> dict[str, int]:
    return header if header is not None else {name: i for i, name in enumerate(COLUMNS)}


def parse_rows(rows: Sequence[Row], *, label: str = "line") -> ParsedLines:
    """Every row as a game, or the reasons it is not one (all of them, not the first)."""
    errors: list[LineIssue] = []
    header = _header(rows[0]) if rows else None
    if header is not None:
        unknown = sorted(set(header) - set(COLUMNS))
        missing = [c for c in REQUIRED if c not in header]
        if unknown or missing:
            what = []
            if unknown:
                what.append(f"unknown column(s) {', '.join(unknown)}")
            if missing:
                what.append(f"missing column(s) {', '.join(missing)}")
            return ParsedLines((), (LineIssue(rows[0].line, "; ".join(what), label),))
        rows = rows[1:]
    positions = _positions(header)
    games = []
    for row in rows:
        game, problems = _game(row, positions)
        errors.extend(LineIssue(row.line, p, label) for p in problems)
        if game is not None:
            games.append(game)
    return ParsedLines(tuple(games), tuple(errors))


def _game(row: Row, positions: dict[str, int]) -> tuple[GameLine | None, list[str]]:
    problems: list[str] = []
    if len(row.cells) > len(positions):
        problems.append(
            f"{len(row.cells)} values; at most {len(positions)} "
            f"({', '.join(sorted(positions, key=positions.get))})"
        )

    def cell(name: str) -> str:
        at = positions.get(name)
        return row.cells[at].strip() if at is not None and at < len(row.cells) else ""

    for name in REQUIRED[:3]:
        if not cell(name):
            problems.append(f"{name}: missing")
    white, black = cell("white"), cell("black")
    for name, value in (("white", white), ("black", black)):
        if value and len(value) > 100:
            problems.append(f"{name}: {value[:30]!r}… is too long for an id or a name")
    if white and white == black:
        problems.append(f"white and black are both {white!r}: a player cannot play himself")
    written = cell("result")
    result = RESULTS.get(written.replace(" ", "").lower()) if written else None
    if written and result is None:
        problems.append(
            f"result {written!r} is not one of 1-0, 0-1, 1/2, 1-0ff, 0-1ff, 0-0ff, * (not finished)"
        )
    dates = {}
    for name in ("finished", "reported"):
        text = cell(name)
        dates[name] = parse_date(text) if text else None
        if text and dates[name] is None:
            problems.append(f"{name}: {text!r} is no date (write 2026-03-01 or 01.03.2026)")
        elif not text and result not in (None, UNFINISHED):
            problems.append(f"{name}: missing; a finished game needs its {name} date")
    if result == UNFINISHED and dates["finished"]:
        problems.append("result * (not finished) with a finished date")
    if dates["finished"] and dates["reported"] and dates["reported"] < dates["finished"]:
        problems.append(f"reported {dates['reported']} before finished {dates['finished']}")
    numbers = {}
    for name, default in (("round", 1), ("board", None)):
        text = cell(name)
        numbers[name] = default
        if text:
            if _NUMBER.match(text) and 1 <= int(text) <= MAX_ROUND:
                numbers[name] = int(text)
            else:
                problems.append(f"{name}: {text!r} is not a number from 1 to {MAX_ROUND}")
    replaces = {}
    for side in ("white", "black"):
        text = cell(f"{side}_replaces")
        replaces[side] = text or None
        if text and not _ID.match(text):
            problems.append(f"{side}_replaces: {text!r} is not a player id")
        if text and text == cell(side):
            problems.append(f"{side}_replaces: {text!r} cannot replace himself")
    if problems:
        return None, problems
    return (
        GameLine(
            line=row.line,
            white=white,
            black=black,
            result=result,
            finished_on=dates["finished"],
            reported_on=dates["reported"],
            round=numbers["round"],
            board=numbers["board"],
            white_replaces=replaces["white"],
            black_replaces=replaces["black"],
        ),
        [],
    )
