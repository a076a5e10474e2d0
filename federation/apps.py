from django.apps import AppConfig


class FederationConfig(AppConfig):
    name = "federation"
    verbose_name = "Federations"

    def ready(self) -> None:
        from django.db.backends.signals import connection_created

        from federation import checks  # noqa: F401  (registers the deploy checks)
        from federation.triggers import sqlite_keep_trigger_references

        connection_created.connect(sqlite_keep_trigger_references)
