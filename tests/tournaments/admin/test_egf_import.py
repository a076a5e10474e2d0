"""Importing EGF results tables through the admin and the command line."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.urls import reverse

from federation.models import AuditEvent, Federation, Player
from federation.permissions import COMMAND_LINE
from tests.factories import make_official
from tournaments.models import Event, Game

# beside a checkout (/work/main) or a worktree one level deeper (/work/wt/NAME)
REAL = next(
    (
        root / "shared" / "realdata" / "egc2013.h9"
        for root in Path(__file__).resolve().parents[4:6]
        if (root / "shared" / "realdata" / "egc2013.h9").exists()
    ),
    Path("shared/realdata/egc2013.h9"),
)
SMALL = """; CL[B]
; EV[Club Cup]
; DT[2024-03-02,2024-03-03]
; HA[h9]
; TC[T240302A]
   1 Novak Jan         3d CZ Brno  3  2+/w0   3+/b0  |12345678
   2 Kral Petr         1k CZ Brno  1  1-/b0   0=
   3 Svoboda Eva       2k CZ Prah  0  0-      1-/w0
"""
BROKEN = SMALL.replace("2+/w0", "2+/w0x").replace("1-/w0", "1=/w0")


@pytest.fixture
def egf(db):
    federation = Federation.objects.create(code="egf-t", name="EGF test", system="egf")
    Player.objects.create(
        federation=federation,
        federation_player_id="12345678",
        surname="Novak",
        given_name="Jan",
        country="CZ",
        grade="3d",
    )
    Player.objects.create(
        federation=federation,
        federation_player_id="77",
        surname="Kral",
        given_name="Petr",
        country="CZ",
        grade="1k",
    )
    return federation


def _upload(client, federation, text, name="t240302a.h9"):
    return client.post(
        reverse("admin:tournaments_event_import_egf"),
        {
            "federation": federation.pk,
            "table": SimpleUploadedFile(name, text.encode() if isinstance(text, str) else text),
        },
    )


def test_preview_then_confirm_saves_everything_once(client, egf):
    client.force_login(make_official("egf-ro", egf))
    response = _upload(client, egf, SMALL)
    preview = response.context["preview"]
    assert preview.errors == []
    assert [p.matched_by for p in preview.players] == ["PIN", "name and country", "new"]
    assert not Event.objects.filter(code="T240302A").exists()  # preview saves nothing
    response = client.post(
        reverse("admin:tournaments_event_import_egf"),
        {"confirm": "1", "token": response.context["token"]},
    )
    assert response.status_code == 302
    event = Event.objects.get(federation=egf, code="T240302A")
    assert (event.name, event.rating_class, str(event.start)) == ("Club Cup", "B", "2024-03-02")
    assert Game.objects.filter(event=event, black__isnull=False).count() == 2
    assert set(
        Game.objects.filter(event=event, black__isnull=True).values_list("result", flat=True)
    ) == {"bye=", "bye-"}
    svoboda = Player.objects.get(federation=egf, surname="Svoboda")
    assert (svoboda.grade, svoboda.federation_player_id) == ("2k", "T240302A-3")
    assert AuditEvent.objects.filter(action="import", object_id=str(event.pk)).exists()


def test_file_with_errors_lists_them_with_lines_and_saves_nothing(client, egf):
    client.force_login(make_official("egf-ro", egf))
    players_before = Player.objects.count()
    response = _upload(client, egf, BROKEN)
    body = response.content.decode()
    preview = response.context["preview"]
    assert preview.errors and "token" not in response.context
    assert all(error.startswith("line ") for error in preview.errors), preview.errors
    assert "line 6" in body and "nothing was saved" in body
    assert not Event.objects.filter(code="T240302A").exists()
    assert Player.objects.count() == players_before


def test_tampered_token_is_refused(client, egf):
    client.force_login(make_official("egf-ro", egf))
    token = _upload(client, egf, SMALL).context["token"]
    response = client.post(
        reverse("admin:tournaments_event_import_egf"),
        {"confirm": "1", "token": token[:-3] + "abc"},
        follow=True,
    )
    assert "expired or was altered" in response.content.decode()
    assert not Event.objects.filter(code="T240302A").exists()


def test_other_federation_cannot_import_into_it(client, egf):
    other = Federation.objects.create(code="egf-o", name="Other", system="egf")
    client.force_login(make_official("stranger", other))
    response = _upload(client, egf, SMALL)
    assert "Select a valid choice" in response.content.decode()
    assert not Event.objects.filter(code="T240302A").exists()


@pytest.mark.skipif(not REAL.exists(), reason="shared/realdata/egc2013.h9 is not beside the repo")
def test_real_congress_table_imports_via_the_command(egf, capsys):
    call_command("import_egf", str(REAL), "--federation", "egf-t", "--dry-run")
    assert "594 players" in capsys.readouterr().out
    assert not Event.objects.filter(federation=egf).exists()
    call_command("import_egf", str(REAL), "--federation", "egf-t")
    event = Event.objects.get(federation=egf)
    played = Game.objects.filter(event=event, black__isnull=False)
    assert played.count() == 2259
    assert played.filter(result__in=["1-0ff", "0-1ff", "0-0ff"]).count() == 33
    assert Game.objects.filter(event=event, black__isnull=True).count() == 1418 + 2 + 2


def test_command_reports_errors_and_saves_nothing(egf, tmp_path):
    bad = tmp_path / "bad.h9"
    bad.write_text(BROKEN)
    with pytest.raises(CommandError, match="error"):
        call_command("import_egf", str(bad), "--federation", "egf-t")
    assert not Event.objects.filter(federation=egf).exists()


TIMED = SMALL.replace("; HA[h9]\n", "; HA[h9]\n; TM[82]\n; CM[Standard byo-yomi]\n")


def test_preview_fills_the_time_control_judges_the_class_and_lists_the_games(client, egf):
    client.force_login(make_official("egf-ro", egf))
    response = _upload(client, egf, TIMED)
    preview = response.context["preview"]
    tc = preview.time_control
    assert (tc.system, tc.adjusted_minutes, tc.basic_minutes) == ("byoyomi", 82, None)
    assert preview.class_verdict == (
        "TM[82] reaches class B's adjusted time (50 min); its basic-time minimum (40 min) is "
        "checked once the basic time is entered"
    )
    assert any("does not give the basic time, byo-yomi period" in w for w in preview.warnings)
    body = response.content.decode()
    assert "Novak Jan" in body and 'id="preview-games"' in body
    assert [(g.round, g.white, g.black, g.result) for g in preview.game_rows] == [
        (1, "Novak Jan", "Kral Petr", "1-0"),
        (2, "Svoboda Eva", "Novak Jan", "0-1"),
    ]
    client.post(
        reverse("admin:tournaments_event_import_egf"),
        {"confirm": "1", "token": response.context["token"]},
    )
    event = Event.objects.get(federation=egf, code="T240302A")
    assert (event.time_system, event.rating_class, event.basic_time_minutes) == (
        "byoyomi",
        "B",
        None,
    )


def test_a_complete_time_control_gets_the_rules_verdict(egf):
    from tournaments.importers.egf import preview_import

    short = SMALL.replace("; CL[B]", "; CL[A]").replace(
        "; HA[h9]\n", "; HA[h9]\n; TM[50]\n; CM[40 min + 13 s byo-yomi]\n"
    )
    preview = preview_import(federation=egf, data=short.encode(), filename="t.h9")
    assert preview.class_ok is False
    assert preview.class_verdict.startswith("declared class A needs basic time at least 60 min")
    imported = preview_import(federation=egf, data=TIMED.encode(), filename="t.h9")
    assert imported.class_ok is None  # only TA known: no verdict either way


def test_a_tournament_in_a_published_period_warns_that_a_rerate_is_needed(egf):
    from ratings.services.publication import import_list
    from tournaments.importers.egf import preview_import

    import_list(federation=egf, period_code="2024-03", entries=[], by=COMMAND_LINE)
    preview = preview_import(federation=egf, data=TIMED.encode(), filename="t.h9")
    assert preview.rerate_from == "2024-03"
    assert any("a re-rate from 2024-03 will be needed" in w for w in preview.warnings)
    quiet = preview_import(
        federation=egf, data=TIMED.replace("2024-03-0", "2024-05-0").encode(), filename="t.h9"
    )
    assert quiet.rerate_from is None


def test_import_results_creates_the_egf_event_under_the_given_code(egf, tmp_path, capsys):
    path = tmp_path / "t.h9"
    path.write_text(TIMED)
    call_command("import_results", str(path), "--event", "CUP24", "--federation", "egf-t")
    assert Event.objects.get(federation=egf).code == "CUP24"
    assert "saved: CUP24" in capsys.readouterr().out
    broken = tmp_path / "b.h9"
    broken.write_text(BROKEN)
    with pytest.raises(CommandError) as refused:
        call_command("import_results", str(broken), "--event", "B24", "--federation", "egf-t")
    assert refused.value.returncode == 1
    assert all(line.startswith("line ") for line in str(refused.value).splitlines()[1:])
    assert not Event.objects.filter(code="B24").exists()
