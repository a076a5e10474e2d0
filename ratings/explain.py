""" "Explain my change": a player's move in one rating run, game by game, recomputed by the engine.

The run's engine input is reproducible: the system's runner rebuilds it from the database with the
run's base list and parameters, and its digest is compared with the one the run stored (so the
page says whether these are exactly the inputs the run used). The player's quantities then come
from the same pure engine's explain function, and the recomputed rating is checked against the
published one. EGF needs no rebuild: each event's pre-tournament ratings are the stored `before`
of its players in the run. Missing or unusable inputs never fail the page: it says so instead.
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass, field

from django.core.cache import cache
from django.http import Http404
from django.utils.translation import gettext as _

from federation.models import Player
from ratings.engines.core.errors import EngineInputError
from ratings.models import EventRating, ListStatus, RatingRun

PUBLIC = (ListStatus.PUBLISHED, ListStatus.SUPERSEDED)
logger = logging.getLogger(__name__)


@dataclass
class ExplainReport:
    run: RatingRun
    system: str
    event_ratings: list[EventRating]
    before: float | None
    after: float
    before_rd: float | None = None
    after_rd: float | None = None
    breakdown: object | None = None  # the engine's explanation (per system)
    sections: list = field(default_factory=list)  # (EventRating, explanation) per event
    recomputed: float | None = None
    recomputed_rd: float | None = None
    inputs_match: bool | None = None  # rebuilt input digest == the run's stored digest
    names: dict[str, str] = field(default_factory=dict)  # engine id -> player name
    note: str = ""

    @property
    def change(self) -> float | None:
        return None if self.before is None else self.after - self.before

    @property
    def matches(self) -> bool | None:
        if self.recomputed is None:
            return None
        same = math.isclose(self.recomputed, self.after, rel_tol=0, abs_tol=1e-9)
        if self.recomputed_rd is not None and self.after_rd is not None:
            same = same and math.isclose(self.recomputed_rd, self.after_rd, abs_tol=1e-9)
        return same


# Rebuilding a period's input reads the whole period (seconds for a large ICCF period): a
# player's report is kept for an hour, so reloading the page or following links costs nothing.
REPORT_SECONDS = 3600


def explain_run(player: Player, run_id: int) -> ExplainReport:
    key = f"ratings:explain:{run_id}:{player.pk}"
    cached = cache.get(key)
    if cached is not None:
        return cached
    report = _explain_run(player, run_id)
    cache.set(key, report, timeout=REPORT_SECONDS)
    return report


def _explain_run(player: Player, run_id: int) -> ExplainReport:
    run = (
        RatingRun.objects.filter(
            pk=run_id, federation_id=player.federation_id, rating_list__status__in=PUBLIC
        )
        .select_related("period", "federation", "rating_list__previous")
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
    report = ExplainReport(
        run=run,
        system=player.federation.system,
        event_ratings=rows,
        before=rows[0].before,
        after=rows[-1].after,
        before_rd=rows[0].before_rd,
        after_rd=rows[-1].after_rd,
    )
    explainer = EXPLAINERS.get(report.system)
    try:
        explainer(report, player)
    except Exception as exc:  # the page still shows the stored change, and says why not more
        if not isinstance(exc, EngineInputError | KeyError | TypeError | ValueError | IndexError):
            logger.exception("explain of run %s for player %s failed", run_id, player.pk)
        report.breakdown, report.recomputed, report.sections = None, None, []
        report.note = _("no breakdown stored (%(error)s)") % {
            "error": f"{exc.__class__.__name__}: {exc}"
        }
    if report.breakdown is not None:
        _name_players(report)
    return report


def _name_players(report: ExplainReport) -> None:
    ids = set()
    for item in [report.breakdown, *[x for _er, x in report.sections]]:
        for attr in ("games", "steps"):
            for g in getattr(item, attr, ()) or ():
                ids.add(getattr(g, "opponent", None))
        for part in ("provisional", "established"):
            for g in getattr(getattr(item, part, None), "steps", ()) or ():
                ids.add(g.opponent)
    pks = [int(i) for i in ids if isinstance(i, str) and i.isdigit()]
    report.names = {
        str(pk): f"{surname}, {given}" if given else surname
        for pk, surname, given in Player.objects.filter(pk__in=pks).values_list(
            "pk", "surname", "given_name"
        )
    }


def _rebuild(report: ExplainReport):
    """The run's engine input, rebuilt by its runner from the run's base list and parameters."""
    from ratings.runners import runner_for
    from ratings.runners.common import Context
    from ratings.services import canonical_digest

    run = report.run
    ctx = Context(run.federation, run.period, run.rating_list.previous, dict(run.params or {}))
    prepared = runner_for(report.system).build(ctx)
    if run.input_digest:
        report.inputs_match = canonical_digest(prepared.engine_input) == run.input_digest
    return prepared


# ---------------------------------------------------------------------------------------------
# Per system


def _playchess(report: ExplainReport, player: Player) -> None:
    from ratings.engines import playchess as pc
    from ratings.engines.playchess import contract as pc_json

    data = _rebuild(report).engine_input
    params = pc.params_from_json(data.get("params"))
    players = [pc_json._player_from_json(p, f"players[{i}]") for i, p in enumerate(data["players"])]
    games = [pc_json._game_from_json(g, f"games[{j}]") for j, g in enumerate(data["games"])]
    explanation = pc.explain(players, games, str(player.pk), params)
    report.breakdown = explanation
    report.recomputed = explanation.result.rating


def _iccf(report: ExplainReport, player: Player) -> None:
    from ratings.engines import iccf
    from ratings.engines.iccf import contract as iccf_json

    data = _rebuild(report).engine_input
    params = iccf_json._params_from_json(data.get("params"))
    players = [
        iccf_json._player_from_json(p, f"players[{i}]") for i, p in enumerate(data["players"])
    ]
    games = [iccf_json._game_from_json(g, f"games[{j}]") for j, g in enumerate(data["games"])]
    subs = [
        iccf_json._substitution_from_json(s, f"substitutions[{k}]")
        for k, s in enumerate(data.get("substitutions", []))
    ]
    explanation = iccf.explain(str(player.pk), players, games, subs, params)
    report.breakdown = explanation
    report.recomputed = explanation.rating
    report.recomputed_rd = explanation.rd


def _egf(report: ExplainReport, player: Player) -> None:
    """Per event: the players' stored pre-tournament ratings and the games of the details."""
    from ratings.engines import egf

    events = [er.event_id for er in report.event_ratings]
    before = {
        (event_id, pid): value
        for event_id, pid, value in EventRating.objects.filter(
            run=report.run, event_id__in=events
        ).values_list("event_id", "player_id", "before")
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
            egf.PlayerEntry(id=i, grade="1k", rating=before[(er.event_id, int(i))])
            for i in sorted(ids)
        )
        games = tuple(
            egf.Game(white=me, black=str(r[1]), result=float(r[2]), handicap=int(r[4]))
            if r[3] == "white"
            else egf.Game(white=str(r[1]), black=me, result=1.0 - float(r[2]), handicap=int(r[4]))
            for r in rows
        )
        tournament = egf.Tournament(
            id=er.event.code,
            tournament_class=(er.details or {}).get("class") or "A",
            date=None,
            players=players,
            games=games,
        )
        sections.append((er, egf.explain_player(tournament, me)))
    report.sections = sections
    report.breakdown = sections
    report.recomputed = sections[-1][1].after


def _wfcc(report: ExplainReport, player: Player) -> None:
    from ratings.engines import wfcc
    from ratings.engines.wfcc.types import Solver, Tournament

    prepared = _rebuild(report)
    base = prepared.extra.get("base", {})
    by_code = {t.id: t for t in prepared.extra["tournaments"]}
    sections = []
    for er in report.event_ratings:
        t = by_code[er.event.code]
        # As the run does: a solver without a full rating brings his stored half-rating.
        solvers = tuple(
            s
            if s.rating is not None
            else Solver(
                id=s.id,
                rounds=s.rounds,
                time=s.time,
                half_ratings=tuple(
                    (base[int(s.id)].state or {}).get("half_ratings", [])
                    if int(s.id) in base and base[int(s.id)].half_rating
                    else []
                )[:1],
            )
            for s in t.solvers
        )
        tournament = Tournament(
            id=t.id, kt=t.kt, solvers=solvers, multi_location=t.multi_location, problems=t.problems
        )
        sections.append((er, wfcc.explain_solver(tournament, str(player.pk))))
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


EXPLAINERS = {"playchess": _playchess, "iccf": _iccf, "egf": _egf, "wfcc": _wfcc}
