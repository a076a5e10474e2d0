"""import_list: EGD world lists (the real one and hand-made ones), CSV, FIDE lists; the preview
is what the import does, problems change nothing, a second import changes nothing."""

from __future__ import annotations

import io
from datetime import date

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from federation.models import AuditEvent, Federation, FideList, FideRating, Player
from federation.permissions import COMMAND_LINE
from ratings.models import ListStatus, RatingEntry, RatingList, RatingRun
from ratings.services.imports import ListImportRefused, import_player_list
from ratings.web import native_download as native_exports
from tests.realdata_files import need
from tournaments.importers.egf import name_key

pytestmark = pytest.mark.django_db

HEAD = b"<pre>\n(01 Jul 2018)\n"
ROWS = [
    b" 10537560  Aaij Rene                             NL  Gron    4d   --   2380    95  T180602E",
    b" 13286603  Aakerblom Charlie                     SE  Norr    5d   --   2441    71  T160920A",
    b" 12949827  Aaltonen Ari                          FI  Kanp    8k   --   1276     5  G061014 ",
]


def egd_file(*rows: bytes) -> bytes:
    return HEAD + b"\n".join(rows) + f"\n\nNumber of players: {len(rows)}\n".encode()


def run(federation, data: bytes, name: str = "allworld.html", **options):
    return import_player_list(
        federation=federation,
        source=lambda: io.BytesIO(data),
        filename=name,
        by=COMMAND_LINE,
        **options,
    )


@pytest.fixture
def egf():
    return Federation.objects.create(code="egd", name="EGD", system="egf")


def test_players_by_pin_then_nothing_the_second_time(egf):
    first = run(egf, egd_file(*ROWS), fmt="egd", publish=True)
    assert (first.new_count, len(first.updated), first.unchanged) == (3, 0, 0)
    aaij = Player.objects.get(federation=egf, federation_player_id="10537560")
    assert (aaij.surname, aaij.given_name, aaij.country, aaij.club, aaij.grade) == (
        "Aaij",
        "Rene",
        "NL",
        "Gron",
        "4d",
    )
    listing = RatingList.objects.get(federation=egf)
    assert listing.status == ListStatus.PUBLISHED and listing.period.valid_from == date(2018, 7, 1)
    entry = listing.entries.get(player=aaij)
    assert (entry.published_rating, entry.state["tournaments"], entry.state["last"]) == (
        2380,
        95,
        "2018-06-02",
    )
    # Aaltonen's last tournament was in 2006: kept on the list, not shown (RULES §2.5).
    assert not listing.entries.get(player__federation_player_id="12949827").listed
    assert listing.entry_count == 2
    audits = AuditEvent.objects.count()
    second = run(egf, egd_file(*ROWS), fmt="egd", publish=True)
    assert (second.new_count, len(second.updated), second.unchanged) == (0, 0, 3)
    assert "already published" in second.publication
    assert RatingList.objects.filter(federation=egf).count() == 1
    assert AuditEvent.objects.count() == audits + 1  # the import itself, nothing else


def test_a_changed_row_updates_the_player_with_an_audit_row(egf):
    run(egf, egd_file(*ROWS), fmt="egd")
    moved = ROWS[0].replace(b"Aaij Rene  ", b"Aaij Renee ").replace(b"Gron", b"Amst")
    result = run(egf, egd_file(moved, *ROWS[1:]), fmt="egd")
    assert [(u.row.player_id, u.changes) for u in result.updated] == [
        ("10537560", {"given_name": ("Rene", "Renee"), "club": ("Gron", "Amst")})
    ]
    player = Player.objects.get(federation_player_id="10537560")
    assert (player.given_name, player.given_name_folded, player.club) == ("Renee", "renee", "Amst")
    audit = AuditEvent.objects.get(object_id=str(player.pk), action="change")
    assert audit.old_values == {"given_name": "Rene", "club": "Gron"}


def test_a_problem_line_refuses_the_file_and_changes_nothing(egf):
    broken = b" 12345678  Broken Row                            DE  Berl   4x   --   2000     3  T180101A"
    with pytest.raises(ListImportRefused) as refused:
        run(egf, HEAD + b"\n".join([*ROWS, broken]) + b"\n", fmt="egd", publish=True)
    assert [p.line for p in refused.value.preview.problems] == [6]
    assert not Player.objects.exists() and not RatingList.objects.exists()


def test_the_declared_count_must_match(egf):
    with pytest.raises(ListImportRefused) as refused:
        run(egf, HEAD + b"\n".join(ROWS) + b"\nNumber of players: 4\n", fmt="egd")
    assert refused.value.preview.errors == [
        "the file says it lists 4 players but 3 player rows were read"
    ]
    assert not Player.objects.exists()


def test_a_dry_run_shows_the_changes_and_writes_nothing(egf):
    preview = run(egf, egd_file(*ROWS), fmt="egd", publish=True, dry_run=True)
    assert preview.new_count == 3 and "published the starting list" in preview.publication
    assert not Player.objects.exists() and not RatingRun.objects.exists()
    assert not AuditEvent.objects.exists()


def test_a_starting_list_is_only_a_federations_first_list(egf):
    run(egf, egd_file(*ROWS), fmt="egd", publish=True)
    later = egd_file(*ROWS).replace(b"(01 Jul 2018)", b"(01 Aug 2018)")
    with pytest.raises(ListImportRefused) as refused:
        run(egf, later, fmt="egd", publish=True)
    assert "already has published lists" in refused.value.preview.errors[0]
    assert RatingList.objects.count() == 1


def test_a_file_without_player_rows_is_refused(egf):
    with pytest.raises(ListImportRefused) as refused:
        run(egf, b"<html><body>nothing here</body></html>\n", fmt="egd")
    assert refused.value.preview.errors == [
        "no player rows found (the file was read as: EGD world list (fixed width))"
    ]


def test_the_list_must_fit_the_federation(egf):
    iccf = Federation.objects.create(code="icc", name="ICCF", system="iccf")
    with pytest.raises(ListImportRefused) as refused:
        run(iccf, egd_file(*ROWS), fmt="egd")
    assert refused.value.preview.errors == [
        "icc rates ICCF correspondence chess; a EGD world list (fixed width) is not its list (it "
        "takes: FIDE rating list, TXT; FIDE rating list, XML; CSV (id, surname, given_name, "
        "country, club, grade, rating))"
    ]
    with pytest.raises(ListImportRefused):
        run(egf, b"ID Number Name JUL25\n", name="standard_jul25frl.txt")


def test_unknown_countries_are_stored_blank_with_a_warning(egf):
    yu = ROWS[0].replace(b"NL  Gron", b"YU  Gron")
    uk = ROWS[1].replace(b"SE  Norr", b"UK  Norr")
    result = run(egf, egd_file(yu, uk), fmt="egd")
    assert result.warnings == [
        "country 'YU' is no ISO 3166 code: 1 player stored without a country (line 3)"
    ]
    assert dict(Player.objects.values_list("federation_player_id", "country")) == {
        "10537560": "",
        "13286603": "GB",
    }


def test_csv_players_and_their_first_list():
    wfcc = Federation.objects.create(code="wf", name="WFCC", system="wfcc")
    data = "id;surname;given_name;country;rating\nW1;Kamińska;Ewa;PL;2500\nW2;Ng;;SG;\n"
    result = run(wfcc, data.encode(), name="solvers.csv", publish=True, valid_from=date(2026, 1, 1))
    assert result.new_count == 2 and result.list_id
    assert list(
        RatingEntry.objects.filter(rating_list_id=result.list_id).values_list(
            "player__surname", "published_rating"
        )
    ) == [("Kamińska", 2500)]


FIDE_TXT = (
    "ID Number      Name                                                         Fed Sex Tit  "
    "WTit OTit           FOA JAN26 Gms  K   B-day Flag\n"
    "1503014        Carlsen, Magnus                                              NOR M   GM   "
    "                        2839  0    10  1990\n"
    "24116068       Muller, Anna                                                 GER F        "
    "                        0     0    40  2011\n"
)


@pytest.fixture
def iccf():
    return Federation.objects.create(code="icc", name="ICCF", system="iccf")


def test_a_fide_list_is_kept_whole_with_its_date(iccf):
    result = run(iccf, FIDE_TXT.encode(), name="standard_jan26frl.txt")
    assert result.new_count == 2 and result.valid_from == date(2026, 1, 1)
    fide = FideList.objects.get(federation=iccf)
    assert (fide.valid_from, fide.row_count) == (date(2026, 1, 1), 2)
    assert dict(FideRating.objects.values_list("fide_id", "rating")) == {
        "1503014": 2839,
        "24116068": None,
    }
    again = run(iccf, FIDE_TXT.encode(), name="standard_jan26frl.txt")
    assert (again.new_count, again.unchanged) == (0, 2)
    assert FideRating.objects.count() == 2
    changed = FIDE_TXT.replace("2839", "2840")
    with pytest.raises(ListImportRefused) as refused:
        run(iccf, changed.encode(), name="standard_jan26frl.txt")
    assert "different FIDE list of 2026-01-01" in refused.value.preview.errors[0]


def test_a_fide_list_with_a_repeated_id_is_refused(iccf):
    twice = FIDE_TXT + FIDE_TXT.splitlines(keepends=True)[1]
    with pytest.raises(ListImportRefused) as refused:
        run(iccf, twice.encode(), name="standard_jan26frl.txt")
    assert refused.value.preview.errors == ["FIDE ID 1503014 is listed 2 times"]
    assert not FideList.objects.exists() and not FideRating.objects.exists()


def test_a_fide_list_needs_a_date_and_is_not_published(iccf):
    with pytest.raises(ListImportRefused) as refused:
        run(iccf, FIDE_TXT.encode(), name="fide.txt", fmt="fide-txt")
    assert "neither given nor in its file name" in refused.value.preview.errors[0]
    with pytest.raises(ListImportRefused):
        run(iccf, FIDE_TXT.encode(), name="standard_jan26frl.txt", publish=True)
    with pytest.raises(ListImportRefused) as refused:
        run(iccf, b"<playerslist></playerslist>", name="standard_jan26frl_xml.xml")
    assert refused.value.preview.errors[0].startswith("no player rows found")
    assert not FideList.objects.exists()


def test_the_command_reports_and_refuses(egf, tmp_path, capsys):
    path = tmp_path / "allworld.html"
    path.write_bytes(egd_file(*ROWS))
    call_command("import_list", str(path), "--federation", "egd", "--publish")
    assert "3 new, 0 updated, 0 unchanged" in capsys.readouterr().out
    call_command("import_list", str(path), "--federation", "egd", "--publish")
    assert "0 new, 0 updated, 3 unchanged" in capsys.readouterr().out
    path.write_bytes(HEAD + ROWS[0][:40] + b"\n")
    with pytest.raises(CommandError, match="nothing changed"):
        call_command("import_list", str(path), "--federation", "egd")
    with pytest.raises(CommandError, match="no federation"):
        call_command("import_list", str(path), "--federation", "nope")


@pytest.mark.django_db(transaction=False)
def test_the_real_world_list_then_again_then_its_own_export(egf):
    path = need("egd_world_list_2018-07-01.txt")
    source = lambda: path.open("rb")  # noqa: E731
    name = path.name
    first = import_player_list(
        federation=egf, source=source, filename=name, fmt="egd", publish=True, by=COMMAND_LINE
    )
    assert first.declared_count == 43965 == first.new_count == first.rows_read
    assert Player.objects.filter(federation=egf).count() == 43965
    listing = RatingList.objects.get(federation=egf, status=ListStatus.PUBLISHED)
    assert listing.entries.count() == 43965
    # One row checked against the file's own text.
    line = next(li for li in path.read_bytes().splitlines() if li.startswith(b" 10537560 "))
    gor, nt = int(line.split()[-3]), int(line.split()[-2])
    assert listing.entries.get(player__federation_player_id="10537560").published_rating == gor
    assert listing.entries.get(player__federation_player_id="10537560").state["tournaments"] == nt
    second = import_player_list(
        federation=egf, source=source, filename=name, fmt="egd", publish=True, by=COMMAND_LINE
    )
    assert (second.new_count, len(second.updated), second.unchanged) == (0, 0, 43965)
    exported = "".join(native_exports.native_lines(listing)).encode()
    third = import_player_list(
        federation=egf,
        source=lambda: io.BytesIO(exported),
        filename="egd.txt",
        publish=True,
        by=COMMAND_LINE,
    )
    assert (third.new_count, len(third.updated), third.unchanged) == (0, 0, 43965)
    assert third.list_id == listing.pk
    assert RatingList.objects.filter(federation=egf).count() == 1
    # egc2013.h9 (no PINs in it) then finds its players among them by name and country.
    from tournaments.formats import egd_list
    from tournaments.formats import egf as egf_format
    from tournaments.formats.player_lists import collect
    from tournaments.importers.egf import preview_import

    table_path = need("egc2013.h9")
    preview = preview_import(federation=egf, data=table_path.read_bytes(), filename=table_path.name)
    matched = [m for m in preview.players if m.player is not None]
    assert {m.matched_by for m in matched} == {"name and country"}
    with path.open("rb") as stream:
        world = collect(egd_list.read_world_list(stream)).rows
    table = egf_format.parse_table(table_path.read_bytes(), filename=table_path.name)
    assert len(matched) == expected_name_matches(world, table.players) > 0.9 * len(table.players)
    for m in matched:
        assert name_key(m.player.surname, m.player.given_name) == name_key(m.surname, m.first_name)


def test_after_a_run_the_egd_export_counts_the_new_tournament(egf):
    from ratings.services import publication, runs
    from tournaments.models import Event, Game

    run(egf, egd_file(*ROWS), fmt="egd", publish=True)
    aaij, aakerblom = (
        Player.objects.get(federation_player_id=pin) for pin in ("10537560", "13286603")
    )
    event = Event.objects.create(
        federation=egf,
        name="Cup",
        code="CUP",
        kind="individual",
        status="accepted",
        rating_class="A",
        start=date(2018, 7, 14),
        end=date(2018, 7, 14),
    )
    Game.objects.create(event=event, round=1, white=aaij, black=aakerblom, result="1-0")
    done = runs.run_now(federation=egf, period_code="2018-07", by=COMMAND_LINE)
    assert done.status == "succeeded", done.error
    listing = publication.publish_list(list_id=done.rating_list.pk, by=COMMAND_LINE)
    text = "".join(native_exports.native_lines(listing))
    line = next(li for li in text.splitlines() if li.startswith(" 10537560 "))
    gor = listing.entries.get(player=aaij).published_rating
    assert line.split()[-3:] == [str(gor), "96", "T180714"]  # 95 tournaments + this one
    untouched = next(li for li in text.splitlines() if li.startswith(" 12949827 "))
    assert untouched.split()[-2:] == ["5", "G061014"]


def expected_name_matches(world_rows, table_players) -> int:
    """Independently of the database: table players whose name (any case, accents, order) and
    country single out one player of the world list."""
    from collections import Counter

    from federation.countries import iso_country
    from tournaments.importers.egf import name_key

    keys = Counter((name_key(r.surname, r.given_name), iso_country(r.country)) for r in world_rows)
    return sum(
        1
        for p in table_players
        if keys[(name_key(p.surname, p.first_name), iso_country(p.country or ""))] == 1
    )


def test_an_import_reads_and_writes_with_the_cycle_collector_paused(egf, monkeypatch):
    """A list's tens of thousands of rows set off no collection; the collector is on again
    afterwards, also when the file is refused."""
    import gc

    from ratings.services import imports
    from tests.collector_watch import collector_states

    seen = collector_states(monkeypatch, imports, "_read_rows")
    assert gc.isenabled()
    run(egf, egd_file(*ROWS), fmt="egd", publish=True)
    with pytest.raises(ListImportRefused):
        run(egf, egd_file(*ROWS[:2]).replace(b"Number of players: 2", b"Number of players: 3"))
    assert seen == [False, False] and gc.isenabled()
