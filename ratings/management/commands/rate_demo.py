from django.utils import timezone

from federation.management.demo_command import DemoCommand
from federation.models import Federation
from federation.permissions import COMMAND_LINE
from ratings import calendars, systems
from ratings.models import ListStatus, RatingList, RunStatus
from ratings.services import publication, runs
from tournaments.models import Event


class Command(DemoCommand):
    help = "Rate and publish every due period of every federation, oldest first (idempotent)."

    def handle(self, *args, **options):
        today = timezone.localdate()
        for federation in Federation.objects.order_by("code"):
            first_event = Event.objects.filter(federation=federation).order_by("start").first()
            if first_event is None:
                continue
            calendar = runs.calendar_of(federation)
            period = systems.of(federation).calendar.period_for(first_event.start, params=calendar)
            published = 0
            while period.due_on <= today:
                done = RatingList.objects.filter(
                    federation=federation, period__code=period.code, status=ListStatus.PUBLISHED
                ).exists()
                if not done:
                    run = runs.run_now(
                        federation=federation, period_code=period.code, by=COMMAND_LINE
                    )
                    if run.status != RunStatus.SUCCEEDED:
                        self.stderr.write(f"{federation.code} {period.code}: {run.error}")
                        break
                    publication.publish_list(list_id=run.rating_list.pk, by=COMMAND_LINE)
                    published += 1
                period = calendars.next_period(period, params=calendar)
            self.stdout.write(f"{federation.code}: {published} list(s) rated and published")
