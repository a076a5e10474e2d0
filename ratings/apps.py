from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = "Ratings"

    def ready(self) -> None:
        from django.db.models.signals import post_migrate

        from ratings import systems, tasks  # noqa: F401  (tasks)
        from ratings.persistence.guards import reinstall_guards
        from ratings.selectors import events  # noqa: F401  (tasks)
        from ratings.services import (
            input_watch,  # noqa: F401  (tasks)
            live_triggers,  # noqa: F401  (tasks)
        )
        from ratings.systems.iccf import fide_panel  # noqa: F401  (tasks)
        from tournaments import ports

        ports.provide_full_ratings(events.full_ratings_at_start)
        ports.provide_event_fields(systems.event_fields_by_system)
        ports.provide_results_formats(lambda: {s.code: s.results_format for s in systems.ALL})
        ports.provide_fide_checks(fide_panel.event_fide_checks)
        input_watch.connect()  # every edit of rating input marks the periods that read it
        live_triggers.connect()  # acceptance and publication refresh the live ratings
        ports.provide_published_period(events.published_period_holding)
        post_migrate.connect(reinstall_guards, sender=self)
