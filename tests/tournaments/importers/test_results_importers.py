"""The game-line and score-sheet importers and ``manage.py import_results``: all or nothing."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from django.core.management import CommandError, call_command

from federation.models import AuditEvent, Federation
from tests.factories import make_official, make_player
from tournaments.formats.game_lines import RESULTS
from tournaments.formats.tabular import pasted_rows
from tournaments.importers import games, solving
from tournaments.importers.base import ImportRefused
from tournaments.models import (
    Event,
    EventKind,
    EventStatus,
    Game,
    Problem,
    Result,
    SolverScore,
    Substitution,
    Team,
    TeamMember,
)

pytestmark = pytest.mark.django_db


def test_every_written_result_is_a_stored_result_code():
    assert set(RESULTS.values()) <= set(Result.values)


@pytest.fixture
def iccf():
    fed = Federation.objects.create(code="icx", name="ICCF test", system="iccf")
    players = [make_player(fed, str(100 + i), f"Surname{i}") for i in range(6)]
    event = Event.objects.create(
        federation=fed,
        name="Open",
        code="OPEN1",
        kind=EventKind.INDIVIDUAL,
        start=date(2026, 1, 1),
        end=date(2026, 12, 31),
    )
    return fed, players, event


LINES = """100, 101, 1-0, 2026-02-01, 2026-02-02
102\t103\t1/2\t03.02.2026\t04.02.2026\t2
104;105;0-1ff;2026-02-05;2026-02-05
"""


def test_pasted_lines_preview_then_confirm_saves_games_and_audit_rows(iccf):
    fed, players, event = iccf
    user = make_official("ro", fed)
    preview = games.preview_games(event=event, rows=pasted_rows(LINES))
    assert preview.errors == []
    assert Game.objects.count() == 0  # a preview writes nothing
    games.confirm_games(event=event, rows=pasted_rows(LINES), by=user)
    saved = list(
        Game.objects.filter(event=event)
        .order_by("id")
        .values_list("white__federation_player_id", "black__federation_player_id", "result")
    )
    assert saved == [("100", "101", "1-0"), ("102", "103", "1/2"), ("104", "105", "0-1ff")]
    assert Game.objects.get(white=players[2]).round == 2
    assert Game.objects.get(white=players[2]).finished_on == date(2026, 2, 3)
    created = AuditEvent.objects.filter(object_type="tournaments.Game", action="create")
    assert created.count() == 3 and {a.actor_id for a in created} == {user.pk}
    assert AuditEvent.objects.filter(action="import", object_id=str(event.pk)).count() == 1


def test_every_bad_line_is_named_and_nothing_is_saved(iccf):
    fed, players, event = iccf
    Game.objects.create(
        event=event, round=1, white=players[0], black=players[1], result="1-0"
    )  # already entered
    text = (
        "100, 101, 1-0, 2026-02-01, 2026-02-02\n"  # line 1: duplicate of a saved game
        "102, 999, 1-0, 2026-02-01, 2026-02-02\n"  # line 2: unknown player
        "102, 103, 2-0, 2026-02-01, 2026-02-02\n"  # line 3: bad result
        "104, 105, 1-0, 2026-02-09, 2026-02-02\n"  # line 4: reported before finished
        "104, 105, 1-0, 2025-12-01, 2026-02-02\n"  # line 5: before the event
        "103, 104, 1/2, 2026-02-01, 2026-02-02\n"  # line 6: fine
        "103, 104, 1/2, 2026-02-01, 2026-02-02\n"  # line 7: twice in the paste
    )
    preview = games.preview_games(event=event, rows=pasted_rows(text))
    lines = [e.split(":")[0] for e in preview.errors]
    assert lines == ["line 1", "line 2", "line 3", "line 4", "line 5", "line 7"]
    assert "no player of icx with id or name '999'" in preview.errors[1]
    assert "'2-0'" in preview.errors[2]
    assert "same game as line 6" in preview.errors[5]
    with pytest.raises(ImportRefused):
        games.confirm_games(event=event, rows=pasted_rows(text), by=None)
    assert Game.objects.filter(event=event).count() == 1


def test_players_by_name_in_any_order_and_without_accents(iccf):
    fed, players, event = iccf
    toth = make_player(fed, "300", "Tóth")
    toth.given_name = "Sofia"
    toth.save()
    kaminska = make_player(fed, "301", "Kamińska")
    text = "Toth, Sofia; Kaminska; 1-0; 2026-03-01; 2026-03-02\n"
    preview = games.preview_games(event=event, rows=pasted_rows(text))
    assert preview.errors == []
    assert (preview.games[0].white, preview.games[0].black) == (toth, kaminska)
    ambiguous = games.preview_games(
        event=event, rows=pasted_rows("Surname; 300; 1-0; 2026-03-01; 2026-03-02")
    )
    assert "matches several players" in ambiguous.errors[0]


def test_a_header_alone_is_no_games(iccf):
    fed, players, event = iccf
    rows = pasted_rows("white, black, result, finished, reported\n")
    assert games.preview_games(event=event, rows=rows).errors == [
        "no games: paste or type at least one line"
    ]


def test_an_accepted_event_takes_no_bulk_entry(iccf):
    fed, players, event = iccf
    Event.objects.filter(pk=event.pk).update(status=EventStatus.ACCEPTED)
    event.refresh_from_db()
    preview = games.preview_games(event=event, rows=pasted_rows(LINES))
    assert "is accepted" in preview.errors[0]


@pytest.fixture
def team_event(iccf):
    fed, players, _ = iccf
    event = Event.objects.create(
        federation=fed,
        name="Olympiad",
        code="OLY",
        kind=EventKind.TEAM,
        start=date(2026, 1, 1),
        end=date(2026, 12, 31),
    )
    red = Team.objects.create(event=event, name="Red")
    blue = Team.objects.create(event=event, name="Blue")
    TeamMember.objects.create(team=red, player=players[0], board=1)
    TeamMember.objects.create(team=red, player=players[1], board=2)
    TeamMember.objects.create(team=red, player=players[4], board=3, is_substitute=True)
    TeamMember.objects.create(team=blue, player=players[2], board=1)
    TeamMember.objects.create(team=blue, player=players[3], board=2)
    return event, players


def test_team_boards_and_substitutes(team_event):
    event, players = team_event
    header = "white, black, result, finished, reported, round, board, white_replaces\n"
    good = header + (
        "100, 102, 1-0, 2026-02-01, 2026-02-02, 1, 1\n"
        "104, 103, 0-1, 2026-02-01, 2026-02-02, 1, 2, 101\n"  # substitute 104 for 101
    )
    games.confirm_games(event=event, rows=pasted_rows(good), by=None)
    sub = Substitution.objects.get()
    assert (sub.game.white, sub.side, sub.replaces) == (players[4], "white", players[1])
    bad = header + (
        "101, 102, 1-0, 2026-02-01, 2026-02-02, 2\n"  # line 2: boards 2 and 1
        "100, 101, 1-0, 2026-02-01, 2026-02-02, 3\n"  # line 3: same team
        "104, 102, 1-0, 2026-02-01, 2026-02-02, 3, 1, 103\n"  # line 4: replaces another team
        "105, 102, 1-0, 2026-02-01, 2026-02-02, 4\n"  # line 5: plays for no team
        "100, 102, 1-0, 2026-02-01, 2026-02-02, 5, 2\n"  # line 6: board 2 but they play 1
    )
    errors = games.preview_games(event=event, rows=pasted_rows(bad)).errors
    assert [e.split(":")[0] for e in errors] == ["line 2", "line 3", "line 4", "line 5", "line 6"]
    assert "not the same board" in errors[0]
    assert "same team" in errors[1]
    assert "another team" in errors[2]
    assert "plays for no team" in errors[3]
    assert "but they play board 1" in errors[4]


@pytest.fixture
def wfcc():
    fed = Federation.objects.create(code="wfx", name="WFCC test", system="wfcc")
    solvers = [make_player(fed, f"S{i}", f"Solver{i}") for i in range(3)]
    event = Event.objects.create(
        federation=fed,
        name="Solving",
        code="SOL1",
        kind=EventKind.SOLVING,
        start=date(2026, 3, 1),
        end=date(2026, 3, 1),
    )
    for round_no, number in ((1, 1), (1, 2), (2, 3)):
        Problem.objects.create(
            event=event, round=round_no, number=number, group="twomover", original=True
        )
    return fed, solvers, event


SHEET = "solver; name; R1.1; R1.2; R2.3\nS0; Ann; 5/10; 2.5; 4,5/20\nS1; Bob; 0; ; 5\n"


def test_sheet_creates_changes_and_removes_scores_with_audit_rows(wfcc):
    fed, solvers, event = wfcc
    saved = solving.save_sheet(event=event, rows=pasted_rows(SHEET), by=None)
    assert (saved.created, saved.changed, saved.removed) == (5, 0, 0)
    s0 = {
        s.problem.number: (s.points, s.time_used_minutes)
        for s in SolverScore.objects.filter(solver=solvers[0])
    }
    assert s0 == {1: (Decimal("5.00"), 10), 2: (Decimal("2.50"), None), 3: (Decimal("4.50"), 20)}
    second = "solver;R1.1;R1.2;R2.3\nS0;5/10;;4.5/20\nS1;1;;5\n"
    saved = solving.save_sheet(event=event, rows=pasted_rows(second), by=None)
    assert (saved.created, saved.changed, saved.removed) == (0, 1, 1)
    assert SolverScore.objects.filter(solver=solvers[0]).count() == 2
    change = AuditEvent.objects.get(object_type="tournaments.SolverScore", action="change")
    assert (change.old_values, change.new_values) == ({"points": "0.00"}, {"points": "1.00"})
    assert AuditEvent.objects.filter(object_type="tournaments.SolverScore").count() == 5 + 2


def test_sheet_errors_name_line_and_column_and_save_nothing(wfcc):
    fed, solvers, event = wfcc
    text = "solver;R1.1;R1.2;R2.3\nS0;6;;\nX9;1;;\nS1;1;x;\nS0;1;;\n"
    preview = solving.preview_sheet(event=event, rows=pasted_rows(text))
    assert preview.errors == [
        "line 2, R1.1: 6 points; the problem gives at most 5.00",
        "line 3, solver: no player of wfx with id or name 'X9'",
        "line 4, R1.2: 'x' is not points (5, 2.5) or points/minutes (5/12)",
        "line 5, solver: 'S0' is already on line 2",
    ]
    with pytest.raises(ImportRefused):
        solving.save_sheet(event=event, rows=pasted_rows(text), by=None)
    assert SolverScore.objects.count() == 0
    unknown = solving.preview_sheet(event=event, rows=pasted_rows("solver;R3.9\nS0;1\n"))
    assert unknown.errors == ["line 1: R3.9 is no problem of the event (R1.1, R1.2, R2.3)"]


def test_import_results_command_saves_or_refuses_with_line_numbers(wfcc, tmp_path, capsys):
    fed, solvers, event = wfcc
    good = tmp_path / "sheet.csv"
    good.write_text(SHEET)
    call_command("import_results", str(good), "--event", "SOL1", "--federation", "wfx", "--dry-run")
    assert "dry run, nothing saved" in capsys.readouterr().out
    assert SolverScore.objects.count() == 0
    call_command("import_results", str(good), "--event", "SOL1", "--federation", "wfx")
    assert SolverScore.objects.count() == 5
    bad = tmp_path / "bad.csv"
    bad.write_text("solver,R1.1\nS2,9\nS9,1\n")
    with pytest.raises(CommandError) as refused:
        call_command("import_results", str(bad), "--event", "SOL1", "--federation", "wfx")
    assert refused.value.returncode == 1
    assert str(refused.value).splitlines()[1:] == [
        "line 2, R1.1: 9 points; the problem gives at most 5.00",
        "line 3, solver: no player of wfx with id or name 'S9'",
    ]
    assert SolverScore.objects.count() == 5


def test_import_results_command_game_lines(iccf, tmp_path):
    fed, players, event = iccf
    path = tmp_path / "games.csv"
    path.write_text("white,black,result,finished,reported,round\n" + LINES.replace("\t", ","))
    path.write_text(path.read_text().replace(";", ","))
    call_command("import_results", str(path), "--event", "OPEN1", "--federation", "icx")
    assert Game.objects.filter(event=event).count() == 3
    with pytest.raises(CommandError) as refused:  # the same games again: every line refused
        call_command("import_results", str(path), "--event", "OPEN1", "--federation", "icx")
    assert [line.split(":")[0] for line in str(refused.value).splitlines()[1:]] == [
        "line 2",
        "line 3",
        "line 4",
    ]
    assert Game.objects.filter(event=event).count() == 3


def test_without_the_systems_results_formats_no_importer_takes_the_file(
    iccf, tmp_path, monkeypatch
):
    """The importer is found by the system's results format (tournaments.ports): with no ratings
    app to name it, the command refuses instead of guessing."""
    from tournaments import ports

    path = tmp_path / "games.csv"
    path.write_text("white,black,result,finished,reported,round\n")
    assert games.handles("iccf") and not solving.handles("iccf")
    monkeypatch.setattr(ports, "_results_formats", None)
    assert not games.handles("iccf")
    with pytest.raises(CommandError, match="no importer for iccf"):
        call_command("import_results", str(path), "--event", "OPEN1", "--federation", "icx")


def test_playchess_games_from_an_xlsx_file(tmp_path):
    from openpyxl import Workbook

    fed = Federation.objects.create(code="pcx", name="PlayChess test", system="playchess")
    for i in range(3):
        make_player(fed, f"p{i}", f"Online{i}")
    Event.objects.create(
        federation=fed,
        name="Blitz",
        code="PC1",
        kind=EventKind.INDIVIDUAL,
        start=date(2026, 5, 1),
        end=date(2026, 5, 31),
    )
    book = Workbook()
    sheet = book.active
    sheet.append(["white", "black", "result", "finished", "reported"])
    sheet.append(["p0", "p1", "1-0", date(2026, 5, 2), date(2026, 5, 2)])
    sheet.append(["p1", "p2", "1/2", date(2026, 5, 3), date(2026, 5, 3)])
    path = tmp_path / "blitz.xlsx"
    book.save(path)
    call_command("import_results", str(path), "--event", "PC1", "--federation", "pcx")
    assert sorted(Game.objects.values_list("result", "finished_on")) == [
        ("1-0", date(2026, 5, 2)),
        ("1/2", date(2026, 5, 3)),
    ]
