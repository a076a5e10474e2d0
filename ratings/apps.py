from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = "Ratings"

    def ready(self) -> None:
        from django.db.models.signals import post_migrate

        from ratings import signals  # noqa: F401  (connects the receivers)
        from ratings.guards import reinstall_guards

        post_migrate.connect(reinstall_guards, sender=self)
