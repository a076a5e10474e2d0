""" "Explain my change": a player's move in one rating run, game by game, recomputed by the engine.

The page reads the run's stored per-player inputs (EventRating.details, filled by the run) and
hands them to the same pure engine function that rated the federation (its explain function), so
the quantities shown are the engine's own and the recomputed rating is checked against the
published one. Missing or unreadable details never fail the page: it says "no breakdown stored".

The details this module reads, per EventRating (one player, one event, one run):
  PlayChess: {"rating_before": 1987.5 | null, "games_before": 12, "score_before": 2.5,
              "opponents_before": 10000.0,            (provisional totals, optional)
              "games": [{"opponent": "123", "opponent_rating": 2010.0 | null,
                         "colour": "white" | "black", "result": 1 | 0.5 | 0}, ...]}
  WFCC:      {"tournament": <the engine's JSON input: {"tournament": {...}}>}
  ICCF/EGF:  {"games": [...]} read by the engines' explain functions when they are installed.
"""

from __future__ import annotations

import importlib
import math
from dataclasses import dataclass, field

from django.http import Http404

from ratings.engines.errors import EngineInputError
from ratings.models import EventRating, ListStatus, RatingRun


@dataclass
class ExplainReport:
    run: RatingRun
    system: str
    event_ratings: list[EventRating]
    before: float | None
    after: float
    breakdown: object | None = None  # the engine's explanation object(s)
    recomputed: float | None = None
    note: str = ""
    sections: list = field(default_factory=list)

    @property
    def change(self) -> float | None:
        return None if self.before is None else self.after - self.before

    @property
    def matches(self) -> bool | None:
        if self.recomputed is None:
            return None
        return math.isclose(self.recomputed, self.after, rel_tol=0, abs_tol=1e-6)


def explain_run(player, run_id: int) -> ExplainReport:
    """Two queries: the run (with its published list) and the player's event ratings in it."""
    run = (
        RatingRun.objects.filter(
            pk=run_id,
            federation_id=player.federation_id,
            rating_list__status__in=(ListStatus.PUBLISHED, ListStatus.SUPERSEDED),
        )
        .select_related("period")
        .first()
    )
    if run is None:
        raise Http404("no published run with this id")
    rows = list(
        EventRating.objects.filter(run=run, player=player)
        .select_related("event")
        .order_by("event__end", "event__start", "event__code", "id")
    )
    if not rows:
        raise Http404("the player was not rated in this run")
    system = player.federation.system
    report = ExplainReport(
        run=run, system=system, event_ratings=rows, before=rows[0].before, after=rows[-1].after
    )
    explainer = EXPLAINERS.get(system)
    if explainer is None:
        report.note = "no breakdown for this rating system yet"
        return report
    try:
        explainer(report, player)
    except (EngineInputError, KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        report.breakdown = None
        report.recomputed = None
        report.note = f"no breakdown stored ({exc.__class__.__name__}: {exc})"
    return report


# ---------------------------------------------------------------------------------------------
# Per system


def _playchess(report: ExplainReport, player) -> None:
    from ratings.engines import playchess as pc

    details = [er.details or {} for er in report.event_ratings]
    if not any(d.get("games") for d in details):
        report.note = "no breakdown stored"
        return
    first = details[0]
    me = player.federation_player_id
    rating_before = first.get("rating_before", report.before)
    games_before = int(first.get("games_before", 0))
    players = {
        me: pc.Player(
            id=me,
            rating=rating_before,
            games=games_before,
            score=first.get("score_before"),
            opponents=first.get("opponents_before"),
        )
    }
    games = []
    for d in details:
        for g in d.get("games", []):
            opp = str(g["opponent"])
            if opp not in players:
                # The opponent only enters with his pre-batch rating; his own state is irrelevant.
                players[opp] = pc.Player(id=opp, rating=g.get("opponent_rating"), games=1000)
            result = float(g["result"])
            if g.get("colour", "white") == "white":
                games.append(pc.Game(white=me, black=opp, result=result))
            else:
                games.append(pc.Game(white=opp, black=me, result=1.0 - result))
    explanation = pc.explain(list(players.values()), games, me)
    report.breakdown = explanation
    report.recomputed = explanation.result.rating


def _wfcc(report: ExplainReport, player) -> None:
    from ratings.engines import wfcc
    from ratings.engines.wfcc_json import tournament_from_json

    me = player.federation_player_id
    sections = []
    for er in report.event_ratings:
        raw = (er.details or {}).get("tournament")
        if raw is None:
            report.note = "no breakdown stored"
            return
        tournament = tournament_from_json(raw)
        sections.append((er, wfcc.explain_solver(tournament, me)))
    report.sections = sections
    report.breakdown = sections
    first, last = sections[0][1], sections[-1][1]
    if first.rating is not None and all(x.change is not None for _, x in sections):
        # Several tournaments of one period all start from the list rating (RULES §5).
        report.recomputed = first.rating + math.fsum(x.change for _, x in sections)
    else:
        report.recomputed = last.new_rating


def _optional_engine(system: str):
    """ICCF and EGF explainers are used once their engines provide `explain_player`."""

    def run(report: ExplainReport, player) -> None:
        try:
            module = importlib.import_module(f"ratings.engines.{system}")
        except ImportError:
            report.note = "no breakdown for this rating system yet"
            return
        func = getattr(module, "explain_from_details", None)
        if func is None:
            report.note = "no breakdown for this rating system yet"
            return
        details = [er.details or {} for er in report.event_ratings]
        report.breakdown = func(player.federation_player_id, details)
        report.recomputed = getattr(report.breakdown, "rating", None)

    return run


EXPLAINERS = {
    "playchess": _playchess,
    "wfcc": _wfcc,
    "iccf": _optional_engine("iccf"),
    "egf": _optional_engine("egf"),
}
