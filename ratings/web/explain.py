""" "Explain my change": a player's move in one rating run, game by game, recomputed by the engine.

The player's quantities come from the engine input the run stored (``RunRecord``), through the
same pure engine's explain function (per system: ``ratings/systems/<code>/explain.py``), and the
recomputed rating is checked against the published one. The page also says whether the database
still gives that input: the system's runner rebuilds it from today's database (with the run's base
list and parameters) and, when it differs, which events and results changed since the run. Runs made
before runs stored their input have only a digest: their breakdown is computed from the rebuilt
input, and the page says so. Missing or unusable inputs never fail the page: it says so instead.
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass, field

from django.core.cache import cache
from django.http import Http404
from django.utils.translation import gettext as _

from federation.models import Player
from ratings import systems
from ratings.engines.core.errors import EngineInputError
from ratings.models import EventRating, ListStatus, RatingRun
from ratings.numbers import published_change
from ratings.services import provenance
from ratings.services.replay import compare_with_database

PUBLIC = (ListStatus.PUBLISHED, ListStatus.SUPERSEDED)
logger = logging.getLogger(__name__)


@dataclass
class ExplainReport:
    run: RatingRun | None  # None: the explain of a live (unofficial) rating, see `live`
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
    input_stored: bool = False  # the run kept its engine input and output (downloadable)
    changes: list[provenance.InputChange] = field(default_factory=list)  # since the run
    names: dict[str, str] = field(default_factory=dict)  # engine id -> player name
    note: str = ""
    live: object | None = None  # the LiveRun explained instead of a run (ratings.services.live)

    @property
    def spec(self) -> systems.System:
        return systems.get(self.system)

    def stored_event_ratings(self):
        """Every player's stored before/after of the explained computation."""
        if self.live is not None:
            return self.live.event_ratings.all()
        return EventRating.objects.filter(run=self.run)

    @property
    def change(self) -> float | None:
        return None if self.before is None else self.after - self.before

    @property
    def published_change(self) -> int | None:
        return published_change(self.before, self.after)

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
    # An edit of rating input marks the period for a re-run: a marked period's report is new.
    mark = (
        RatingRun.objects.filter(pk=run_id)
        .values_list("period__needs_rerun", "period__needs_rerun_reason")
        .first()
    )
    key = f"ratings:explain:{run_id}:{player.pk}:{provenance.digest(repr(mark).encode())[:16]}"
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
        .order_by("event__end", "event__start", "event__code", "event_id")
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
    return explain_report(report, player)


def explain_report(report: ExplainReport, player: Player) -> ExplainReport:
    """Fill in the engine's breakdown of the report's stored change (a run's, or a live run's)."""
    try:
        report.spec.explain(report, player, _engine_input(report))
    except Exception as exc:  # the page still shows the stored change, and says why not more
        if not isinstance(exc, EngineInputError | KeyError | TypeError | ValueError | IndexError):
            logger.exception(
                "explain of %s for player %s failed", report.run or report.live, player.pk
            )
        report.breakdown, report.recomputed, report.sections = None, None, []
        report.note = _("no breakdown stored (%(error)s)") % {
            "error": f"{exc.__class__.__name__}: {exc}"
        }
    if report.breakdown is not None:
        _name_players(report)
    return report


def explain_live(player):
    """The engine's breakdown of the player's live rating (Http404 when he has none)."""
    from ratings.services.live import live_rating

    current = live_rating(player)
    if current is None:
        raise Http404("no live rating for this player")
    rows = list(
        current.live_run.event_ratings.filter(player=player)
        .select_related("event")
        .order_by("event__end", "event__start", "event__code", "event_id")
    )
    report = ExplainReport(
        run=None,
        live=current.live_run,
        system=player.federation.system,
        event_ratings=rows,
        before=rows[0].before,
        after=rows[-1].after,
        before_rd=rows[0].before_rd,
        after_rd=rows[-1].after_rd,
    )
    return current, explain_report(report, player)


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


def _engine_input(report: ExplainReport) -> dict:
    """The input the run gave its engine, and what differs from the one the database gives now.

    A run stored before runs kept their input has only its digest: the rebuilt input stands in
    for it, with a note saying so. A live run always stores its input."""
    if report.live is not None:
        from ratings.services.live import stored_input

        return stored_input(report)
    check = compare_with_database(report.run)
    report.inputs_match = check.unchanged
    report.changes = check.changes
    report.input_stored = check.stored is not None
    if check.stored is None:
        report.note = _(
            "This run was made before runs stored their engine input: the breakdown is computed "
            "from the input the database gives today."
        )
        return check.current
    return check.stored
