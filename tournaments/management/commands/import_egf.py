from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from federation.models import Federation
from tournaments.importers.egf import ImportRefused, confirm_import, preview_import, summary


class Command(BaseCommand):
    help = (
        "Import an EGF results table (.h9, .h2, …) into an EGF federation "
        "(the same importer as import_results)."
    )

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument("--federation", required=True, help="federation code")
        parser.add_argument(
            "--reduction",
            type=int,
            default=None,
            help="handicap reduction N when the file does not say",
        )
        parser.add_argument("--dry-run", action="store_true", help="preview only, save nothing")

    def handle(self, *args, file, federation, reduction, dry_run, **options):
        fed = Federation.objects.filter(code=federation).first()
        if fed is None:
            raise CommandError(f"no federation with code {federation!r}")
        path = Path(file)
        try:
            data = path.read_bytes()
        except OSError as error:
            raise CommandError(f"{file}: {error.strerror}") from None
        preview = preview_import(
            federation=fed, data=data, filename=path.name, default_reduction=reduction
        )
        for warning in preview.warnings:
            self.stderr.write(f"warning: {warning}")
        if preview.errors:
            raise CommandError(
                "\n".join(
                    [f"{path.name}: {len(preview.errors)} error(s), nothing saved", *preview.errors]
                )
            )
        summary_text = summary(preview)
        if dry_run:
            self.stdout.write(f"dry run, nothing saved: {summary_text}")
            return
        try:
            event = confirm_import(
                federation=fed, data=data, filename=path.name, default_reduction=reduction
            )
        except ImportRefused as refused:
            raise CommandError("\n".join(refused.errors)) from None
        self.stdout.write(self.style.SUCCESS(f"imported {summary_text} as event {event.pk}"))
