"""Exports of exactly the rows a list page's filters select: CSV, XLSX, fixed-width TXT, JSON.

The writers are plain generators over the flat rows (ratings.selectors.flat_row), so the views
stream them (a 100,000-row list is never held in memory as text) and tests can call them directly.
Ratings are the published integers; RD appears for ICCF only.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from ratings.engines.core.rounding import half_up_int

FORMATS = {
    "csv": "text/csv; charset=utf-8",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "txt": "text/plain; charset=utf-8",
    "json": "application/json",
}


@dataclass(frozen=True)
class ExportColumn:
    key: str
    header: str
    width: int  # TXT column width
    numeric: bool = False


def columns_for(system) -> list[ExportColumn]:
    """The columns of a ``ratings.systems.System``'s list exports."""
    cols = [
        ExportColumn("rank", "Rank", 6, True),
        ExportColumn("fid", "Id", 10),
        ExportColumn("surname", "Surname", 24),
        ExportColumn("given_name", "Given name", 18),
        ExportColumn("country", "Ctry", 4),
        ExportColumn("club", "Club", 20),
    ]
    if system.shows_grade:
        cols.append(ExportColumn("grade", "Grade", 5))
    cols.append(ExportColumn("published_rating", "Rating", 6, True))
    if system.shows_rd:
        cols.append(ExportColumn("published_rd", "RD", 4, True))
    cols += [
        ExportColumn("games", "Games", 6, True),
        ExportColumn("change", "Change", 6, True),
        ExportColumn("flag", "Flag", 4),
    ]
    return cols


def _value(row: dict, key: str):
    if key == "change":
        return None if row["change"] is None else half_up_int(row["change"])
    if key == "flag":
        return "P" if row["provisional"] else ("H" if row["half_rating"] else "")
    return row[key]


def _cells(row: dict, columns: list[ExportColumn]) -> list:
    return [_value(row, c.key) for c in columns]


def csv_lines(rows: Iterable[dict], system) -> Iterator[str]:
    columns = columns_for(system)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow([c.header for c in columns])
    for i, row in enumerate(rows):
        writer.writerow(["" if v is None else v for v in _cells(row, columns)])
        if i % 500 == 0:
            yield buffer.getvalue()
            buffer.seek(0)
            buffer.truncate()
    yield buffer.getvalue()


def txt_lines(rows: Iterable[dict], system, title: str) -> Iterator[str]:
    """Fixed width, one player a line, as federations publish their lists (ASCII-safe widths)."""
    columns = columns_for(system)

    def fit(value, column: ExportColumn) -> str:
        text = "" if value is None else str(value)
        text = text[: column.width]
        return text.rjust(column.width) if column.numeric else text.ljust(column.width)

    yield f"{title}\n"
    yield " ".join(fit(c.header, c) for c in columns).rstrip() + "\n"
    yield " ".join("-" * c.width for c in columns) + "\n"
    for row in rows:
        yield (
            " ".join(fit(v, c) for v, c in zip(_cells(row, columns), columns, strict=True)).rstrip()
            + "\n"
        )


def json_chunks(rows: Iterable[dict], meta: dict) -> Iterator[str]:
    """{"list": meta, "rows": [...]} written incrementally; rows carry unrounded values too."""
    yield '{"list": ' + json.dumps(meta) + ', "rows": ['
    for i, row in enumerate(rows):
        item = {
            "rank": row["rank"],
            "id": row["fid"],
            "surname": row["surname"],
            "given_name": row["given_name"],
            "country": row["country"],
            "club": row["club"],
            "grade": row["grade"],
            "active": row["active"],
            "rating": row["published_rating"],
            "rating_unrounded": row["rating"],
            "rd": row["published_rd"],
            "rd_unrounded": row["rd"],
            "games": row["games"],
            "change": row["change"],
            "provisional": row["provisional"],
            "half_rating": row["half_rating"],
        }
        yield ("," if i else "") + json.dumps(item)
    yield "]}"


def xlsx_bytes(rows: Iterable[dict], system, title: str) -> bytes:
    from openpyxl import Workbook

    columns = columns_for(system)
    workbook = Workbook(write_only=True)
    sheet = workbook.create_sheet(title=title[:31] or "list")
    sheet.append([c.header for c in columns])
    for row in rows:
        sheet.append(_cells(row, columns))
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()
