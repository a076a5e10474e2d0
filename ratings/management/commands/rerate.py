from django.core.management.base import BaseCommand, CommandError

from federation.models import Federation
from federation.permissions import COMMAND_LINE
from ratings.selectors.corrections import chain_review
from ratings.services import publication
from ratings.services.runs import RunError


class Command(BaseCommand):
    help = (
        "Re-rate a federation from a period: that period and every later published one, as a "
        "chain of correction drafts (published together with --publish)."
    )

    def add_arguments(self, parser):
        parser.add_argument("federation", help="federation code, e.g. egf")
        parser.add_argument(
            "--from", dest="period", required=True, help="period code, e.g. 2025-01"
        )
        parser.add_argument("--publish", action="store_true", help="publish the whole chain")

    def handle(self, *args, federation, period, publish, **options):
        fed = Federation.objects.filter(code=federation).first()
        if fed is None:
            raise CommandError(f"no federation with code {federation!r}")
        try:
            chain = publication.rerate_from(federation=fed, period_code=period, by=COMMAND_LINE)
        except RunError as error:
            raise CommandError(str(error)) from None
        head = chain[0].pk
        for revised in chain_review(head):
            self.stdout.write(
                f"{revised.code}: draft list {revised.draft_id}, {revised.entries} entries, "
                f"{len(revised.rows)} published ratings revised"
            )
            for row in revised.rows[:5]:
                self.stdout.write(
                    f"    {row.name} ({row.federation_player_id}): {row.original} -> {row.revised}"
                )
        if not publish:
            self.stdout.write(
                f"Review, then publish with: manage.py rerate ... or the admin (chain {head})."
            )
            return
        try:
            published = publication.publish_chain(head_run_id=head, by=COMMAND_LINE)
        except RunError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(
            self.style.SUCCESS(
                f"{fed.code}: published {len(published)} corrected lists "
                f"({published[0].period.code} to {published[-1].period.code})"
            )
        )
