"""EGF: a player's quantities in one run, from the run's engine input, by the same pure
engine's explain function; fills the report's ``breakdown``/``sections``/``recomputed``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils.translation import gettext as _

if TYPE_CHECKING:
    from federation.models import Player
    from ratings.web.explain import ExplainReport


def explain(report: ExplainReport, player: Player, data: dict) -> None:
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
