"""Number formatting as federations publish: half-up rounding (RULES §7), signed changes."""

from django import template

from ratings import systems
from ratings.engines.core.rounding import half_up_2, half_up_int
from ratings.tables import signed as _signed

register = template.Library()


@register.filter
def rating_system(federation):
    """The federation's ``ratings.systems.System``: what its pages show (RD, grade, ...)."""
    return systems.of(federation)


@register.filter
def signed(value):
    """+12, −3, ±0 (half-up), – for none."""
    try:
        return _signed(None if value is None or value == "" else float(value))
    except (TypeError, ValueError):
        return value


@register.filter
def halfup(value):
    """A rating as published: integer, half-up."""
    if value is None or value == "":
        return "–"
    try:
        return half_up_int(float(value))
    except (TypeError, ValueError):
        return value


@register.filter
def halfup2(value):
    if value is None or value == "":
        return "–"
    try:
        return f"{half_up_2(float(value)):.2f}"
    except (TypeError, ValueError):
        return value


@register.filter
def fixed(value, places=4):
    """An intermediate quantity of an engine, shown with `places` decimals (display only)."""
    if value is None or value == "":
        return "–"
    try:
        return f"{float(value):.{int(places)}f}"
    except (TypeError, ValueError):
        return value


@register.filter
def minus(a, b):
    try:
        return float(a) - float(b)
    except (TypeError, ValueError):
        return None


@register.filter
def get(mapping, key):
    """mapping[key] or None (dict lookup with a variable key)."""
    try:
        return mapping.get(key)
    except AttributeError:
        return None
