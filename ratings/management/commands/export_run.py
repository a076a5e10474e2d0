from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from ratings.models import RatingRun
from ratings.selectors.run_files import files_of


class Command(BaseCommand):
    help = (
        "Write a run's stored engine input and output: `python -m ratings.engines SYSTEM INPUT` "
        "prints exactly OUTPUT."
    )

    def add_arguments(self, parser):
        parser.add_argument("run", type=int, help="the run's id")
        parser.add_argument("--input", required=True, type=Path, help="file for the engine input")
        parser.add_argument("--output", required=True, type=Path, help="file for the output")

    def handle(self, *args, run, input, output, **options):
        found = RatingRun.objects.select_related("federation", "period").filter(pk=run).first()
        if found is None:
            raise CommandError(f"no run with id {run}", returncode=2)
        files = files_of(found)
        if files is None:
            raise CommandError(
                f"run {run} ({found.status}) has no stored input and output: it was made before "
                "runs kept them, or it did not succeed",
                returncode=2,
            )
        try:
            input.write_bytes(files.input)
            output.write_bytes(files.output)
        except OSError as error:
            raise CommandError(f"{error.filename}: {error.strerror}", returncode=2) from None
        self.stdout.write(
            f"run {run}: input {len(files.input)} bytes -> {input}, output "
            f"{len(files.output)} bytes -> {output}; check with: python -m ratings.engines "
            f"{found.engine} {input}"
        )
