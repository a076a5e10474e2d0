"""A run against today: its stored engine input through today's engine, compared byte for byte
with the output it stored (``replay``; the engine is called through its command-line contract,
so a replay checks exactly what anyone can check by hand), and against the input today's
database gives (``compare_with_database``: what changed since the run, in words)."""

from __future__ import annotations

import json
from dataclasses import dataclass

from federation.models import Player
from ratings import systems
from ratings.engines.core import jsonio
from ratings.engines.core.errors import EngineInputError
from ratings.engines.core.version import installed_engine_version
from ratings.models import RatingRun, RunRecord
from ratings.selectors.run_files import files_of
from ratings.services import provenance
from ratings.systems.common import Context, Prepared


class NothingToReplay(Exception):
    """The run stored no input (made before runs kept it), or today's engine refuses it."""


@dataclass(frozen=True)
class Replay:
    run: RatingRun
    engine_version: str  # today's
    difference: provenance.OutputDifference | None
    player_name: str = ""

    @property
    def identical(self) -> bool:
        return self.difference is None

    def __str__(self) -> str:
        head = f"run {self.run.pk} ({self.run.federation.code} {self.run.period.code})"
        versions = f"engine {self.run.engine_version} then, {self.engine_version} now"
        if self.identical:
            return f"{head}: today's engine gives the stored output exactly ({versions})"
        d = self.difference
        who = f"player {d.player}" + (f" ({self.player_name})" if self.player_name else "")
        if d.player is None:
            who = "the output"
        return f"{head}: {who} differs first at {d.path}: {d.detail} ({versions})"


def replay(run: RatingRun) -> Replay:
    files = files_of(run)
    if files is None:
        raise NothingToReplay(
            f"run {run.pk} ({run.status}) has no stored input: it was made before runs kept "
            "their input and output, or it did not succeed"
        )
    system = systems.get(run.engine)
    try:
        now = provenance.engine_output_bytes(system.engine.run_json(jsonio.loads(files.input)))
    except EngineInputError as error:
        raise NothingToReplay(f"run {run.pk}: today's engine refuses the input: {error}") from None
    stored = files.output.rstrip(b"\n")
    version = installed_engine_version(system.code)
    if now == stored:
        return Replay(run, version, None)
    difference = provenance.output_difference(json.loads(stored), json.loads(now))
    difference = difference or provenance.OutputDifference(None, "", "the bytes differ")
    name = ""
    if difference.player and difference.player.isdigit():
        person = Player.objects.filter(pk=int(difference.player)).first()
        name = person.full_name if person else ""
    return Replay(run, version, difference, name)


@dataclass(frozen=True)
class DatabaseCheck:
    """The run's input against the one the runner builds from today's database."""

    current: dict  # today's input
    stored: dict | None  # the run's (None: made before runs kept their input)
    unchanged: bool | None  # digests equal (None: the run has no digest either)
    changes: list[provenance.InputChange]  # what differs, named by the labelled rows


def input_now(run: RatingRun) -> Prepared:
    """The run's engine input as its runner builds it from today's database, with the run's base
    list and parameters (and the labels of that input)."""
    ctx = Context(run.federation, run.period, run.rating_list.previous, dict(run.params or {}))
    return systems.get(run.engine).runner.build(ctx)


def compare_with_database(run: RatingRun) -> DatabaseCheck:
    prepared = input_now(run)
    current, current_labels = prepared.engine_input, prepared.labels
    digest = provenance.digest(prepared.input_bytes())
    unchanged = digest == run.input_digest if run.input_digest else None
    record = RunRecord.objects.filter(run=run).first()
    if record is None:
        return DatabaseCheck(current, None, unchanged, [])
    stored = json.loads(provenance.decompress(record.engine_input))
    changes = []
    if not unchanged:
        labels = json.loads(provenance.decompress(record.input_labels))
        changes = provenance.input_changes(stored, labels, current, current_labels) or [
            provenance.InputChange("other", "the order of the input")
        ]
    return DatabaseCheck(current, stored, unchanged, changes)
