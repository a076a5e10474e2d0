from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = "Ratings"

    def ready(self) -> None:
        from ratings import input_watch

        input_watch.connect()  # every edit of rating input marks the periods that read it
