import sys

from django.core.management.base import BaseCommand, CommandError

from ratings.models import RatingRun
from ratings.services.replay import NothingToReplay, replay


class Command(BaseCommand):
    help = (
        "Re-run a run's stored engine input with today's engine: exit 0 when the output is "
        "identical to the stored one, 1 (naming the first differing player) when it is not."
    )

    def add_arguments(self, parser):
        parser.add_argument("run", type=int, help="the run's id")

    def handle(self, *args, run, **options):
        found = RatingRun.objects.select_related("federation", "period").filter(pk=run).first()
        if found is None:
            raise CommandError(f"no run with id {run}", returncode=2)
        try:
            result = replay(found)
        except NothingToReplay as error:
            raise CommandError(str(error), returncode=2) from None
        if result.identical:
            self.stdout.write(self.style.SUCCESS(str(result)))
            return
        self.stderr.write(str(result))
        sys.exit(1)
