"""WFCC: a player's quantities in one run, from the run's engine input, by the same pure
engine's explain function; fills the report's ``breakdown``/``sections``/``recomputed``."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from federation.models import Player
    from ratings.web.explain import ExplainReport


def explain(report: ExplainReport, player: Player, data: dict) -> None:
    from ratings.engines import wfcc as engine

    # the run's input as the engine reads it: half-ratings carried inside the engine
    tournaments, half_ratings, params = engine.quarter_from_json(data)
    sections = [
        (
            er,
            engine.explain_in_quarter(
                tournaments, er.event.code, str(player.pk), half_ratings, params
            ),
        )
        for er in report.event_ratings
    ]
    report.sections = sections
    report.breakdown = sections
    first, last = sections[0][1], sections[-1][1]
    if first.rating is not None and all(x.change is not None for _, x in sections):
        # Several tournaments of one period all start from the list rating (RULES §5).
        report.recomputed = first.rating + math.fsum(x.change for _, x in sections)
    elif last.half_ratings is not None and last.new_rating is None:
        report.recomputed = math.fsum(last.half_ratings) / len(last.half_ratings)
    else:
        report.recomputed = last.new_rating
