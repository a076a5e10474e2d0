from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = "Ratings"

    def ready(self) -> None:
        from django.db.models.signals import post_migrate

        from ratings import input_watch, live_triggers, selectors, systems, tasks  # noqa: F401  (tasks)
        from ratings.guards import reinstall_guards
        from tournaments import ports

        ports.provide_full_ratings(selectors.full_ratings_at_start)
        ports.provide_event_fields(systems.event_fields_by_system)
        input_watch.connect()  # every edit of rating input marks the periods that read it
        live_triggers.connect()  # acceptance and publication refresh the live ratings
        ports.provide_published_period(selectors.published_period_holding)
        post_migrate.connect(reinstall_guards, sender=self)
