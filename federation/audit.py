"""Writing audit events: who changed what, from which values to which (append-only)."""

from __future__ import annotations

import json
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.db.models import Model
from django.forms.models import model_to_dict

from federation.models import AuditEvent
from federation.permissions import COMMAND_LINE, SCHEDULER, SystemActor, federation_id_of

__all__ = [
    "snapshot",
    "changed_values",
    "build",
    "record",
    "federation_id_of",
    "actor_name",
    "SystemActor",
    "COMMAND_LINE",
    "SCHEDULER",
]


def snapshot(obj: Model | None) -> dict[str, Any]:
    """The object's field values as JSON-safe data (dates and decimals as strings)."""
    if obj is None or obj.pk is None:
        return {}
    return json.loads(json.dumps(model_to_dict(obj), cls=DjangoJSONEncoder))


def changed_values(old: dict, new: dict) -> tuple[dict, dict]:
    keys = sorted(k for k in set(old) | set(new) if old.get(k) != new.get(k))
    return {k: old.get(k) for k in keys}, {k: new.get(k) for k in keys}


def actor_name(actor) -> str:
    """The name the audit row keeps: the system actor's, or the user's ("" for nobody)."""
    if isinstance(actor, SystemActor):
        return actor.name
    if getattr(actor, "is_authenticated", False):
        return actor.get_username()
    return ""


def build(
    *,
    actor,
    action: str,
    obj: Model,
    old: dict | None = None,
    new: dict | None = None,
    message: str = "",
    federation_id: int | None = None,
) -> AuditEvent:
    """The audit row, unsaved: ``record`` saves one; importers bulk-insert many."""
    old_values, new_values = changed_values(old or {}, new or {})
    return AuditEvent(
        federation_id=federation_id if federation_id is not None else federation_id_of(obj),
        actor=actor if getattr(actor, "is_authenticated", False) else None,
        actor_name=actor_name(actor),
        action=action,
        object_type=obj._meta.label,
        object_id=str(obj.pk or ""),
        object_repr=str(obj)[:300],
        old_values=old_values,
        new_values=new_values,
        message=message,
    )


def record(**fields) -> AuditEvent:
    """Write one audit row (``build``'s keyword arguments)."""
    event = build(**fields)
    event.save(force_insert=True)
    return event
