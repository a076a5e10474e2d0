import time
from datetime import date
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from federation.models import Federation
from federation.permissions import COMMAND_LINE
from ratings.services.imports import FORMATS, ListImportRefused, import_player_list


class Command(BaseCommand):
    help = (
        "Import a player list: an EGD world list, a FIDE rating list (TXT or XML) or a CSV. "
        "Idempotent; --dry-run previews; --publish makes an EGD/CSV list's ratings the "
        "federation's first published list."
    )

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument("--federation", required=True, help="the federation's code")
        parser.add_argument("--format", choices=sorted(FORMATS), help="default: from the name")
        parser.add_argument("--dry-run", action="store_true", help="show what would change")
        parser.add_argument("--publish", action="store_true")
        parser.add_argument(
            "--valid-from", type=date.fromisoformat, help="the list's date, YYYY-MM-DD"
        )

    def handle(self, *args, file, federation, format, dry_run, publish, valid_from, **options):
        path = Path(file)
        if not path.is_file():
            raise CommandError(f"{file}: no such file")
        found = Federation.objects.filter(code=federation).first()
        if found is None:
            raise CommandError(f"no federation with code {federation!r}")
        started = time.perf_counter()
        try:
            preview = import_player_list(
                federation=found,
                source=lambda: path.open("rb"),
                filename=path.name,
                fmt=format,
                publish=publish,
                dry_run=dry_run,
                valid_from=valid_from,
                by=COMMAND_LINE,
            )
        except ListImportRefused as refused:
            for message in refused.preview.messages():
                self.stderr.write(message)
            if refused.preview.more_problems:
                self.stderr.write(f"... and {refused.preview.more_problems} more problem lines")
            raise CommandError(f"{path.name} was not imported; nothing changed") from None
        for warning in preview.warnings[:50]:
            self.stdout.write(f"warning: {warning}")
        if len(preview.warnings) > 50:
            self.stdout.write(f"... and {len(preview.warnings) - 50} more warnings")
        verb = "Would import" if dry_run else "Imported"
        self.stdout.write(
            self.style.SUCCESS(
                f"{verb} {path.name}: {preview.summary()}"
                + (f"; {preview.publication}" if preview.publication else "")
                + f" ({time.perf_counter() - started:.1f} s)"
            )
        )
