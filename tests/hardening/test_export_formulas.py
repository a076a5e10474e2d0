"""No export hands a spreadsheet a live formula, and numbers stay numbers.

Enumerated: every export format (ratings.web.exports.FORMATS; a new one fails until it is covered
here) × every rating system × every text column × every formula start of the OWASP CSV-injection
guidance, through the writers; then the audit's reproduction through the export view of a
published list (a surname =HYPERLINK(...) as an EGF import would bring it).
"""

from __future__ import annotations

import csv
import io
import json

import pytest
from openpyxl import load_workbook

from ratings.systems import ALL as SYSTEMS
from ratings.web import exports

PAYLOADS = [
    '=HYPERLINK("http://evil.example/","click")',
    "+1+cmd|' /C calc'!A0",
    "-2+3",
    "@SUM(A1:A9)",
    "\t=1+1",
    "\r=1+1",
    "＝1+1",
]
COVERED = {"csv", "xlsx", "txt", "json"}


def _row(**text) -> dict:
    row = {
        "rank": 1,
        "fid": "101",
        "surname": "Adams",
        "given_name": "Ann",
        "country": "DE",
        "club": "Berlin",
        "grade": "1d",
        "active": True,
        "rating": 2001.4,
        "published_rating": 2001,
        "rd": 80.2,
        "published_rd": 80,
        "games": 3,
        "change": -12.6,  # the unrounded change; the published one is a number, not text
        "published_change": -13,
        "provisional": False,
        "half_rating": False,
    }
    row.update(text)
    row.setdefault("name", f"{row['surname']}, {row['given_name']}")  # as the selector writes it
    return row


def _text_columns(system):
    return [c for c in exports.columns_for(system) if not c.numeric and c.key != "flag"]


def test_every_export_format_is_covered():
    assert set(exports.FORMATS) == COVERED


def _export(fmt: str, rows, system: str) -> list[list]:
    """The export parsed back the way a spreadsheet reads it: a list of rows of cells."""
    if fmt == "csv":
        return list(csv.reader(io.StringIO("".join(exports.csv_lines(rows, system)))))
    if fmt == "xlsx":
        sheet = load_workbook(io.BytesIO(exports.xlsx_bytes(rows, system, "t"))).active
        for line in sheet.iter_rows():
            for cell in line:
                assert cell.data_type != "f", cell.value  # no formula cell, ever
        return [[c.value for c in line] for line in sheet.iter_rows()]
    if fmt == "txt":
        lines = "".join(exports.txt_lines(rows, system, "t")).splitlines()
        return [[line] for line in lines[3:]]
    body = json.loads("".join(exports.json_chunks(rows, {})))
    return [list(item.values()) for item in body["results"]]


CASES = [
    (fmt, system, column.key)
    for fmt in sorted(COVERED)
    for system in SYSTEMS
    for column in _text_columns(system)
]


@pytest.mark.parametrize(("fmt", "system", "key"), CASES)
def test_no_text_cell_starts_a_formula(fmt, system, key):
    rows = [_row(**{key: payload}) for payload in PAYLOADS]
    parsed = _export(fmt, rows, system)
    cells = [str(c) for line in parsed for c in line if c is not None]
    for payload in PAYLOADS:
        if fmt == "json":  # data for programs: the value exactly
            assert payload in cells
        elif fmt == "xlsx":  # a typed string cell: the text exactly, never evaluated
            assert payload in cells or payload.replace("\r", "\n") in cells  # XML folds CR
        elif fmt == "csv":
            assert "'" + payload in cells, payload
            assert payload not in cells
        else:  # txt: fixed width; the field starts with the apostrophe
            text = "\n".join(cells)
            width = next(c.width for c in exports.columns_for(system) if c.key == key)
            expected = exports.CONTROL.sub("\ufffd", "'" + payload)[:width].strip()
            assert expected in text, (expected, text)
    if fmt in ("csv", "xlsx"):
        starts = exports.FORMULA_STARTS
        head = parsed[0] if fmt == "csv" else [str(v) for v in parsed[0]]
        for line in parsed[1:]:
            for header, value in zip(head, line, strict=True):
                if fmt == "csv" and isinstance(value, str) and header != "Change":
                    assert not value.startswith(starts), (header, value)


@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
@pytest.mark.parametrize("system", SYSTEMS)
def test_negative_numbers_stay_numbers(fmt, system):
    parsed = _export(fmt, [_row(surname="-5")], system)
    header, line = parsed[0], parsed[1]
    change = line[header.index("Change")]
    surname = line[header.index("Surname")]
    if fmt == "csv":
        assert change == "-13" and int(change) == -13  # unquoted number text
        assert surname == "'-5"  # text that looks like a number is text
    else:
        assert change == -13 and isinstance(change, int)
        assert surname == "-5"


@pytest.mark.django_db
@pytest.mark.parametrize("fmt", sorted(COVERED))
def test_the_audits_hyperlink_through_the_export_view(client, fmt):
    from federation.models import Player
    from tests.ratings.web.factories import standard_world

    world = standard_world()
    payload = PAYLOADS[0]
    Player.objects.filter(pk=world.players[0].pk).update(surname=payload)
    response = client.get(f"/federations/fed/lists/2026Q2/export.{fmt}")
    assert response.status_code == 200
    body = b"".join(response.streaming_content) if response.streaming else response.content
    if fmt == "xlsx":
        sheet = load_workbook(io.BytesIO(body)).active
        assert all(c.data_type != "f" for line in sheet.iter_rows() for c in line)
        assert payload in [c.value for line in sheet.iter_rows() for c in line]
    elif fmt == "json":
        assert payload in [r["surname"] for r in json.loads(body)["results"]]
    else:
        text = body.decode()
        assert "'=HYPERLINK" in text
        assert not any(
            line.startswith("=") or ",=" in line or '"=' in line for line in text.splitlines()
        )
