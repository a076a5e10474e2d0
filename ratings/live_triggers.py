"""What refreshes the live ratings (ratings.live): an event accepted, or an accepted one
rejected, and a list published. The refresh is a Celery task sent once the change is committed;
beat also refreshes every federation nightly."""

from __future__ import annotations

from django.db import transaction
from django.db.models.signals import post_save

from ratings.models import ListStatus, RatingList
from ratings.tasks import refresh_live_ratings
from tournaments.models import Event, EventStatus


def _event_saved(sender, instance: Event, update_fields=None, **kwargs):
    if update_fields is not None and "status" not in update_fields:
        return  # an edit that is no judgement
    if instance.status in (EventStatus.ACCEPTED, EventStatus.REJECTED):
        _refresh_after_commit(instance.federation_id)


def _list_saved(sender, instance: RatingList, **kwargs):
    if instance.status == ListStatus.PUBLISHED:  # the live ratings' new base
        _refresh_after_commit(instance.federation_id)


def _refresh_after_commit(federation_id: int) -> None:
    transaction.on_commit(lambda: refresh_live_ratings.delay(federation_id))


def connect() -> None:
    post_save.connect(_event_saved, sender=Event, dispatch_uid="live:event")
    post_save.connect(_list_saved, sender=RatingList, dispatch_uid="live:list")
