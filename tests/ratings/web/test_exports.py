"""Exports carry exactly the rows the list page's filters select, in its order, in four formats."""

from __future__ import annotations

import csv
import io
import json

import pytest
from openpyxl import load_workbook

from tests.ratings.web.factories import standard_world

pytestmark = pytest.mark.django_db

LIST = "/federations/fed/lists/2026Q2/"


def _body(response) -> bytes:
    return b"".join(response.streaming_content) if response.streaming else response.content


def _csv(client, query: str = "") -> list[list[str]]:
    response = client.get(f"{LIST}export.csv?{query}")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert 'filename="fed-2026Q2.csv"' in response["Content-Disposition"]
    return list(csv.reader(io.StringIO(_body(response).decode())))


def test_csv_has_every_listed_row_with_published_values(client):
    standard_world()
    rows = _csv(client)
    assert rows[0] == [
        "Rank",
        "Id",
        "Surname",
        "Given name",
        "Ctry",
        "Club",
        "Rating",
        "RD",
        "Games",
        "Change",
        "Flag",
    ]
    assert [r[1] for r in rows[1:]] == ["101", "102", "103", "105"]  # Davis is not listed
    adams = rows[1]
    assert adams[6] == "2011" and adams[7] == "80" and adams[9] == "11"
    baker = rows[2]
    assert baker[6] == "1940" and baker[9] == "-10"  # 1950.4 -> 1940.0: change -10.4
    assert rows[4][9] == ""  # Evans is new: no change


def test_csv_follows_filters_and_sort(client):
    standard_world()
    rows = _csv(client, "country=DE&sort=-name")
    assert [r[2] for r in rows[1:]] == ["Evans", "Clark", "Adams"]
    rows = _csv(client, "q=ba")
    assert [r[2] for r in rows[1:]] == ["Baker"]
    rows = _csv(client, "country=SE")
    assert rows[1:] == []


def test_txt_is_fixed_width(client):
    standard_world()
    response = client.get(f"{LIST}export.txt?country=DE")
    lines = _body(response).decode().splitlines()
    assert lines[0] == "Federation FED 2026Q2"
    header, rule, *data = lines[1:]
    assert len(data) == 3
    widths = [len(part) for part in rule.split(" ")]
    starts = [sum(widths[:i]) + i for i in range(len(widths))]
    for line in data:
        fields = [line[s : s + w].strip() for s, w in zip(starts, widths, strict=True)]
        assert fields[1] in {"101", "103", "105"}
        assert fields[0].isdigit() and fields[6].isdigit()
    assert data[0][: widths[0]] == "     1"  # numbers right-aligned


def test_json_has_the_filtered_rows_and_unrounded_values(client):
    standard_world()
    response = client.get(f"{LIST}export.json?club=Berlin")
    assert response["Content-Type"] == "application/json"
    data = json.loads(_body(response))
    assert data["list"]["period"] == "2026Q2" and data["list"]["filters"] == {"club": "Berlin"}
    assert [r["id"] for r in data["results"]] == ["101", "105"]
    assert data["results"][0]["rating"] == 2011 and data["results"][0]["rating_unrounded"] == 2010.6


def test_json_export_speaks_the_apis_vocabulary(client):
    """The same keys and values as the API's page of the same list and filter."""
    standard_world()
    export = json.loads(_body(client.get(f"{LIST}export.json?club=Berlin")))
    api = client.get("/api/v1/federations/fed/lists/2026Q2/?club=Berlin").json()
    assert export["results"] == api["results"]


def test_xlsx_opens_with_the_same_rows(client):
    standard_world()
    response = client.get(f"{LIST}export.xlsx?sort=name")
    assert response["Content-Type"].startswith("application/vnd.openxmlformats")
    sheet = load_workbook(io.BytesIO(response.content)).active
    values = list(sheet.iter_rows(values_only=True))
    assert values[0][:3] == ("Rank", "Id", "Surname")
    assert [v[2] for v in values[1:]] == ["Adams", "Baker", "Clark", "Evans"]
    assert values[1][6] == 2011


def test_exports_of_a_non_iccf_list_have_no_rd_column(client):
    standard_world(system="egf", code="go")
    rows = list(
        csv.reader(
            io.StringIO(_body(client.get("/federations/go/lists/2026Q2/export.csv")).decode())
        )
    )
    assert "RD" not in rows[0] and "Grade" in rows[0]
