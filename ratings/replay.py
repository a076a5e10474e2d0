"""Replaying a run: its stored engine input through today's engine, compared byte for byte with
the output it stored. The engine is called through its command-line contract (strict JSON in,
``run_json``, the printed text out), so a replay checks exactly what anyone can check by hand."""

from __future__ import annotations

import json
from dataclasses import dataclass

from federation.models import Player
from ratings import provenance, systems
from ratings.engines.core import jsonio
from ratings.engines.core.errors import EngineInputError
from ratings.models import RatingRun
from ratings.run_files import files_of


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
    version = provenance.engine_version(system.code)
    if now == stored:
        return Replay(run, version, None)
    difference = provenance.output_difference(json.loads(stored), json.loads(now))
    difference = difference or provenance.OutputDifference(None, "", "the bytes differ")
    name = ""
    if difference.player and difference.player.isdigit():
        person = Player.objects.filter(pk=int(difference.player)).first()
        name = person.full_name if person else ""
    return Replay(run, version, difference, name)
