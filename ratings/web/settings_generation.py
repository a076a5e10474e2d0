"""A number that changes whenever a Django setting does (tests' override_settings): what the
site renders once and keeps (per-language fragments, list headings, table headers, the filter
inputs without filters) is kept per generation, so a changed setting renders it again."""

from __future__ import annotations

from django.core.signals import setting_changed
from django.dispatch import receiver

_generation = [0]


def settings_generation() -> int:
    return _generation[0]


@receiver(setting_changed)
def _next_generation(**_kwargs) -> None:
    _generation[0] += 1
