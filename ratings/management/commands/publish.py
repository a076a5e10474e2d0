from django.core.management.base import BaseCommand, CommandError

from federation.permissions import COMMAND_LINE
from ratings.services import publication, runs


class Command(BaseCommand):
    help = "Publish a draft rating list (it becomes immutable)."

    def add_arguments(self, parser):
        parser.add_argument("list_id", type=int)

    def handle(self, *args, list_id, **options):
        try:
            rating_list = publication.publish_list(list_id=list_id, by=COMMAND_LINE)
        except runs.RunError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(
            self.style.SUCCESS(
                f"Published list {rating_list.pk} ({rating_list.period.code}, "
                f"{rating_list.entry_count} entries)."
            )
        )
