"""Runs are replayable bit for bit: each stores its engine input and output, the engine's command
line reproduces the exported output from the exported input, replay_run tells an identical output
from a changed one (naming the player), and the files are downloadable."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from federation.permissions import COMMAND_LINE
from federation.triggers import UNLOCK_TABLE
from ratings.models import ImmutableListError, ListStatus, RatingRun, RunRecord
from ratings.services import provenance, runs
from tests.factories import make_official

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[3]
SYSTEMS = ("iccf", "egf", "playchess", "wfcc")


def _runs(system: str) -> list[RatingRun]:
    found = list(RatingRun.objects.filter(engine=system).select_related("federation", "period"))
    assert found, f"the demo has no {system} run"
    return found


def test_every_engine_run_of_the_demo_stores_input_and_output(rated_demo):
    for system in SYSTEMS:
        for run in _runs(system):
            record = RunRecord.objects.get(run=run)
            raw_input = provenance.decompress(record.engine_input)
            # The stored input is the one the run's digest was computed over.
            assert provenance.digest(raw_input) == run.input_digest
            assert len(raw_input) == record.input_size
            assert len(provenance.decompress(record.engine_output)) == record.output_size
            assert record.stored_bytes < record.input_size + record.output_size


def test_every_run_stores_a_label_for_each_list_item_of_its_input(rated_demo):
    """The labels (made while the event ratings are copied) name the row behind each item of
    the stored input, one per item, as the run's system reads them now."""
    for system in SYSTEMS:
        for run in _runs(system):
            record = RunRecord.objects.get(run=run)
            stored_input = json.loads(provenance.decompress(record.engine_input))
            labels = json.loads(provenance.decompress(record.input_labels))
            assert labels, f"run {run.pk} stored no labels"
            for path, names in labels.items():
                items = stored_input
                for step in path.replace("]", "").replace("[", ".").split("."):
                    items = items[int(step)] if step.isdigit() else items[step]
                assert len(names) == len(items), (run.pk, path)
                assert all(name.startswith("event ") for name in names), (run.pk, path)
            if system == "iccf":
                games = stored_input["games"]
                assert labels["games"][0].endswith(f", game {run_game_ids(run)[0]}")
                assert len(games) == len(run_game_ids(run))


def run_game_ids(run: RatingRun) -> list[int]:
    """The ids of the games an ICCF run rated, in its input's order (by id)."""
    _, prepared = runs.prepare_input(run.federation, run.period)
    return prepared.extra["sides"].game.tolist()


@pytest.mark.parametrize("system", SYSTEMS)
def test_exported_input_through_the_engine_cli_prints_the_exported_output(
    rated_demo, system, tmp_path
):
    for run in _runs(system):
        source, expected = tmp_path / f"{run.pk}-in.json", tmp_path / f"{run.pk}-out.json"
        call_command("export_run", run.pk, input=source, output=expected, stdout=None)
        assert provenance.digest(source.read_bytes()) == run.input_digest
        printed = subprocess.run(
            [sys.executable, "-m", "ratings.engines", system, str(source)],
            cwd=ROOT,
            capture_output=True,
            check=True,
        ).stdout
        assert printed == expected.read_bytes(), f"run {run.pk} ({run.period.code})"


@pytest.mark.parametrize("system", SYSTEMS)
def test_replay_run_exits_0_on_every_demo_run(rated_demo, system, capsys):
    for run in _runs(system):
        call_command("replay_run", run.pk)  # exit status 1 would raise SystemExit
        assert "gives the stored output exactly" in capsys.readouterr().out


def _tamper(run: RatingRun, output: dict) -> None:
    """Rewrite a stored output (final by trigger: the DBA's maintenance switch is needed)."""
    with connection.cursor() as cursor:
        cursor.execute(f"INSERT INTO {UNLOCK_TABLE} (reason) VALUES ('test tamper')")
    RunRecord.objects.filter(run=run).update(
        engine_output=provenance.compress(provenance.engine_output_bytes(output))
    )
    with connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {UNLOCK_TABLE}")


@pytest.mark.parametrize("system", ["iccf", "playchess"])
def test_replay_run_exits_1_naming_the_first_player_whose_stored_output_differs(
    rated_demo, system, capsys
):
    from federation.models import Player

    run = _runs(system)[-1]
    output = json.loads(provenance.decompress(RunRecord.objects.get(run=run).engine_output))
    row = output["players"][3]
    row["rating"] += 0.001
    _tamper(run, output)
    with pytest.raises(SystemExit) as exit_:
        call_command("replay_run", run.pk)
    assert exit_.value.code == 1
    player = Player.objects.get(pk=int(row["id"]))
    message = capsys.readouterr().err
    assert f"player {row['id']} ({player.full_name}) differs first at players[3].rating" in message


def test_replay_run_exits_1_naming_the_player_of_an_egf_tournament(rated_demo, capsys):
    run = _runs("egf")[0]
    output = json.loads(provenance.decompress(RunRecord.objects.get(run=run).engine_output))
    row = output["tournaments"][0]["players"][1]
    row["after"] -= 1
    _tamper(run, output)
    with pytest.raises(SystemExit) as exit_:
        call_command("replay_run", run.pk)
    assert exit_.value.code == 1
    assert f"player {row['id']} (" in capsys.readouterr().err


def test_stored_input_and_output_are_final(rated_demo):
    record = RunRecord.objects.filter(run__rating_list__status=ListStatus.PUBLISHED).first()
    with pytest.raises(ImmutableListError):
        record.save()
    with pytest.raises(Exception, match="final|immutable"):  # the database says no as well
        RunRecord.objects.filter(pk=record.pk).update(output_size=1)


def _forget_record(run: RatingRun) -> None:
    """A run as runs were stored before this change: no RunRecord."""
    with connection.cursor() as cursor:
        cursor.execute(f"INSERT INTO {UNLOCK_TABLE} (reason) VALUES ('test legacy')")
    RunRecord.objects.filter(run=run).delete()
    with connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {UNLOCK_TABLE}")


def test_a_run_stored_before_records_is_explained_and_refused_plainly(rated_demo, client, tmp_path):
    run = _runs("iccf")[-1]
    player = run.event_ratings.select_related("player").first().player
    _forget_record(run)
    page = client.get(
        f"/federations/{run.federation.code}/players/{player.federation_player_id}"
        f"/explain/{run.pk}/"
    )
    assert page.status_code == 200
    assert "made before runs stored their engine input" in page.content.decode()
    assert f"runs/{run.pk}/input.json" not in page.content.decode()
    url = f"/federations/{run.federation.code}/runs/{run.pk}/input.json"
    assert client.get(url).status_code == 404
    for command, options in (
        ("replay_run", {}),
        ("export_run", {"input": tmp_path / "i", "output": tmp_path / "o"}),
    ):
        with pytest.raises(CommandError, match="before runs kept") as refused:
            call_command(command, run.pk, **options)
        assert refused.value.returncode == 2, command  # "cannot tell", not "differs" (1)


def test_public_downloads_serve_the_files_of_published_runs_only(rated_demo, client):
    run = _runs("egf")[-1]
    record = RunRecord.objects.get(run=run)
    base = f"/federations/{run.federation.code}/runs/{run.pk}"
    response = client.get(f"{base}/input.json")
    assert response.status_code == 200
    assert response.content == provenance.decompress(record.engine_input)
    assert "attachment" in response["Content-Disposition"]
    output = client.get(f"{base}/output.json").content
    assert output == provenance.decompress(record.engine_output) + b"\n"
    assert client.get(f"{base}/other.json").status_code == 404
    assert client.get(f"/federations/iccf/runs/{run.pk}/input.json").status_code == 404
    # A draft's run (the latest period run again) is not public.
    draft = runs.run_now(federation=run.federation, period_code=run.period.code, by=COMMAND_LINE)
    assert draft.rating_list.status == ListStatus.DRAFT
    url = f"/federations/{run.federation.code}/runs/{draft.pk}/input.json"
    assert client.get(url).status_code == 404


def test_admin_run_page_offers_the_files_to_its_own_federation_only(rated_demo, client):
    run = _runs("playchess")[-1]
    officer = make_official("officer-files", run.federation)
    client.force_login(officer)
    page = client.get(f"/admin/ratings/ratingrun/{run.pk}/change/").content.decode()
    link = f"/admin/ratings/ratingrun/{run.pk}/files/input.json"
    assert link in page and "python -m ratings.engines playchess" in page
    response = client.get(link)
    assert response.content == provenance.decompress(RunRecord.objects.get(run=run).engine_input)
    other = _runs("iccf")[-1]
    assert client.get(f"/admin/ratings/ratingrun/{other.pk}/files/input.json").status_code == 404
