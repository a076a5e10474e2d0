from django.contrib.auth import get_user_model

from federation.demo.seed import demo_logins
from federation.management.demo_command import DemoCommand


class Command(DemoCommand):
    help = "Print the demo admin logins (only those that exist in this database)."

    def handle(self, *args, **options):
        existing = set(get_user_model().objects.values_list("username", flat=True))
        self.stdout.write("Admin logins (http://127.0.0.1:8000/admin/):")
        for login in demo_logins():
            if login.username in existing:
                self.stdout.write(
                    f"  {login.username:22} {login.password:24} {login.role} of {login.federation}"
                )
