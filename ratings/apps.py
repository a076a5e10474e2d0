from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = "Ratings"

    def ready(self) -> None:
        from ratings import fide_panel, selectors, signals, tasks  # noqa: F401  (receivers, tasks)
        from tournaments import ports

        ports.provide_full_ratings(selectors.full_ratings_at_start)
        ports.provide_fide_checks(fide_panel.event_fide_checks)
