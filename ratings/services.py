"""Rating runs and list publication: the one home for writes of the ratings app.

request_run ─► RatingRun(queued) ─on commit─► tasks.execute_run(id) ─► execute_run:
the whole run happens in ONE transaction that holds a row lock on the run (SELECT … FOR UPDATE
SKIP LOCKED). A duplicate delivery finds the row locked (or already finished) and does nothing; a
worker killed mid-run releases the lock with its connection and leaves nothing behind, so the
redelivered task starts afresh. A run that raises is rolled back and recorded as failed.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import time
from datetime import date, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from federation import audit
from federation.models import Federation
from ratings import page_cache, periods, persistence, provenance, queue, systems
from ratings.engines.core.version import engine_version
from ratings.models import (
    ACTIVE_RUN_STATUSES,
    ListStatus,
    RatingList,
    RatingPeriod,
    RatingRun,
    RunRecord,
    RunStatus,
)
from ratings.runners.common import Context, Prepared, base_list_for
from tournaments.models import EventStatus

logger = logging.getLogger(__name__)


class RunError(Exception):
    """A run cannot be requested or published; the message says why in plain words."""


def canonical_digest(data) -> str:
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def calendar_of(federation: Federation) -> periods.CalendarParams:
    """The federation's calendar settings: ``params["calendar"]`` (e.g. egf_snapshot_months)."""
    return periods.CalendarParams(**(federation.params or {}).get("calendar", {}))


def engine_params_of(federation: Federation) -> dict:
    """The engine's parameters: ``params["engine"]`` (e.g. {"rd_cap": 120, "epsilon": 0.016})."""
    return dict((federation.params or {}).get("engine", {}))


def ensure_period(*, federation: Federation, code: str) -> RatingPeriod:
    spec = systems.of(federation).calendar.period_by_code(code, params=calendar_of(federation))
    period, _ = RatingPeriod.objects.get_or_create(
        federation=federation,
        code=spec.code,
        defaults=dict(
            starts_on=spec.starts_on,
            ends_on=spec.ends_on,
            list_published_on=spec.list_published_on,
            valid_from=spec.valid_from,
        ),
    )
    return period


def request_run(
    *, federation: Federation, period_code: str, by=None, enqueue: bool = True
) -> RatingRun:
    """Queue a run for a period; returns the already active run if there is one.

    ``enqueue=False`` leaves the run queued for the caller to execute in-process (manage.py rate).
    """
    period = ensure_period(federation=federation, code=period_code)
    try:
        with transaction.atomic():
            run = RatingRun.objects.create(
                federation=federation,
                period=period,
                requested_by=by if by and by.is_authenticated else None,
                engine=federation.system,
            )
            audit.record(
                actor=by, action="request_run", obj=run, message=f"run requested for {period.code}"
            )
            if enqueue:
                queue.execute_run_on_commit(run.id)
    except IntegrityError:
        active = RatingRun.objects.filter(period=period, status__in=ACTIVE_RUN_STATUSES).first()
        if active is None:
            raise
        return active
    return run


def _compute(run: RatingRun) -> dict:
    federation, period = run.federation, run.period
    system = systems.of(federation)
    params = engine_params_of(federation)
    ctx = Context(federation, period, base_list_for(federation, period), params)
    stages = {}
    started = time.perf_counter()
    prepared: Prepared = system.runner.build(ctx)
    prepared.extra.setdefault("list_date", period.valid_from)
    stages["read"] = time.perf_counter() - started
    mark = time.perf_counter()
    output = system.rate(prepared, params)
    stages["compute"] = time.perf_counter() - mark
    mark = time.perf_counter()
    outcome = system.runner.interpret(prepared, output)
    stages["interpret"] = time.perf_counter() - mark
    return {
        "ctx": ctx,
        "prepared": prepared,
        "output": output,
        "outcome": outcome,
        "stages": stages,
    }


def _output_digest(outcome) -> str:
    return canonical_digest(
        {
            "entries": sorted(
                (
                    e.player_id,
                    repr(e.rating),
                    repr(e.rd),
                    e.published_rating,
                    e.published_rd,
                    e.games,
                    e.provisional,
                    e.half_rating,
                    e.listed,
                )
                for e in outcome.entries
            ),
            "events": sorted(
                (r.event_id, r.player_id, repr(r.before), repr(r.after), r.games)
                for r in outcome.event_ratings
            ),
            "norms": sorted((n.event_id, n.player_id, n.title) for n in outcome.norms),
        }
    )


def execute_run(*, run_id: int) -> RatingRun | None:
    """Compute a queued run and write its draft list; a no-op for a duplicate delivery."""
    started = time.perf_counter()
    try:
        with transaction.atomic():
            # Lock the run row only (of=self): locking the joined federation would make a run of
            # another period of the same federation skip this one as "locked".
            run = (
                RatingRun.objects.select_for_update(skip_locked=True, of=("self",))
                .select_related("federation", "period")
                .filter(pk=run_id, status__in=ACTIVE_RUN_STATUSES)
                .first()
            )
            if run is None:
                return None
            run.status = RunStatus.RUNNING
            run.started_at = timezone.now()
            run.attempts += 1
            run.engine = run.federation.system
            run.engine_version = engine_version(run.federation.system)
            result = _compute(run)
            _write(run, result, started)
            return run
    except Exception as error:  # recorded on the run; nothing of the run was written
        logger.exception("rating run %s failed", run_id)
        _record_failure(run_id, error)
        return RatingRun.objects.get(pk=run_id)


def _write(run: RatingRun, result: dict, started: float) -> None:
    ctx, prepared, outcome = result["ctx"], result["prepared"], result["outcome"]
    mark = time.perf_counter()
    record, input_digest = _record(run, prepared, result["output"])
    result["stages"]["store"] = time.perf_counter() - mark
    mark = time.perf_counter()
    output_digest = _output_digest(outcome)
    result["stages"]["digest"] = time.perf_counter() - mark
    mark = time.perf_counter()
    previous = {}
    if ctx.base_list is not None:
        previous = dict(ctx.base_list.entries.values_list("player_id", "rating"))
    rating_list = RatingList.objects.create(
        federation=run.federation,
        period=run.period,
        run=run,
        previous=ctx.base_list,
        entry_count=sum(1 for e in outcome.entries if e.listed),
        output_digest=output_digest,
    )
    persistence.write_entries(rating_list, outcome.entries, previous)
    persistence.write_event_ratings(run, outcome.event_ratings)
    persistence.write_norms(run, outcome.norms)
    record.save(force_insert=True)
    _fault_pause()
    result["stages"]["write"] = time.perf_counter() - mark
    run.params = ctx.params
    run.input_digest = input_digest
    run.output_digest = output_digest
    run.excluded_events = prepared.excluded + outcome.report.get("not_rated", [])
    run.report = {"events": [e.code for e in prepared.events], **outcome.report}
    run.stage_seconds = {k: round(v, 4) for k, v in result["stages"].items()}
    run.status = RunStatus.SUCCEEDED
    run.finished_at = timezone.now()
    run.duration_seconds = time.perf_counter() - started
    run.error = ""
    run.save()


def _record(run: RatingRun, prepared: Prepared, output) -> tuple[RunRecord, str]:
    """The run's engine input and output as it stores them (ratings/provenance.py), and the
    input's digest."""
    engine_input = provenance.canonical_bytes(prepared.engine_input)
    engine_output = provenance.engine_output_bytes(output)
    record = RunRecord(
        run=run,
        engine_input=provenance.compress(engine_input),
        engine_output=provenance.compress(engine_output),
        input_labels=provenance.compress(provenance.canonical_bytes(prepared.labels)),
        input_size=len(engine_input),
        output_size=len(engine_output),
    )
    return record, provenance.digest(engine_input)


def _fault_pause(variable: str = "RATING_RUN_FAULT_PAUSE_FILE") -> None:
    """Fault injection for the worker-kill tests: with the variable set to a file name, the first
    run (or publication, RATING_PUBLISH_FAULT_PAUSE_FILE) to get here, in any process, creates
    that file and sleeps before commit."""
    marker = os.environ.get(variable)
    if not marker:
        return
    try:
        with open(marker, "x") as handle:
            handle.write(str(os.getpid()))
    except FileExistsError:
        return
    time.sleep(float(os.environ.get("RATING_RUN_FAULT_PAUSE_SECONDS", "30")))


def _record_failure(run_id: int, error: Exception) -> None:
    with transaction.atomic():
        updated = RatingRun.objects.filter(pk=run_id, status__in=ACTIVE_RUN_STATUSES).update(
            status=RunStatus.FAILED,
            finished_at=timezone.now(),
            error=f"{type(error).__name__}: {error}"[:5000],
        )
        if updated:
            run = RatingRun.objects.get(pk=run_id)
            audit.record(actor=None, action="run_failed", obj=run, message=run.error)


@transaction.atomic
def publish_list(*, list_id: int, by=None) -> RatingList:
    rating_list = (
        RatingList.objects.select_for_update()
        .select_related("period", "run")
        .filter(pk=list_id)
        .first()
    )
    if rating_list is None:
        raise RunError(f"rating list {list_id} does not exist")
    if rating_list.status != ListStatus.DRAFT:
        raise RunError(
            f"rating list {list_id} is {rating_list.status}; only a draft can be published"
        )
    if rating_list.run.status != RunStatus.SUCCEEDED:
        raise RunError(f"the run of list {list_id} has not succeeded")
    newer = RatingList.objects.filter(
        federation=rating_list.federation,
        status=ListStatus.PUBLISHED,
        period__valid_from__gt=rating_list.period.valid_from,
    ).exists()
    if newer:
        raise RunError(
            "a list of a later period is already published; re-run that period "
            "after publishing this correction"
        )
    superseded = None
    current = (
        RatingList.objects.select_for_update()
        .filter(period=rating_list.period, status=ListStatus.PUBLISHED)
        .first()
    )
    if current is not None:
        current.status = ListStatus.SUPERSEDED
        current.save()
        superseded = current
    rating_list.status = ListStatus.PUBLISHED
    rating_list.published_at = timezone.now()
    rating_list.published_by = by if by is not None and by.is_authenticated else None
    rating_list.supersedes = superseded
    rating_list.save()
    from tournaments.models import Event, Game

    # A result saved after the run started is not in this list (the run read the old one): keep
    # the period marked for a re-run instead of clearing the mark.
    changed = (
        Game.objects.filter(
            event__federation=rating_list.federation,
            event__code__in=rating_list.run.report.get("events", []),
            updated_at__gt=rating_list.run.started_at,
        )
        .select_related("event")
        .first()
        if rating_list.run.started_at
        else None
    )
    RatingPeriod.objects.filter(pk=rating_list.period_id).update(
        needs_rerun=changed is not None,
        needs_rerun_reason=f"a result of {changed.event.code} changed while "
        f"{rating_list.period.code} was being rated"
        if changed
        else "",
    )

    Event.objects.filter(
        code__in=rating_list.run.report.get("events", []),
        federation=rating_list.federation,
        status=EventStatus.ACCEPTED,
    ).update(status=EventStatus.RATED)
    _fault_pause("RATING_PUBLISH_FAULT_PAUSE_FILE")
    page_cache.bump_generation()
    transaction.on_commit(page_cache.bump_generation)  # what rendered meanwhile is stale too
    audit.record(
        actor=by,
        action="publish",
        obj=rating_list,
        message=f"published {rating_list.entry_count} entries for "
        f"{rating_list.period.code}"
        + (f", superseding list {superseded.pk}" if superseded else ""),
    )
    return rating_list


def discard_list(*, list_id: int, by=None) -> None:
    with transaction.atomic():
        rating_list = RatingList.objects.select_for_update().get(pk=list_id)
        if rating_list.status != ListStatus.DRAFT:
            raise RunError(
                f"rating list {list_id} is {rating_list.status}; only drafts can be discarded"
            )
        rating_list.status = ListStatus.DISCARDED
        rating_list.save()
        audit.record(actor=by, action="discard", obj=rating_list)


def mark_needs_rerun(*, event_id: int, reason: str) -> int:
    """A result of an already rated event changed: flag every period whose runs rated it."""
    period_ids = set(
        RatingList.objects.filter(
            status=ListStatus.PUBLISHED, run__event_ratings__event_id=event_id
        ).values_list("period_id", flat=True)
    )
    return RatingPeriod.objects.filter(id__in=period_ids).update(
        needs_rerun=True, needs_rerun_reason=reason[:500]
    )


def reap_stuck_runs(*, older_than: timedelta | None = None) -> int:
    """Re-queue runs still queued long after they were requested (their message was lost)."""
    older_than = older_than or timedelta(seconds=settings.RATING_RUN_REAP_AFTER_SECONDS)
    stuck = list(
        RatingRun.objects.filter(
            status__in=ACTIVE_RUN_STATUSES, requested_at__lt=timezone.now() - older_than
        ).values_list("id", flat=True)
    )
    for run_id in stuck:
        queue.execute_run(run_id)
    return len(stuck)


def last_rated_code(federation: Federation) -> str | None:
    latest = (
        RatingList.objects.filter(
            federation=federation, status__in=[ListStatus.PUBLISHED, ListStatus.DRAFT]
        )
        .order_by("-period__valid_from")
        .select_related("period")
        .first()
    )
    return latest.period.code if latest else None


def run_now(*, federation: Federation, period_code: str, by=None) -> RatingRun:
    """Request and execute a run in this process (no broker needed)."""
    run = request_run(federation=federation, period_code=period_code, by=by, enqueue=False)
    return execute_run(run_id=run.id) or RatingRun.objects.get(pk=run.id)


@transaction.atomic
def import_list(
    *,
    federation: Federation,
    period_code: str,
    entries: list[dict],
    by=None,
    note: str = "imported from the previous rating system",
) -> RatingList:
    """Publish a list carried over from elsewhere (a federation's starting point)."""
    from ratings.runners.common import EntryRow

    period = ensure_period(federation=federation, code=period_code)
    now = timezone.now()
    run = RatingRun.objects.create(
        federation=federation,
        period=period,
        status=RunStatus.SUCCEEDED,
        engine="import",
        engine_version="import",
        started_at=now,
        finished_at=now,
        report={"note": note},
        input_digest=canonical_digest(entries),
    )
    rows = [EntryRow(**row) for row in entries]
    rating_list = RatingList.objects.create(
        federation=federation, period=period, run=run, entry_count=len(rows)
    )
    persistence.write_entries(rating_list, rows, {})
    rating_list.output_digest = run.output_digest = canonical_digest(
        sorted((r.player_id, repr(r.rating), repr(r.rd)) for r in rows)
    )
    rating_list.save()
    run.save()
    return publish_list(list_id=rating_list.id, by=by)


def schedule_due_runs(*, today: date) -> list[RatingRun]:
    """Open and queue each federation's due periods (oldest first; one per federation)."""
    runs = []
    for federation in Federation.objects.all():
        due = systems.of(federation).calendar.due_periods(
            last_rated_code(federation), today, params=calendar_of(federation)
        )
        if due:
            runs.append(request_run(federation=federation, period_code=due[0].code))
    return runs
