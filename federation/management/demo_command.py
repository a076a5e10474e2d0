"""The base of every demo command: they create known logins and synthetic data, so they refuse
to run in production (PRODUCTION=1)."""

from __future__ import annotations

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError


class DemoCommand(BaseCommand):
    def execute(self, *args, **options):
        if settings.PRODUCTION:
            raise CommandError(
                f"{self.__module__.rsplit('.', 1)[-1]} is a demo command and refuses to run "
                "with PRODUCTION=1 (it creates logins whose passwords are in the repository)."
            )
        return super().execute(*args, **options)
