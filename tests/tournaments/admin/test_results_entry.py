"""The admin's one-page results entry: the WFCC sheet, the ICCF/PlayChess grid, paste and file."""

from __future__ import annotations

import io
from datetime import date

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from federation.models import Federation
from tests.factories import make_official, make_player
from tournaments.models import Event, EventKind, Game, Problem, SolverScore

pytestmark = pytest.mark.django_db


@pytest.fixture
def solving_event():
    fed = Federation.objects.create(code="wfa", name="WFCC admin", system="wfcc")
    for i in range(3):
        make_player(fed, f"S{i}", f"Solver{i}")
    event = Event.objects.create(
        federation=fed,
        name="Solving",
        code="SOLA",
        kind=EventKind.SOLVING,
        start=date(2026, 3, 1),
        end=date(2026, 3, 1),
    )
    for number in (1, 2):
        Problem.objects.create(event=event, round=1, number=number, group="twomover", original=True)
    return fed, event


def _sheet_post(rows: list[list[str]]) -> dict:
    data = {"rows": str(len(rows)), "save": "1"}
    for i, (solver, *cells) in enumerate(rows, start=1):
        data[f"s{i}-solver"] = solver
        for key, value in zip(("R1.1", "R1.2"), cells, strict=True):
            data[f"s{i}-{key}"] = value
    return data


def test_sheet_saves_in_one_submission(client, solving_event):
    fed, event = solving_event
    client.force_login(make_official("wro", fed))
    url = reverse("admin:tournaments_event_score_sheet", args=[event.pk])
    page = client.get(url + "?rows=3")
    assert page.status_code == 200 and 'name="s3-R1.2"' in page.content.decode()
    response = client.post(url, _sheet_post([["S0", "5/9", "2"], ["S1", "0", ""], ["", "", ""]]))
    assert response.status_code == 302
    assert SolverScore.objects.filter(problem__event=event).count() == 3
    shown = client.get(url).content.decode()  # the saved sheet comes back as typed
    assert 'value="5/9"' in shown and 'value="S1"' in shown


def test_sheet_shows_every_error_in_its_cell_and_saves_nothing(client, solving_event):
    fed, event = solving_event
    client.force_login(make_official("wro", fed))
    url = reverse("admin:tournaments_event_score_sheet", args=[event.pk])
    response = client.post(url, _sheet_post([["S0", "7", "2"], ["nobody", "1", "x"]]))
    assert response.status_code == 200
    grid = response.context["grid"]
    assert grid[0]["cells"][0] == ("R1.1", "7", "7 points; the problem gives at most 5.00")
    assert grid[1]["error"] == "no player of wfa with id or name 'nobody'"
    assert grid[1]["cells"][1][2].startswith("'x' is not points")
    assert "nothing was saved" in response.content.decode()
    assert SolverScore.objects.count() == 0


def test_sheet_file_preview_then_confirm(client, solving_event):
    from openpyxl import Workbook

    fed, event = solving_event
    client.force_login(make_official("wro", fed))
    book = Workbook()
    sheet = book.active
    for row in (["solver", "name", "R1.1", "R1.2"], ["S2", "Solver2", 4.5, "5/3"]):
        sheet.append(row)
    buffer = io.BytesIO()
    book.save(buffer)
    url = reverse("admin:tournaments_event_score_sheet", args=[event.pk])
    upload = SimpleUploadedFile("sheet.xlsx", buffer.getvalue())
    response = client.post(url, {"upload": "1", "upload-file": upload})
    preview = response.context["preview"]
    assert preview.errors == [] and preview.created == 2
    assert SolverScore.objects.count() == 0
    client.post(url, {"confirm": "1", "token": response.context["token"]})
    assert sorted(SolverScore.objects.values_list("points", "time_used_minutes")) == [
        (4.5, None),
        (5, 3),
    ]


def test_another_federation_cannot_open_the_sheet(client, solving_event):
    fed, event = solving_event
    other = Federation.objects.create(code="wfo", name="Other", system="wfcc")
    client.force_login(make_official("stranger", other))
    url = reverse("admin:tournaments_event_score_sheet", args=[event.pk])
    assert client.get(url).status_code == 404
    assert client.post(url, _sheet_post([["S0", "5", "5"]])).status_code == 404
    assert SolverScore.objects.count() == 0


@pytest.fixture
def game_event():
    fed = Federation.objects.create(code="ica", name="ICCF admin", system="iccf")
    for i in range(4):
        make_player(fed, str(500 + i), f"Player{i}")
    event = Event.objects.create(
        federation=fed,
        name="Open",
        code="OPA",
        kind=EventKind.INDIVIDUAL,
        start=date(2026, 1, 1),
        end=date(2026, 12, 31),
    )
    return fed, event


def test_paste_preview_names_bad_lines_then_confirm_saves(client, game_event):
    fed, event = game_event
    client.force_login(make_official("iro", fed))
    url = reverse("admin:tournaments_event_results_entry", args=[event.pk])
    change = reverse("admin:tournaments_event_change", args=[event.pk])
    assert url in client.get(change).content.decode()  # the event page links to it
    bad = "500 501 1-0 2026-02-01 2026-02-02\n502 599 1-0 2026-02-01 2026-02-02\n"
    response = client.post(url, {"lines": bad, "preview": "1", "rows": "0"})
    assert response.context["preview"].errors == [
        "line 2: black: no player of ica with id or name '599'"
    ]
    assert "token" not in response.context or response.context["token"] is None
    good = bad.replace("599", "503")
    response = client.post(url, {"lines": good, "preview": "1", "rows": "0"})
    assert len(response.context["preview"].games) == 2 and Game.objects.count() == 0
    response = client.post(url, {"confirm": "1", "token": response.context["token"]})
    assert response.status_code == 302 and response.url == url
    assert Game.objects.filter(event=event).count() == 2
    assert "has 2 games" in client.get(url).content.decode()


def test_grid_rows_are_named_by_row(client, game_event):
    fed, event = game_event
    client.force_login(make_official("iro", fed))
    url = reverse("admin:tournaments_event_results_entry", args=[event.pk])
    data = {"preview": "1", "rows": "3", "lines": ""}
    data.update({"g1-white": "500", "g1-black": "501", "g1-result": "1/2"})
    data.update({"g1-finished": "2026-02-01", "g1-reported": "2026-02-03"})
    data.update({"g3-white": "502", "g3-black": "503", "g3-result": ""})
    preview = client.post(url, data).context["preview"]
    assert preview.errors == ["row 3: result: missing"]


def test_tampered_token_is_refused(client, game_event):
    fed, event = game_event
    client.force_login(make_official("iro", fed))
    url = reverse("admin:tournaments_event_results_entry", args=[event.pk])
    lines = "500 501 1-0 2026-02-01 2026-02-02\n"
    token = client.post(url, {"lines": lines, "preview": "1", "rows": "0"}).context["token"]
    response = client.post(url, {"confirm": "1", "token": token[:-4] + "AAAA"}, follow=True)
    assert "expired or was altered" in response.content.decode()
    assert Game.objects.count() == 0


def test_sheet_of_an_accepted_event_says_why_and_saves_nothing(client, solving_event):
    fed, event = solving_event
    Event.objects.filter(pk=event.pk).update(status="accepted")
    client.force_login(make_official("wro", fed))
    url = reverse("admin:tournaments_event_score_sheet", args=[event.pk])
    response = client.post(url, _sheet_post([["S0", "5", "5"]]), follow=True)
    assert "SOLA is accepted; results are entered while it is a draft" in response.content.decode()
    assert SolverScore.objects.count() == 0
