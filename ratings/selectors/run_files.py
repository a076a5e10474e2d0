"""A run's stored engine input and output as the files anyone can check it with.

``input.json`` is the canonical input exactly as stored (its SHA-256 is the run's
``input_digest``); ``output.json`` is exactly what ``python -m ratings.engines SYSTEM input.json``
prints. The export command, the admin's run page and the public explain page all serve these.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.http import HttpResponse

from ratings.models import RatingRun, RunRecord
from ratings.services import provenance


@dataclass(frozen=True)
class RunFiles:
    run: RatingRun
    input: bytes
    output: bytes

    def name(self, part: str) -> str:
        return f"{self.run.federation.code}-{self.run.period.code}-run{self.run.pk}-{part}.json"


def files_of(run: RatingRun) -> RunFiles | None:
    """None for a run without stored input (made before runs kept it, or not succeeded)."""
    record = RunRecord.objects.filter(run=run).first()
    if record is None:
        return None
    return RunFiles(
        run=run,
        input=provenance.decompress(record.engine_input),
        output=provenance.decompress(record.engine_output) + b"\n",
    )


def json_download(content: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
