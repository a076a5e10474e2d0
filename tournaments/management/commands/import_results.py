"""``manage.py import_results FILE --event CODE --federation CODE [--dry-run]``

The importer follows the federation's rating system: an EGF results table (``.h9``, …) creates
the event ``CODE``; a WFCC score sheet (CSV/XLSX, solvers × problems) or ICCF/PlayChess game lines
(CSV/XLSX) go into the existing event ``CODE``. Exit 0: saved (or, with ``--dry-run``, it would
be); exit 1: refused, every problem as ``line N: …`` on stderr, nothing saved.
"""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from federation.models import Federation
from tournaments.formats.tabular import TabularError, file_rows
from tournaments.importers import egf, games, solving
from tournaments.importers.base import ImportRefused
from tournaments.models import Event

REFUSED = 1


def _refuse(name: str, errors: list[str]) -> CommandError:
    return CommandError(
        "\n".join([f"{name}: {len(errors)} error(s), nothing saved", *errors]), returncode=REFUSED
    )


class Command(BaseCommand):
    help = "Import an event's results: EGF table, WFCC score sheet or ICCF/PlayChess game lines."

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument("--event", required=True, help="the event's code")
        parser.add_argument("--federation", required=True, help="the federation's code")
        parser.add_argument("--dry-run", action="store_true", help="check only, save nothing")
        parser.add_argument(
            "--reduction", type=int, default=None, help="EGF: handicap reduction N if not in file"
        )

    def handle(self, *args, file, event, federation, dry_run, reduction, **options):
        fed = Federation.objects.filter(code=federation).first()
        if fed is None:
            raise CommandError(f"no federation with code {federation!r}", returncode=REFUSED)
        path = Path(file)
        try:
            data = path.read_bytes()
        except OSError as error:
            raise CommandError(f"{file}: {error.strerror}", returncode=REFUSED) from None
        if egf.handles(fed.system):
            self._egf(fed, path.name, data, event, reduction, dry_run)
            return
        target = Event.objects.filter(federation=fed, code=event).select_related("federation")
        target = target.first()
        if target is None:
            raise CommandError(f"no event {event!r} in {fed.code}", returncode=REFUSED)
        try:
            rows = file_rows(data, path.name)
        except TabularError as error:
            raise _refuse(path.name, [str(error)]) from None
        if solving.handles(fed.system):
            self._sheet(target, rows, path.name, dry_run)
        elif games.handles(fed.system):
            self._games(target, rows, path.name, dry_run)
        else:  # a system without a results format (or no ratings app to name it)
            raise CommandError(f"no importer for {fed.system}", returncode=REFUSED)

    def _done(self, dry_run: bool, summary: str) -> None:
        if dry_run:
            self.stdout.write(f"dry run, nothing saved: {summary}")
        else:
            self.stdout.write(self.style.SUCCESS(f"saved: {summary}"))

    def _sheet(self, event, rows, name, dry_run):
        def summary(preview):
            return (
                f"{event.code}: {len(preview.lines)} solvers × {len(preview.problems)} problems; "
                f"{preview.created} scores created, {preview.changed} changed, "
                f"{preview.removed} removed"
            )

        self._check_then_save(
            solving.preview_sheet, solving.save_sheet, summary, event, rows, name, dry_run
        )

    def _games(self, event, rows, name, dry_run):
        def summary(preview):
            return f"{event.code}: {len(preview.games)} games"

        self._check_then_save(
            games.preview_games, games.confirm_games, summary, event, rows, name, dry_run
        )

    def _check_then_save(self, preview_of, save, summary, event, rows, name, dry_run):
        """The importer's preview; unless a dry run, its save (which checks again, locked)."""
        preview = preview_of(event=event, rows=rows, source=name)
        if preview.errors:
            raise _refuse(name, preview.errors)
        if not dry_run:
            try:
                preview = save(event=event, rows=rows, by=None, source=name)
            except ImportRefused as refused:
                raise _refuse(name, refused.errors) from None
        self._done(dry_run, summary(preview))

    def _egf(self, fed, name, data, code, reduction, dry_run):
        options = dict(federation=fed, data=data, filename=name, default_reduction=reduction)
        preview = egf.preview_import(**options, event_code=code)
        for warning in preview.warnings:
            self.stderr.write(f"warning: {warning}")
        if preview.errors:
            raise _refuse(name, preview.errors)
        if not dry_run:
            try:
                egf.confirm_import(**options, event_code=code)
            except ImportRefused as refused:
                raise _refuse(name, refused.errors) from None
        self._done(dry_run, egf.summary(preview))
