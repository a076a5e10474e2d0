"""Writes to events and games; every check that must hold whatever the entry path."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction

from tournaments.models import Event, Game


def check_game_players(game: Game) -> None:
    """Both players of a game must belong to the event's federation, and be different."""
    event = game.event
    errors = {}
    for side in ("white", "black"):
        player = getattr(game, side, None) if getattr(game, f"{side}_id") else None
        if player is not None and player.federation_id != event.federation_id:
            errors[side] = ValidationError(
                "%(player)s belongs to federation %(theirs)s, not to %(event)s's federation "
                "%(ours)s.",
                params={"player": player, "theirs": player.federation.code,
                        "event": event.code, "ours": event.federation.code},
                code="wrong_federation",
            )
    if game.white_id and game.white_id == game.black_id:
        errors["black"] = ValidationError("A player cannot play himself.", code="self_play")
    if errors:
        raise ValidationError(errors)


@transaction.atomic
def record_game(*, event: Event, **fields) -> Game:
    """Create a game after checking its players; raises ValidationError and saves nothing."""
    game = Game(event=event, **fields)
    check_game_players(game)
    game.full_clean()
    game.save()
    return game
