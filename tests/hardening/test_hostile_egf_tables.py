"""The EGF results-table parser (``python -m tournaments.formats.egf``) and the admin import fed
generated malformed tables: never a traceback; exit 2 with every stderr line naming its file line;
the import of the same bytes refuses with those messages and saves nothing."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.urls import reverse
from hypothesis import HealthCheck, given, settings

from federation.models import AuditEvent, Federation, Player
from tests.hardening.hostile import TRIED, Case, run_main
from tests.hardening.hostile_tables import SEED, table_cases, ten_megabytes
from tournaments.formats.egf import main
from tournaments.importers.egf import ImportRefused, confirm_import
from tournaments.models import Event, Game

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = int(os.environ.get("HARDEN_EXAMPLES", "100"))
PLACED = re.compile(r"^line \d+: \S")
SLOW_OK = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture]


def check_cli(outcome, case: Case) -> None:
    assert outcome.code in (0, 2), (case.label, outcome)
    if outcome.code == 2:
        assert outcome.stdout == "", case.label
        lines = outcome.stderr.splitlines()
        assert lines and all(PLACED.match(line) for line in lines), (case.label, outcome.stderr)
    else:
        assert not case.must_fail, (case.label, outcome.stdout[:300])
        json.loads(outcome.stdout, parse_constant=pytest.fail)


def test_seed_table_is_accepted(tmp_path):
    path = tmp_path / "t240302a.h9"
    path.write_text(SEED)
    outcome = run_main(main, [str(path)])
    assert outcome.code == 0, outcome.stderr
    (tournament,) = json.loads(outcome.stdout)["tournaments"]
    assert len(tournament["players"]) == 4 and len(tournament["games"]) == 6


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=SLOW_OK)
@given(case=table_cases())
def test_parser_command_line_never_raises(case, tmp_path_factory):
    path = tmp_path_factory.mktemp("t") / "t240302a.h9"
    path.write_bytes(case.data)
    TRIED["egf table"] += 1
    check_cli(run_main(main, [str(path)]), case)


def _rows() -> tuple[int, ...]:
    return tuple(m.objects.count() for m in (Event, Game, Player, AuditEvent))


@pytest.fixture
def egf(db):
    return Federation.objects.create(code="egf-h", name="EGF hardening", system="egf")


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=SLOW_OK)
@given(case=table_cases())
@pytest.mark.django_db
def test_admin_import_of_the_same_tables_saves_nothing_when_refused(egf, case):
    TRIED["egf table (import)"] += 1
    before = _rows()
    try:
        with transaction.atomic():
            confirm_import(federation=egf, data=case.data, filename="t240302a.h9")
            transaction.set_rollback(True)  # an accepted table: undone for the next example
    except ImportRefused as refused:
        assert refused.errors and all(
            PLACED.match(e) or e.startswith("an event") for e in refused.errors
        ), refused.errors
        assert _rows() == before, case.label
    else:
        assert not case.must_fail, case.label
    assert _rows() == before


SUBPROCESS_CASES = {
    "non-UTF-8 bytes": SEED.replace("Novak", "Nov\udcffk")
    .encode("utf-8", "surrogateescape")
    .replace(b"3+/b0", b"3+/\xff0"),
    "empty file": b"",
    "NaN komi": SEED.replace("KM[6.5]", "KM[NaN]").encode(),
    "Infinity komi": SEED.replace("KM[6.5]", "KM[-Infinity]").encode(),
    "huge numbers": SEED.replace("2+/w0", "2+/w" + "9" * 5000).encode(),
    "truncated line": SEED[: SEED.index("4+/w0   3=/b0")].encode()
    + b"4+/w"
    + b"\n"
    + SEED[SEED.index("   3 Svoboda") :].encode(),
    "wrong round count": SEED.replace("  3=/b0", "").encode(),
    "asymmetric pairing": SEED.replace("4-/b0", "2-/b0").encode(),
    "unknown colour": SEED.replace("2+/w0", "2+/r0").encode(),
    "10 MB": ten_megabytes(),
}


@pytest.mark.parametrize("name", list(SUBPROCESS_CASES))
def test_real_process_exits_2_naming_lines(name, tmp_path):
    path = tmp_path / "t240302a.h9"
    path.write_bytes(SUBPROCESS_CASES[name])
    done = subprocess.run(
        [sys.executable, "-m", "tournaments.formats.egf", str(path)],
        capture_output=True,
        cwd=ROOT,
        timeout=120,
    )
    TRIED["egf table (subprocess)"] += 1
    assert done.returncode == 2, (name, done.stdout[:300])
    assert done.stdout == b"" and b"Traceback" not in done.stderr
    lines = done.stderr.decode().splitlines()
    assert lines and all(PLACED.match(line) for line in lines), lines[:5]


@pytest.mark.parametrize("name", list(SUBPROCESS_CASES))
def test_admin_upload_of_the_same_files_saves_nothing(client, egf, name):
    from tests.factories import make_official

    client.force_login(make_official("egf-h-officer", egf))
    before = _rows()
    upload = SimpleUploadedFile("t240302a.h9", SUBPROCESS_CASES[name])
    response = client.post(
        reverse("admin:tournaments_event_import_egf"), {"federation": egf.pk, "table": upload}
    )
    TRIED["egf table (admin upload)"] += 1
    assert response.status_code == 200
    assert "token" not in response.context or not response.context["token"]
    assert _rows() == before


def test_no_server_error_for_a_table_beyond_the_database_columns(egf):
    """Handicap 31 and an event code of 41 characters parse, but do not fit the database:
    refused with a message (a server error before)."""
    table = SEED.replace("2+/w0", "2+/w31").replace("1-/b0", "1-/b31")
    with pytest.raises(ImportRefused, match="31 handicap stones"):
        confirm_import(federation=egf, data=table.encode(), filename="t.h9")
    table = SEED.replace("TC[T240302A]", "TC[" + "X" * 41 + "]")
    with pytest.raises(ImportRefused, match="longer than 40"):
        confirm_import(federation=egf, data=table.encode(), filename="t.h9")
    assert Event.objects.count() == 0


def test_players_without_pin_get_ids_that_fit(egf):
    """A long file name made ids beyond the 20 characters Player ids hold (a PostgreSQL error)."""
    event = confirm_import(
        federation=egf,
        data=SEED.replace("; TC[T240302A]\n", "").encode(),
        filename="european-go-congress-2026-main.h9",
    )
    ids = set(Player.objects.filter(federation=egf).values_list("federation_player_id", flat=True))
    assert ids == {"12345678", "87654321", "european-go-congre-2", "european-go-congre-3"}
    assert event.code == "european-go-congress-2026-main"


@pytest.mark.parametrize(
    "text,message",
    [
        ("² Aa 3d", None),
        ("1 Aa 3d 2+/w" + "9" * 5000, "impossible number"),
    ],
)
def test_unicode_digits_and_long_numbers_in_player_lines(tmp_path, text, message):
    """'²'.isdigit() is True but int('²') fails; int() refuses 4300+ digits."""
    path = tmp_path / "t.h9"
    path.write_text("; CL[A]\n" + text + "\n")
    outcome = run_main(main, [str(path)])
    if message:
        assert outcome.code == 2 and message in outcome.stderr
    else:
        assert outcome.code == 0


@pytest.mark.parametrize("tag", ["TM[²]", "KM[nan]", "KM[1e999]", "HA[h" + "9" * 5000 + "]"])
def test_header_values_python_would_misread(tmp_path, tag):
    path = tmp_path / "t.h9"
    path.write_text(f"; CL[A]\n; {tag}\n")
    outcome = run_main(main, [str(path)])
    assert outcome.code == 2 and outcome.stderr.startswith("line 2: ")


def test_control_characters_are_refused_before_the_database_sees_them(egf, tmp_path):
    """A NUL in a name reached PostgreSQL ("text fields cannot contain NUL"): a server error."""
    table = SEED.replace("Novak", "No\x00vak")
    with pytest.raises(ImportRefused, match=r"line 8: control character U\+0000"):
        confirm_import(federation=egf, data=table.encode(), filename="t.h9")
    assert Event.objects.count() == 0


def test_a_table_without_player_lines_is_refused(tmp_path):
    path = tmp_path / "t.h9"
    path.write_text("; CL[A]\n; DT[2024-01-01]\n")
    outcome = run_main(main, [str(path)])
    assert (outcome.code, outcome.stderr) == (2, "line 0: no player lines\n")


@pytest.mark.skipif(not os.environ.get("HARDEN_SLOW"), reason="set HARDEN_SLOW=1 (about 20 s)")
def test_ten_megabytes_of_player_lines_exit_2_within_a_request_timeout(tmp_path):
    from tests.hardening.hostile_tables import ten_megabytes_of_players

    path = tmp_path / "t.h9"
    path.write_bytes(ten_megabytes_of_players())
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "tournaments.formats.egf", str(path)],
        capture_output=True,
        cwd=ROOT,
        timeout=120,
    )
    seconds = time.perf_counter() - started
    print(
        f"10 MB of player lines: exit {done.returncode} in {seconds:.1f} s, "
        f"{len(done.stderr.splitlines())} error lines"
    )
    assert done.returncode == 2 and done.stdout == b"" and seconds < 60
