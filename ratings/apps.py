from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = "Ratings"

    def ready(self) -> None:
        from ratings import selectors, signals, tasks  # noqa: F401  (receivers, tasks)
        from tournaments import ports

        ports.provide_full_ratings(selectors.full_ratings_at_start)
