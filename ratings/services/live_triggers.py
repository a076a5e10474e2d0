"""What refreshes the live ratings (ratings.services.live): an event accepted, or an accepted one
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


class _Batch:
    """The refreshes one transaction asks for one federation: the first to run sends it."""

    sent = False


class _Refresh:
    """Sends a federation's refresh once the change is committed, unless another callback of
    the same batch already has."""

    def __init__(self, federation_id: int, batch: _Batch):
        self.federation_id = federation_id
        self.batch = batch

    def __call__(self) -> None:
        if not self.batch.sent:
            self.batch.sent = True
            refresh_live_ratings.delay(self.federation_id)


def _refresh_after_commit(federation_id: int) -> None:
    """One refresh per federation and transaction. A correction chain publishes its lists in
    one transaction, and a refresh recomputes the federation from its newest list, so a
    refresh per list would be thrown away by the next one. Every change still registers its
    own callback, joined to the batch of those pending for the federation: a savepoint rolled
    back takes its callbacks with it, and whichever of the others runs first sends the one. (A
    batch already sent is pending only where a test ran the callbacks before its commit.)"""
    pending = transaction.get_connection().run_on_commit  # (savepoint ids, callback, robust)
    batch = next(
        (
            c.batch
            for _, c, _ in pending
            if isinstance(c, _Refresh) and c.federation_id == federation_id and not c.batch.sent
        ),
        None,
    )
    transaction.on_commit(_Refresh(federation_id, batch or _Batch()))


def connect() -> None:
    post_save.connect(_event_saved, sender=Event, dispatch_uid="live:event")
    post_save.connect(_list_saved, sender=RatingList, dispatch_uid="live:list")
