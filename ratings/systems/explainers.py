"""Per rating system: a player's quantities in one run, from the run's engine input, by the same
pure engine's explain function. Each takes the report (``ratings.web.explain.ExplainReport``), the
player and the engine input the run used, and fills ``breakdown``/``sections``/``recomputed``.
The registry (``ratings/systems/__init__.py``) says which one a system uses."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from django.utils.translation import gettext as _

from federation.models import Player

if TYPE_CHECKING:
    from ratings.web.explain import ExplainReport


def playchess(report: ExplainReport, player: Player, data: dict) -> None:
    from ratings.engines import playchess as pc
    from ratings.engines.playchess import contract as pc_json

    params = pc.params_from_json(data.get("params"))
    players = [pc_json._player_from_json(p, f"players[{i}]") for i, p in enumerate(data["players"])]
    games = [pc_json._game_from_json(g, f"games[{j}]") for j, g in enumerate(data["games"])]
    explanation = pc.explain(players, games, str(player.pk), params)
    report.breakdown = explanation
    report.recomputed = explanation.result.rating


def iccf(report: ExplainReport, player: Player, data: dict) -> None:
    from ratings.engines import iccf as engine
    from ratings.engines.iccf import contract as iccf_json

    params = iccf_json._params_from_json(data.get("params"))
    players = [
        iccf_json._player_from_json(p, f"players[{i}]") for i, p in enumerate(data["players"])
    ]
    games = [iccf_json._game_from_json(g, f"games[{j}]") for j, g in enumerate(data["games"])]
    subs = [
        iccf_json._substitution_from_json(s, f"substitutions[{k}]")
        for k, s in enumerate(data.get("substitutions", []))
    ]
    explanation = engine.explain(str(player.pk), players, games, subs, params)
    report.breakdown = explanation
    report.recomputed = explanation.rating
    report.recomputed_rd = explanation.rd


def egf(report: ExplainReport, player: Player, data: dict) -> None:
    """Per event: the players' pre-tournament ratings the run stored (``before``) and the games."""
    from ratings.engines import egf as engine

    events = [er.event_id for er in report.event_ratings]
    # he and his opponents, by their keys (event ratings have no index by event)
    met = {player.pk} | {
        int(r[1]) for er in report.event_ratings for r in (er.details or {}).get("games") or ()
    }
    before = {
        (event_id, pid): value
        for event_id, pid, value in report.stored_event_ratings()
        .filter(event_id__in=events, player_id__in=sorted(met))
        .values_list("event_id", "player_id", "before")
    }
    sections = []
    for er in report.event_ratings:
        rows = (er.details or {}).get("games")
        if not rows:
            report.note = _("no breakdown stored")
            return
        me = str(player.pk)
        ids = {me} | {str(r[1]) for r in rows}
        players = tuple(
            engine.PlayerEntry(id=i, grade="1k", rating=before[(er.event_id, int(i))])
            for i in sorted(ids)
        )
        games = tuple(
            engine.Game(white=me, black=str(r[1]), result=float(r[2]), handicap=int(r[4]))
            if r[3] == "white"
            else engine.Game(
                white=str(r[1]), black=me, result=1.0 - float(r[2]), handicap=int(r[4])
            )
            for r in rows
        )
        tournament = engine.Tournament(
            id=er.event.code,
            tournament_class=(er.details or {}).get("class") or "A",
            date=None,
            players=players,
            games=games,
        )
        sections.append((er, engine.explain_player(tournament, me)))
    report.sections = sections
    report.breakdown = sections
    report.recomputed = sections[-1][1].after


def wfcc(report: ExplainReport, player: Player, data: dict) -> None:
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
