from django.core.management.base import CommandError

from federation.demo.seed import seed_demo
from federation.management.demo_command import DemoCommand
from federation.models import Federation


class Command(DemoCommand):
    help = "Load deterministic synthetic demo data for four federations (one per rating system)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--players",
            type=int,
            default=2000,
            help="total number of players across the four federations",
        )
        parser.add_argument("--seed", type=int, default=2026, help="random seed")
        parser.add_argument(
            "--if-empty", action="store_true", help="do nothing when federations already exist"
        )

    def handle(self, *args, players, seed, if_empty, **options):
        if Federation.objects.exists():
            if if_empty:
                self.stdout.write("Demo data already loaded; nothing to do.")
                return
            raise CommandError(
                "The database already has federations; seed_demo needs an empty "
                "database (use --if-empty to skip quietly)."
            )
        if players < 80:
            raise CommandError("--players must be at least 80 (20 per federation).")
        seed_demo(players=players, seed=seed)
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo data loaded: {players} players in 4 federations (seed {seed})."
            )
        )
