"""A solving tournament's score sheet: solvers × problems, points and minutes (pure).

The header row names the columns: ``solver`` (a federation id, or a name the importer looks
up), optionally ``name`` (ignored, for the reader), then one column per problem written
``R<round>.<number>`` (also ``R1#3``, ``1.3``). Each cell is the points, optionally with the
minutes used: ``5``, ``2.5``, ``4,5``, ``5/12``; an empty cell is no score. Points have at most
two decimals and must not exceed the problem's maximum. Every problem is reported with its line
and column, so a sheet in the admin shows each error in its own cell.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from tournaments.formats.tabular import Row

_PROBLEM = re.compile(r"^R?\s*(\d{1,3})\s*[.#/-]\s*(\d{1,4})$", re.IGNORECASE)
_CELL = re.compile(r"^(\d{1,2}(?:[.,]\d{1,2})?)\s*(?:/\s*(\d{1,4}))?$")
MAX_MINUTES = 1440  # a day: more is a typing error, not a solving round
SOLVER = "solver"
IGNORED = frozenset({"name", "country", "rank", "place", "total"})


@dataclass(frozen=True, order=True)
class ProblemKey:
    round: int
    number: int

    def __str__(self) -> str:
        return f"R{self.round}.{self.number}"


@dataclass(frozen=True)
class Score:
    points: Decimal
    minutes: int | None


@dataclass(frozen=True)
class SheetIssue:
    """``line 4, R1.3: 6 points; the problem gives at most 5.00``. ``column`` None: the row."""

    line: int
    column: str | None  # "solver", "R1.3", or None for the whole row / header
    message: str
    label: str = "line"

    def __str__(self) -> str:
        where = f"{self.label} {self.line}" + (f", {self.column}" if self.column else "")
        return f"{where}: {self.message}"


@dataclass(frozen=True)
class SheetRow:
    line: int
    solver: str
    scores: Mapping[ProblemKey, Score | None]  # None: the cell is empty (no score)


@dataclass(frozen=True)
class ParsedSheet:
    problems: tuple[ProblemKey, ...]  # the columns, in sheet order
    rows: tuple[SheetRow, ...]  # every row with a solver; a bad cell reads as empty
    errors: tuple[SheetIssue, ...]

    @property
    def ok(self) -> bool:
        return not self.errors


def problem_key(text: str) -> ProblemKey | None:
    match = _PROBLEM.match(text.strip())
    return ProblemKey(int(match.group(1)), int(match.group(2))) if match else None


def parse_cell(text: str, max_points: Decimal) -> tuple[Score | None, str | None]:
    """(score, None) or (None, the reason); an empty cell is (None, None)."""
    text = text.strip()
    if not text:
        return None, None
    match = _CELL.match(text)
    if not match:
        return None, f"{text!r} is not points (5, 2.5) or points/minutes (5/12)"
    try:
        points = Decimal(match.group(1).replace(",", "."))
    except InvalidOperation:  # pragma: no cover - the pattern admits only numbers
        return None, f"{text!r} is not a number of points"
    if points > max_points:
        return None, f"{points} points; the problem gives at most {max_points}"
    minutes = int(match.group(2)) if match.group(2) else None
    if minutes is not None and minutes > MAX_MINUTES:
        return None, f"{minutes} minutes; at most {MAX_MINUTES}"
    return Score(points.quantize(Decimal("0.01")), minutes), None


def format_cell(points: Decimal, minutes: int | None) -> str:
    """A stored score as the sheet writes it: ``5``, ``2.5``, ``4.25/12``."""
    text = format(points.normalize(), "f") if points else "0"
    return f"{text}/{minutes}" if minutes is not None else text


def parse_sheet(
    rows: Sequence[Row],
    *,
    max_points: Mapping[ProblemKey, Decimal],
    label: str = "line",
) -> ParsedSheet:
    """The sheet against the event's problems (``max_points``: each problem's maximum)."""
    if not rows:
        return ParsedSheet((), (), (SheetIssue(0, None, "the sheet is empty", label),))
    header, body = rows[0], rows[1:]
    columns, errors = _columns(header, max_points, label)
    if errors:
        return ParsedSheet((), (), tuple(errors))
    problems = tuple(key for key in columns.values() if isinstance(key, ProblemKey))
    parsed, seen = [], {}
    solver_at = next(i for i, key in columns.items() if key == SOLVER)
    for row in body:
        solver = row.cells[solver_at].strip() if solver_at < len(row.cells) else ""
        scores: dict[ProblemKey, Score | None] = {}
        row_errors = []
        if len(row.cells) > len(header.cells):
            row_errors.append(
                SheetIssue(
                    row.line,
                    None,
                    f"{len(row.cells)} cells; the header has {len(header.cells)}",
                    label,
                )
            )
        for at, key in columns.items():
            if not isinstance(key, ProblemKey):
                continue
            text = row.cells[at] if at < len(row.cells) else ""
            score, problem = parse_cell(text, max_points[key])
            if problem:
                row_errors.append(SheetIssue(row.line, str(key), problem, label))
            scores[key] = score
        if not solver:
            if any(s is not None for s in scores.values()):
                row_errors.append(SheetIssue(row.line, SOLVER, "scores without a solver", label))
            else:
                continue  # an empty row of the admin sheet
        elif solver.casefold() in seen:
            row_errors.append(
                SheetIssue(
                    row.line,
                    SOLVER,
                    f"{solver!r} is already on line {seen[solver.casefold()]}",
                    label,
                )
            )
        else:
            seen[solver.casefold()] = row.line
            # kept even with bad cells so its solver is still looked up (nothing is saved
            # while ``errors`` is not empty)
            parsed.append(SheetRow(row.line, solver, scores))
        errors.extend(row_errors)
    return ParsedSheet(problems, tuple(parsed), tuple(errors))


def _columns(header: Row, max_points: Mapping[ProblemKey, Decimal], label: str):
    columns: dict[int, object] = {}
    errors: list[SheetIssue] = []
    seen: dict[object, str] = {}
    for at, text in enumerate(header.cells):
        name = text.strip().casefold()
        key: object
        if name in (SOLVER, "solver id", "id"):
            key = SOLVER
        elif name in IGNORED or not name:
            continue
        else:
            key = problem_key(text)
            if key is None:
                errors.append(
                    SheetIssue(
                        header.line,
                        None,
                        f"column {text!r} is neither solver, name nor a problem (R1.3)",
                        label,
                    )
                )
                continue
            if key not in max_points:
                known = ", ".join(map(str, sorted(max_points))) or "none yet"
                errors.append(
                    SheetIssue(
                        header.line, None, f"{key} is no problem of the event ({known})", label
                    )
                )
                continue
        if key in seen:
            errors.append(SheetIssue(header.line, None, f"column {text!r} is twice", label))
            continue
        seen[key] = text
        columns[at] = key
    if SOLVER not in seen:
        errors.append(SheetIssue(header.line, None, "no solver column in the header", label))
    return columns, errors
