"""ICCF rule 2.1a in a run: the newcomer's declared FIDE rating checked against the imported
FIDE list valid on the ICCF list's date; the run uses the verified value and the officer sees
the mismatch or the missing list on the run and acceptability screens."""

from __future__ import annotations

import io
from datetime import date

import pytest

from federation.permissions import COMMAND_LINE
from ratings.services import runs
from ratings.services.imports import import_player_list
from ratings.systems.common import Context, base_list_for
from ratings.systems.iccf import fide_rule, runner
from tests.factories import make_official

pytestmark = pytest.mark.django_db


def fide_list(federation, rows: dict[str, int], name: str):
    header = "ID Number      Name                                                         Fed Rtng  Gms\n"
    body = "".join(
        f"{fid:<15}{'Player, ' + fid:<61}{'GER':<4}{rating:<6}0\n" for fid, rating in rows.items()
    )
    import_player_list(
        federation=federation,
        source=lambda: io.BytesIO((header + body).encode()),
        filename=name,
        fmt="fide-txt",
        by=COMMAND_LINE,
    )


@pytest.fixture
def newcomer(iccf_world):
    player = iccf_world["players"][5]  # unrated, plays in 2026Q1 (list valid from 2026-01-01)
    player.fide_rating, player.fide_list_date, player.fide_id = 2100, date(2025, 10, 1), "4100018"
    player.save()
    return player


def engine_start(world, player) -> dict:
    federation = world["federation"]
    period = runs.ensure_period(federation=federation, code="2026Q1")
    prepared = runner.build(Context(federation, period, base_list_for(federation, period), {}))
    return next(p for p in prepared.engine_input["players"] if p["id"] == str(player.pk))


def test_the_official_value_replaces_a_mismatched_declaration(iccf_world, newcomer):
    fide_list(iccf_world["federation"], {"4100018": 2050}, "standard_jan26frl.txt")
    assert engine_start(iccf_world, newcomer) == {
        "id": str(newcomer.pk),
        "unrated": True,
        "fide": 2050.0,
    }
    run = runs.run_now(federation=iccf_world["federation"], period_code="2026Q1", by=COMMAND_LINE)
    assert run.report["fide_checks"] == [
        {
            "player": newcomer.pk,
            "declared": 2100,
            "fide_id": "4100018",
            "fide_list": "2026-01-01",
            "official": 2050,
            "status": fide_rule.MISMATCH,
            "used": 2050,
        }
    ]


def test_a_matching_declaration_is_verified_and_not_shown(iccf_world, newcomer):
    fide_list(iccf_world["federation"], {"4100018": 2100}, "standard_jan26frl.txt")
    assert engine_start(iccf_world, newcomer)["fide"] == 2100.0
    run = runs.run_now(federation=iccf_world["federation"], period_code="2026Q1", by=COMMAND_LINE)
    assert run.report["fide_checks"] == []


def test_only_the_quarterly_list_of_the_iccf_date_counts(iccf_world, newcomer):
    # A February list is no rule 2.1a list; the January one was not imported.
    fide_list(iccf_world["federation"], {"4100018": 1900}, "standard_feb26frl.txt")
    assert engine_start(iccf_world, newcomer)["fide"] == 2100.0  # the declaration stands...
    run = runs.run_now(federation=iccf_world["federation"], period_code="2026Q1", by=COMMAND_LINE)
    assert [c["status"] for c in run.report["fide_checks"]] == [fide_rule.NO_LIST]  # ...flagged


def test_a_fide_id_the_list_lacks_means_no_fide_rating(iccf_world, newcomer):
    fide_list(iccf_world["federation"], {"1503014": 2839}, "standard_jan26frl.txt")
    assert engine_start(iccf_world, newcomer) == {"id": str(newcomer.pk), "unrated": True}


def test_the_screens_show_the_checks(iccf_world, newcomer, client):
    fide_list(iccf_world["federation"], {"4100018": 2050}, "standard_jan26frl.txt")
    run = runs.run_now(federation=iccf_world["federation"], period_code="2026Q1", by=COMMAND_LINE)
    client.force_login(make_official("officer", iccf_world["federation"]))
    page = client.get(f"/admin/ratings/ratingrun/{run.pk}/change/")
    assert page.status_code == 200
    assert b"Declared FIDE ratings to look at" in page.content and b"mismatch" in page.content
    from ratings.calendars import period_by_code
    from ratings.systems.iccf.fide_panel import event_fide_checks

    in_window = period_by_code("iccf", "2026Q1").ends_on  # results now go into the 2026Q1 list
    checks = event_fide_checks(iccf_world["event"], in_window)
    assert [(c["player_obj"], c["official"], c["status"]) for c in checks] == [
        (newcomer, 2050, fide_rule.MISMATCH)
    ]
    event_page = client.get(f"/admin/tournaments/event/{iccf_world['event'].pk}/change/")
    assert event_page.status_code == 200
