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
import time
from datetime import date, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from federation import audit
from federation.models import Federation
from federation.permissions import RATING_RUN, Actor, require_rating_officer, user_or_none
from ratings import calendars, systems
from ratings.engines.core.errors import EngineInputError
from ratings.engines.core.gc_pause import cycle_collector_paused
from ratings.engines.core.version import installed_engine_version
from ratings.models import (
    ACTIVE_RUN_STATUSES,
    ListStatus,
    RatingList,
    RatingPeriod,
    RatingRun,
    RunRecord,
    RunStatus,
)
from ratings.persistence import writers
from ratings.persistence.output_digest import output_digest as _output_digest
from ratings.services import provenance, queue
from ratings.systems.common import Context, Prepared, base_list_for

logger = logging.getLogger(__name__)


class RunError(Exception):
    """A run cannot be requested or published; the message says why in plain words."""


def canonical_digest(data) -> str:
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def calendar_of(federation: Federation) -> calendars.CalendarParams:
    """The federation's calendar settings: ``params["calendar"]`` (e.g. egf_snapshot_months)."""
    return calendars.CalendarParams(**(federation.params or {}).get("calendar", {}))


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


def calendar_bounds(federation: Federation, today: date | None = None):
    """(first, last) period a run may be requested for: from the federation's first published
    list (or anywhere, before it has one) to the next list due (the one after its newest
    published list, or the latest whose due date has passed, whichever is later)."""
    params = calendar_of(federation)
    today = today or timezone.localdate()
    published = RatingPeriod.objects.filter(
        federation=federation, lists__status=ListStatus.PUBLISHED
    ).order_by("valid_from")
    first = published.first()
    last = calendars.due_periods(federation.system, None, today, params=params)[0]
    newest = published.last()
    if newest is not None:
        following = calendars.next_period(
            calendars.period_by_code(federation.system, newest.code, params=params), params=params
        )
        if following.starts_on > last.starts_on:
            last = following
    return first, last


def check_in_calendar(federation: Federation, code: str, today: date | None = None):
    """The period of ``code`` if a run may be requested for it; RunError naming why not."""
    try:
        spec = calendars.period_by_code(federation.system, code, params=calendar_of(federation))
    except EngineInputError as error:
        raise RunError(
            f"{code!r} is not a period of {federation.code} ({federation.get_system_display()}):"
            f" {error.what}"
        ) from error
    first, last = calendar_bounds(federation, today)
    if first is not None and spec.valid_from < first.valid_from:
        raise RunError(
            f"{spec.code} is before the first list of {federation.code} ({first.code}, valid "
            f"from {first.valid_from}): its ratings start there"
        )
    if spec.starts_on > last.starts_on:
        raise RunError(
            f"{spec.code} is not open yet for {federation.code}: the next list due is "
            f"{last.code} (its games end on {last.ends_on})"
        )
    return spec


def request_run(
    *,
    federation: Federation,
    period_code: str,
    by: Actor,
    enqueue: bool = True,
    today: date | None = None,
) -> RatingRun:
    """Queue a run for a period of the federation's calendar; returns the already active run if
    there is one. A period outside the calendar (calendar_bounds) is refused with RunError, an
    actor who is not a rating officer of the federation (nor the system) with NotAllowed.

    ``enqueue=False`` leaves the run queued for the caller to execute in-process (manage.py rate).
    """
    require_rating_officer(by, federation, "request its rating runs")
    check_in_calendar(federation, period_code, today)
    period = ensure_period(federation=federation, code=period_code)
    try:
        with transaction.atomic():
            run = RatingRun.objects.create(
                federation=federation,
                period=period,
                requested_by=user_or_none(by),
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
        if enqueue and is_dead(active.pk):
            queue.execute_run(active.pk)  # its worker died: do not wait for the reaper
        return active
    return run


def is_dead(run_id: int) -> bool:
    """A worker took the run (``started_at`` committed by ``_claim``) but nobody holds its row
    lock and it is still active: the worker died, and the run will not finish by itself."""
    with transaction.atomic():
        return (
            RatingRun.objects.select_for_update(skip_locked=True)
            .filter(pk=run_id, status__in=ACTIVE_RUN_STATUSES, started_at__isnull=False)
            .exists()
        )


def _claim(run_id: int) -> bool:
    """Record, committed at once, that a worker took the run; False if it is not to be run."""
    with transaction.atomic():
        claimed = (
            RatingRun.objects.select_for_update(skip_locked=True)
            .filter(pk=run_id, status__in=ACTIVE_RUN_STATUSES)
            .values_list("pk", flat=True)
            .first()
        )
        if claimed is None:
            return False
        RatingRun.objects.filter(pk=run_id).update(started_at=timezone.now())
        return True


_BASE_OF_PERIOD = object()  # prepare_input: the list the period continues from


def prepare_input(
    federation: Federation, period: RatingPeriod, base_list=_BASE_OF_PERIOD
) -> tuple[Context, Prepared]:
    """Read the database into the engine input of a period, as a run of it would now (from the
    list it continues from; a live run passes the newest published list)."""
    if base_list is _BASE_OF_PERIOD:
        base_list = base_list_for(federation, period)
    ctx = Context(federation, period, base_list, engine_params_of(federation))
    prepared: Prepared = systems.of(federation).runner.build(ctx)
    prepared.extra.setdefault("list_date", period.valid_from)
    return ctx, prepared


def _compute(run: RatingRun) -> dict:
    return compute_period(run.federation, run.period)


def compute_period(federation: Federation, period: RatingPeriod, base_list=_BASE_OF_PERIOD) -> dict:
    """Build, compute and interpret one period, writing nothing: a rating run writes the result
    as a draft list; a live run (ratings.services.live) keeps it apart from lists."""
    system = systems.of(federation)
    stages = {}
    started = time.perf_counter()
    ctx, prepared = prepare_input(federation, period, base_list)
    stages["read"] = time.perf_counter() - started
    mark = time.perf_counter()
    output = system.engine.run_json(prepared.built_input)  # the CLI's contract: replayable
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


def digest_engine_versions() -> dict[str, str]:
    """Every system's installed engine version, digested now: a worker does this when it starts
    (ratings.tasks), so that its first run does not parse the engines' files (75 ms a system)."""
    return {system.code: installed_engine_version(system.code) for system in systems.ALL}


def execute_run(*, run_id: int) -> RatingRun | None:
    """Compute a queued run and write its draft list; a no-op for a duplicate delivery."""
    started = time.perf_counter()
    if not _claim(run_id):
        return None
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
            run.engine_version = installed_engine_version(run.federation.system)
            with cycle_collector_paused():  # hundreds of thousands of rows, no cycles
                result = _compute(run)
                _write(run, result, started)
            return run
    except Exception as error:  # recorded on the run; nothing of the run was written
        logger.exception("rating run %s failed", run_id)
        _record_failure(run_id, error)
        return RatingRun.objects.get(pk=run_id)


def _write(run: RatingRun, result: dict, started: float) -> None:
    ctx, prepared, outcome = result["ctx"], result["prepared"], result["outcome"]
    stages = result["stages"]
    # The event ratings are written while the run's files are encoded and digested and the
    # entries' rows built (no query in this block); "write" is what is left to wait for when
    # they are done, and the rest.
    with writers.event_ratings_written_alongside(run, outcome.event_ratings):
        mark = time.perf_counter()
        record, input_digest = _record(run, prepared, result["output"])
        stages["store"] = time.perf_counter() - mark
        mark = time.perf_counter()
        output_digest = _output_digest(outcome)
        stages["digest"] = time.perf_counter() - mark
        mark = time.perf_counter()
        # changes against the list the run continues from, as its runner read it
        entry_rows = writers.entry_rows(outcome.entries, prepared.base)
        stages["entries"] = time.perf_counter() - mark
        mark = time.perf_counter()
    rating_list = RatingList.objects.create(
        federation=run.federation,
        period=run.period,
        run=run,
        previous=ctx.base_list,
        entry_count=sum(1 for e in outcome.entries if e.listed),
        output_digest=output_digest,
    )
    writers.write_entry_rows(rating_list, entry_rows)
    writers.write_norms(run, outcome.norms)
    writers.write_record(record)
    stages["write"] = time.perf_counter() - mark
    run.params = ctx.params
    run.input_digest = input_digest
    run.output_digest = output_digest
    run.excluded_events = prepared.excluded + outcome.report.get("not_rated", [])
    run.report = {"events": [e.code for e in prepared.events], **outcome.report}
    run.stage_seconds = {k: round(v, 4) for k, v in stages.items()}
    run.status = RunStatus.SUCCEEDED
    run.finished_at = timezone.now()
    run.duration_seconds = time.perf_counter() - started
    run.error = ""
    run.save(update_fields=_RUN_RESULT_FIELDS)


# What a run writes when it finishes: nothing else of its row (a stale copy must not win).
_RUN_RESULT_FIELDS = [
    "status",
    "started_at",
    "attempts",
    "engine",
    "engine_version",
    "params",
    "input_digest",
    "output_digest",
    "excluded_events",
    "report",
    "stage_seconds",
    "finished_at",
    "duration_seconds",
    "error",
]


def _record(run: RatingRun, prepared: Prepared, output) -> tuple[RunRecord, str]:
    """The run's engine input and output as it stores them (ratings/services/provenance.py), and the
    input's digest."""
    engine_input = prepared.input_bytes()
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


def _record_failure(run_id: int, error: Exception) -> None:
    with transaction.atomic():
        updated = RatingRun.objects.filter(pk=run_id, status__in=ACTIVE_RUN_STATUSES).update(
            status=RunStatus.FAILED,
            finished_at=timezone.now(),
            error=f"{type(error).__name__}: {error}"[:5000],
        )
        if updated:
            run = RatingRun.objects.get(pk=run_id)
            audit.record(actor=RATING_RUN, action="run_failed", obj=run, message=run.error)


def reap_stuck_runs(*, older_than: timedelta | None = None) -> int:
    """Re-queue runs whose worker died (taken, still active, lock free: at once) and runs never
    taken long after they were requested (their message was lost)."""
    if older_than is None:
        older_than = timedelta(seconds=settings.RATING_RUN_REAP_AFTER_SECONDS)
    active = RatingRun.objects.filter(status__in=ACTIVE_RUN_STATUSES)
    never_taken = active.filter(
        started_at__isnull=True, requested_at__lte=timezone.now() - older_than
    ).values_list("id", flat=True)
    taken = active.filter(started_at__isnull=False).values_list("id", flat=True)
    stuck = sorted({*never_taken, *(run_id for run_id in taken if is_dead(run_id))})
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


def run_now(*, federation: Federation, period_code: str, by: Actor) -> RatingRun:
    """Request and execute a run in this process (no broker needed)."""
    run = request_run(federation=federation, period_code=period_code, by=by, enqueue=False)
    return execute_run(run_id=run.id) or RatingRun.objects.get(pk=run.id)


def schedule_due_runs(*, today: date, by: Actor) -> list[RatingRun]:
    """Open and queue each federation's due periods (oldest first; one per federation)."""
    runs = []
    for federation in Federation.objects.all():
        due = systems.of(federation).calendar.due_periods(
            last_rated_code(federation), today, params=calendar_of(federation)
        )
        if due:
            runs.append(
                request_run(federation=federation, period_code=due[0].code, by=by, today=today)
            )
    return runs
