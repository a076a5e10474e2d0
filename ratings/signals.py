"""A result changed after its period was rated marks that period as needing a re-run; an event
accepted or rejected, or a list published, refreshes the federation's live ratings."""

from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from tournaments.models import Event, EventStatus, Game


@receiver(post_save, sender=Game)
@receiver(post_delete, sender=Game)
def game_changed(sender, instance: Game, **kwargs):
    from ratings.services import mark_needs_rerun

    mark_needs_rerun(
        event_id=instance.event_id,
        reason=f"a result of {instance.event.code} changed after it was rated",
    )


@receiver(post_save, sender=Event)
def event_judged(sender, instance: Event, update_fields=None, **kwargs):
    """An event accepted (or an accepted one rejected) changes the live ratings: refresh them
    once the change is committed."""
    if update_fields is not None and "status" not in update_fields:
        return
    if instance.status in (EventStatus.ACCEPTED, EventStatus.REJECTED):
        _refresh_live_after_commit(instance.federation_id)


@receiver(post_save, sender="ratings.RatingList")
def list_published(sender, instance, **kwargs):
    """A new published list is the live ratings' new base."""
    from ratings.models import ListStatus

    if instance.status == ListStatus.PUBLISHED:
        _refresh_live_after_commit(instance.federation_id)


def _refresh_live_after_commit(federation_id: int) -> None:
    from django.db import transaction

    from ratings.tasks import refresh_live_ratings

    transaction.on_commit(lambda: refresh_live_ratings.delay(federation_id))
