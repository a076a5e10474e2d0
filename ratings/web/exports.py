"""Exports of exactly the rows a list page's filters select: CSV, XLSX, fixed-width TXT, JSON.

The writers are plain generators over the flat rows (ratings.selectors.lists.flat_row): the
whole list's are written to a file once (ratings.web.published_files), a filtered selection's
are streamed (a 100,000-row list is never held in memory as text), and tests call them directly.
Ratings and changes are the published integers (a change is the difference of two published
ratings, ratings.numbers); the JSON export carries the unrounded values beside them. RD appears
for ICCF only. Names come from outside files, so every spreadsheet-readable format
neutralises formulas (neutralise_formula, typed XLSX text); JSON carries the values exactly.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from django.http import HttpResponse, StreamingHttpResponse

from ratings.models import RatingList

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
        return row["published_change"]
    if key == "flag":
        return "P" if row["provisional"] else ("H" if row["half_rating"] else "")
    return row[key]


# OWASP CSV injection: a cell starting with one of these is a formula to a spreadsheet (the
# full-width forms too, which some spreadsheets fold). Text cells starting so get a leading
# apostrophe in CSV and TXT; XLSX writes text as typed string cells, which are never evaluated.
# Numbers stay numbers (a negative change is an int, not text).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\n", "＝", "＋", "－", "＠")


CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def neutralise_formula(value):
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def _cells(row: dict, columns: list[ExportColumn]) -> list:
    return [_value(row, c.key) for c in columns]


def _text_safe_cells(row: dict, columns: list[ExportColumn]) -> list:
    return [neutralise_formula(v) for v in _cells(row, columns)]


def csv_lines(rows: Iterable[dict], system) -> Iterator[str]:
    columns = columns_for(system)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow([c.header for c in columns])
    for i, row in enumerate(rows):
        writer.writerow(["" if v is None else v for v in _text_safe_cells(row, columns)])
        if i % 500 == 0:
            yield buffer.getvalue()
            buffer.seek(0)
            buffer.truncate()
    yield buffer.getvalue()


def txt_lines(rows: Iterable[dict], system, title: str) -> Iterator[str]:
    """Fixed width, one player a line, as federations publish their lists (ASCII-safe widths)."""
    columns = columns_for(system)

    def fit(value, column: ExportColumn) -> str:
        text = CONTROL.sub("\ufffd", "" if value is None else str(value))  # one line per player
        text = text[: column.width]
        return text.rjust(column.width) if column.numeric else text.ljust(column.width)

    yield f"{title}\n"
    yield " ".join(fit(c.header, c) for c in columns).rstrip() + "\n"
    yield " ".join("-" * c.width for c in columns) + "\n"
    for row in rows:
        yield (
            " ".join(
                fit(v, c) for v, c in zip(_text_safe_cells(row, columns), columns, strict=True)
            ).rstrip()
            + "\n"
        )


def entry_record(row: dict) -> dict:
    """An entry as the JSON export and the API's list pages both write it (one vocabulary)."""
    return {
        "rank": row["rank"],
        "id": row["fid"],
        "name": row["name"],
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
        "change": row["published_change"],
        "change_unrounded": row["change"],
        "provisional": row["provisional"],
        "half_rating": row["half_rating"],
    }


def json_chunks(rows: Iterable[dict], meta: dict) -> Iterator[str]:
    """{"list": meta, "results": [...]} written incrementally, entries as the API writes them."""
    yield '{"list": ' + json.dumps(meta) + ', "results": ['
    for i, row in enumerate(rows):
        yield ("," if i else "") + json.dumps(entry_record(row))
    yield "]}"


def xlsx_bytes(rows: Iterable[dict], system, title: str) -> bytes:
    from openpyxl import Workbook
    from openpyxl.cell import WriteOnlyCell
    from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE

    columns = columns_for(system)
    workbook = Workbook(write_only=True)
    sheet = workbook.create_sheet(title=title[:31] or "list")

    def cell(value):
        if not isinstance(value, str):
            return value
        # A typed string cell: "=HYPERLINK(...)" is shown as text, never evaluated.
        typed = WriteOnlyCell(sheet, value=ILLEGAL_CHARACTERS_RE.sub("\ufffd", value))
        typed.data_type = "s"
        return typed

    sheet.append([c.header for c in columns])
    for row in rows:
        sheet.append([cell(v) for v in _cells(row, columns)])
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


def chunks(
    rating_list: RatingList, fmt: str, rows: Iterable[dict], system, *, filters: dict[str, str]
) -> Iterator[str | bytes]:
    """The export of `rows` (of `rating_list`, selected by `filters`) in the format `fmt`."""
    federation, period = rating_list.federation, rating_list.period
    if fmt == "csv":
        return csv_lines(rows, system)
    if fmt == "txt":
        return txt_lines(rows, system, f"{federation.name} {period.code}")
    if fmt == "json":
        published = rating_list.published_at
        meta = {
            "federation": federation.code,
            "period": period.code,
            "valid_from": period.valid_from.isoformat(),
            "published_at": published.isoformat() if published else None,
            "filters": filters,
        }
        return json_chunks(rows, meta)
    return iter([xlsx_bytes(rows, system, f"{federation.code} {period.code}")])


def streamed(
    rating_list: RatingList, fmt: str, rows: Iterable[dict], system, *, filters: dict[str, str]
) -> HttpResponse:
    """The export as a response: text formats streamed, XLSX (a zip) whole."""
    written = chunks(rating_list, fmt, rows, system, filters=filters)
    if fmt == "xlsx":
        return HttpResponse(b"".join(written), content_type=FORMATS[fmt])
    return StreamingHttpResponse(written, content_type=FORMATS[fmt])
