from django.apps import AppConfig


class FederationConfig(AppConfig):
    name = "federation"
    verbose_name = "Federations"

    def ready(self) -> None:
        from federation import checks  # noqa: F401  (registers the deploy checks)
