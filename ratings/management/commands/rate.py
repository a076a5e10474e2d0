from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from federation.models import Federation
from federation.permissions import COMMAND_LINE
from ratings import systems
from ratings.engines.core.errors import EngineInputError
from ratings.models import RunStatus
from ratings.services import runs


class Command(BaseCommand):
    help = "Rate a federation's period synchronously, without a broker (default: the due one)."

    def add_arguments(self, parser):
        parser.add_argument("federation", help="federation code, e.g. iccf")
        parser.add_argument("period", nargs="?", help="period code, e.g. 2026Q1 or 2026-03")

    def handle(self, *args, federation, period, **options):
        fed = Federation.objects.filter(code=federation).first()
        if fed is None:
            raise CommandError(f"no federation with code {federation!r}")
        if period is None:
            due = systems.of(fed).calendar.due_periods(
                runs.last_rated_code(fed),
                timezone.localdate(),
                params=runs.calendar_of(fed),
            )
            if not due:
                self.stdout.write(f"{fed.code}: nothing is due.")
                return
            period = due[0].code
        try:
            run = runs.run_now(federation=fed, period_code=period, by=COMMAND_LINE)
        except EngineInputError as error:
            raise CommandError(f"period {period!r}: {error.what}") from None
        except runs.RunError as error:
            raise CommandError(str(error)) from None
        if run.status != RunStatus.SUCCEEDED:
            raise CommandError(f"run {run.pk} {run.status}: {run.error}")
        self.stdout.write(
            self.style.SUCCESS(
                f"{fed.code} {period}: run {run.pk} succeeded in {run.duration_seconds:.2f} s, draft "
                f"list {run.rating_list.pk} with {run.rating_list.entry_count} entries; "
                f"publish it with: manage.py publish {run.rating_list.pk}"
            )
        )
        for excluded in run.excluded_events:
            self.stdout.write(f"  left out {excluded['event']}: {excluded['reason']}")
