"""A result changed after its period was rated marks that period as needing a re-run."""

from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from tournaments.models import Game


@receiver(post_save, sender=Game)
@receiver(post_delete, sender=Game)
def game_changed(sender, instance: Game, **kwargs):
    from ratings.services import mark_needs_rerun

    mark_needs_rerun(
        event_id=instance.event_id,
        reason=f"a result of {instance.event.code} changed after it was rated",
    )
