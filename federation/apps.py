from django.apps import AppConfig


class FederationConfig(AppConfig):
    name = "federation"
    verbose_name = "Federations"
