"""The EGF import's preview of large and unusual files: counts, the first problems, the first
players and one page of games (not a page as large as the file); UTF-16 and byte-order marks
are read as text; the upload form states the size limit."""

from __future__ import annotations

import time

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from federation.models import Federation
from tests.hardening.hostile_tables import HEADER, SEED
from tournaments.admin.egf_import import (
    ERRORS_SHOWN,
    GAMES_PER_PAGE,
    MAX_BYTES,
    PLAYERS_SHOWN,
)
from tournaments.formats.egf import decode, parse_table

pytestmark = pytest.mark.django_db
ENCODINGS = {
    "utf-8": SEED.encode("utf-8"),
    "utf-8 with BOM": b"\xef\xbb\xbf" + SEED.encode("utf-8"),
    "utf-16-le with BOM": b"\xff\xfe" + SEED.encode("utf-16-le"),
    "utf-16-be with BOM": b"\xfe\xff" + SEED.encode("utf-16-be"),
    "utf-16 (Python, BOM)": SEED.encode("utf-16"),
    "utf-16-le without BOM": SEED.encode("utf-16-le"),
    "utf-16-be without BOM": SEED.encode("utf-16-be"),
    "utf-32 with BOM": SEED.encode("utf-32"),
    "iso-8859-15": SEED.replace("Novak", "Novák").encode("iso8859_15"),
}


@pytest.mark.parametrize("name", list(ENCODINGS))
def test_every_encoding_reads_as_the_same_table(name):
    reference = parse_table(SEED.encode())
    table = parse_table(ENCODINGS[name])
    assert table.errors == (), (name, table.errors[:3])
    assert len(table.players) == len(reference.players) == 4
    assert table.games == reference.games
    assert decode(ENCODINGS[name]).startswith("; CL[B]")


@pytest.fixture
def official(client, settings):
    from tests.factories import make_official

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    egf = Federation.objects.create(code="egf-p", name="EGF preview", system="egf")
    client.force_login(make_official("egf-p-officer", egf))
    return egf


def _upload(client, egf, data: bytes, **extra):
    return client.post(
        reverse("admin:tournaments_event_import_egf"),
        {"federation": egf.pk, "table": SimpleUploadedFile("t.h9", data), **extra},
    )


def test_the_form_states_the_size_limit(client, official):
    page = client.get(reverse("admin:tournaments_event_import_egf")).content.decode()
    assert f"At most {MAX_BYTES // (1024 * 1024)} MB" in page


def test_a_utf16_upload_previews_like_utf8(client, official):
    response = _upload(client, official, ENCODINGS["utf-16-le without BOM"])
    assert response.context["preview"].errors == []
    assert response.context["token"]


def _large_valid_table(players: int) -> bytes:
    """One round: 1 beats 2, 3 beats 4, ... (every pairing written from both sides)."""
    lines = [HEADER.replace("; HA[h9]\n", "")]
    for n in range(1, players + 1):
        opponent, result, colour = (n + 1, "+", "w") if n % 2 else (n - 1, "-", "b")
        lines.append(f"{n:>6} P{n} Q 3k CZ Brno {int(n % 2)} {opponent}{result}/{colour}0\n")
    return "".join(lines).encode()


def test_a_large_table_is_summarised_and_its_games_paged(client, official):
    data = _large_valid_table(20_000)
    started = time.perf_counter()
    response = _upload(client, official, data)
    seconds = time.perf_counter() - started
    preview = response.context["preview"]
    assert preview.errors == [], preview.errors[:3]
    assert len(preview.players) == 20_000 and len(preview.games) == 10_000
    page = response.content.decode()
    assert f"The first {PLAYERS_SHOWN} players are shown; {20_000 - PLAYERS_SHOWN} more" in page
    assert f"Games 1–{GAMES_PER_PAGE} of 10000" in page
    assert page.count("<tr>") < PLAYERS_SHOWN + GAMES_PER_PAGE + 10
    # The file travels in the signed token (compressed); everything else is a bounded summary.
    token = response.context["token"]
    assert page.count(token) == 1 and len(token) < len(data) / 3
    assert len(response.content) - len(token) < 150_000, len(response.content)
    second = client.post(
        reverse("admin:tournaments_event_import_egf"),
        {"token": response.context["token"], "games_page": "2"},
    )
    assert f"Games {GAMES_PER_PAGE + 1}–{2 * GAMES_PER_PAGE} of 10000" in second.content.decode()
    print(
        f"preview of {len(data):,} bytes (20,000 players): {seconds:.1f} s, "
        f"page {len(response.content):,} bytes"
    )


def test_a_large_broken_table_shows_the_first_problems_and_a_count(client, official):
    lines = [HEADER]
    for n in range(1, 20_001):  # every pairing points at a line that does not point back
        lines.append(f"{n:>6} P{n} Q 3k CZ Brno 0 {n % 4 + 1}+/w0\n")
    data = "".join(lines).encode()
    response = _upload(client, official, data)
    preview = response.context["preview"]
    assert len(preview.errors) > ERRORS_SHOWN
    page = response.content.decode()
    assert page.count("<li>line ") <= ERRORS_SHOWN + 5
    assert f"and {len(preview.errors) - ERRORS_SHOWN} more" in page
    assert len(response.content) < 200_000
