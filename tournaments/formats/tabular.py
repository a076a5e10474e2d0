"""Rows of text cells from what officials bring: pasted lines, CSV and XLSX files (pure).

Every row keeps the number people see (the file line, the spreadsheet row), so each parser built
on top can name the line of every problem. Blank rows and rows starting with ``#`` are skipped.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from pathlib import PurePath

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
MAX_ROWS = 20_000  # far beyond any event; a bigger file is refused, not parsed


@dataclass(frozen=True)
class Row:
    line: int  # 1-based line of the paste or file, or spreadsheet row
    cells: tuple[str, ...]


class TabularError(ValueError):
    """The file cannot be read at all (not CSV/XLSX, too large); names the file and why."""


def _kept(line: int, cells: list[str]) -> Row | None:
    stripped = tuple(c.strip() for c in cells)
    while stripped and not stripped[-1]:
        stripped = stripped[:-1]
    if not stripped or stripped[0].startswith("#"):
        return None
    return Row(line, stripped)


def _delimiter(line: str) -> str | None:
    """Tab from a spreadsheet, else ``;`` or ``,``; None: split on runs of blanks."""
    for candidate in ("\t", ";", ","):
        if candidate in line:
            return candidate
    return None


def _checked(rows: list[Row]) -> list[Row]:
    if len(rows) > MAX_ROWS:
        raise TabularError(f"{len(rows):,} rows; at most {MAX_ROWS:,} are read")
    for row in rows:
        for cell in row.cells:
            if _CONTROL.search(cell):
                raise TabularError(f"line {row.line}: a control character in {cell[:30]!r}")
    return rows


def pasted_rows(text: str) -> list[Row]:
    """Lines as typed or pasted: each line split at tabs, ``;``, ``,`` or blanks."""
    rows = []
    for number, line in enumerate(text.splitlines(), start=1):
        delimiter = _delimiter(line)
        cells = line.split(delimiter) if delimiter else line.split()
        kept = _kept(number, cells)
        if kept:
            rows.append(kept)
    return _checked(rows)


def csv_rows(data: bytes) -> list[Row]:
    """A CSV file (UTF-8 with or without BOM, else Latin-1), delimiter ``,`` ``;`` or tab."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    first = next((line for line in text.splitlines() if line.strip()), "")
    delimiter = _delimiter(first) or ","
    try:
        return _checked(_numbered_csv(text, delimiter))
    except csv.Error as error:
        raise TabularError(f"not a readable CSV file: {error}") from None


def _numbered_csv(text: str, delimiter: str) -> list[Row]:
    """CSV rows with the file line each starts on (a quoted cell may span lines)."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    rows, line = [], 1
    for cells in reader:
        kept = _kept(line, cells)
        if kept is not None:
            rows.append(kept)
        line = reader.line_num + 1
    return rows


def _cell_text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, datetime):
        return value.date().isoformat() if value.time() == datetime.min.time() else str(value)
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, float):
        # 4.5 stays 4.5, 5.0 reads 5: what the official typed, not a float's repr
        return format(Decimal(repr(value)).normalize(), "f")
    return str(value)


def xlsx_rows(data: bytes) -> list[Row]:
    """The first worksheet of an XLSX workbook, cell values as text."""
    from openpyxl import load_workbook

    try:
        book = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception as error:  # openpyxl raises many types for a damaged or foreign file
        raise TabularError(f"not a readable XLSX workbook ({type(error).__name__})") from None
    try:
        sheet = book.worksheets[0]
        rows = []
        for number, values in enumerate(sheet.iter_rows(values_only=True), start=1):
            if number > MAX_ROWS + 1:
                raise TabularError(f"more than {MAX_ROWS:,} rows; at most {MAX_ROWS:,} are read")
            kept = _kept(number, [_cell_text(v) for v in values])
            if kept is not None:
                rows.append(kept)
    finally:
        book.close()
    return _checked(rows)


def file_rows(data: bytes, filename: str) -> list[Row]:
    """CSV or XLSX by the file's extension (``.xlsx``; anything else is read as CSV)."""
    if PurePath(filename).suffix.lower() in (".xlsx", ".xlsm"):
        return xlsx_rows(data)
    return csv_rows(data)
