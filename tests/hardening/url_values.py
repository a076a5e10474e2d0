"""Values for every URL parameter of the public site, taken from a test world."""

from __future__ import annotations

from ratings.systems import ALL as SYSTEMS
from ratings.web.exports import FORMATS


def world_values(world) -> dict[str, list[str]]:
    return {
        "federation": [world.federation.code],
        "period": [p.code for p in world.periods],
        "player": [p.federation_player_id for p in world.players],
        "code": [world.event.code],
        "run": [world.runs[-1].pk],
        "fmt": list(FORMATS),
        "part": ["input", "output"],
        "system": [s.code for s in SYSTEMS],
    }
