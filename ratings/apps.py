from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = "Ratings"

    def ready(self) -> None:
        from ratings import input_watch, selectors, tasks  # noqa: F401  (tasks)
        from tournaments import ports

        ports.provide_full_ratings(selectors.full_ratings_at_start)
        input_watch.connect()  # every edit of rating input marks the periods that read it
        ports.provide_published_period(selectors.published_period_holding)
