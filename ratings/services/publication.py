"""Publication of rating lists: publish, discard, corrections re-rated from a period and
published as one chain, and lists carried over from another system."""

from __future__ import annotations

import logging
from datetime import date

from django.db import transaction
from django.utils import timezone

from federation import audit
from federation.models import Federation
from federation.permissions import Actor, require_rating_officer, user_or_none
from ratings.models import (
    InputEdit,
    ListStatus,
    RatingList,
    RatingPeriod,
    RatingRun,
    RunStatus,
)
from ratings.persistence import writers
from ratings.services import input_watch, provenance, queue
from ratings.services.runs import (
    RunError,
    canonical_digest,
    check_in_calendar,
    ensure_period,
    execute_run,
    prepare_input,
    request_run,
)
from ratings.systems.common import chain_drafts
from ratings.web import page_cache
from tournaments.models import EventStatus

logger = logging.getLogger(__name__)


@transaction.atomic
def publish_list(*, list_id: int, by: Actor) -> RatingList:
    """Publish a draft (superseding its period's published list); only a rating officer of its
    federation (or the system) may."""
    rating_list = (
        RatingList.objects.select_for_update()
        .select_related("period", "run")
        .filter(pk=list_id)
        .first()
    )
    if rating_list is None:
        raise RunError(f"rating list {list_id} does not exist")
    require_rating_officer(by, rating_list.federation, "publish its lists")
    if rating_list.status != ListStatus.DRAFT:
        raise RunError(
            f"rating list {list_id} is {rating_list.status}; only a draft can be published"
        )
    if rating_list.run.status != RunStatus.SUCCEEDED:
        raise RunError(f"the run of list {list_id} has not succeeded")
    stale = stale_reason(rating_list)
    if stale:
        raise RunError(stale)
    superseded = None
    current = (
        RatingList.objects.select_for_update()
        .filter(period=rating_list.period, status=ListStatus.PUBLISHED)
        .first()
    )
    if current is not None:
        current.status = ListStatus.SUPERSEDED
        current.save(update_fields=["status"])
        superseded = current
    rating_list.status = ListStatus.PUBLISHED
    rating_list.published_at = timezone.now()
    rating_list.published_by = user_or_none(by)
    rating_list.supersedes = superseded
    rating_list.save(update_fields=["status", "published_at", "published_by", "supersedes"])
    from tournaments.models import Event

    # The list is exactly what the database gives now (stale_reason): nothing left to re-run.
    RatingPeriod.objects.filter(pk=rating_list.period_id).update(
        needs_rerun=False, needs_rerun_reason=""
    )
    input_watch.notice_published(rating_list)

    Event.objects.filter(
        code__in=rating_list.run.report.get("events", []),
        federation=rating_list.federation,
        status=EventStatus.ACCEPTED,
    ).update(status=EventStatus.RATED)
    page_cache.bump_generation()
    transaction.on_commit(page_cache.bump_generation)  # what rendered meanwhile is stale too
    queue.write_published_files_on_commit(rating_list.pk)
    audit.record(
        actor=by,
        action="publish",
        obj=rating_list,
        message=f"published {rating_list.entry_count} entries for "
        f"{rating_list.period.code}"
        + (f", superseding list {superseded.pk}" if superseded else ""),
    )
    return rating_list


def discard_list(*, list_id: int, by: Actor) -> None:
    with transaction.atomic():
        rating_list = RatingList.objects.select_for_update().get(pk=list_id)
        require_rating_officer(by, rating_list.federation, "discard its lists")
        if rating_list.status != ListStatus.DRAFT:
            raise RunError(
                f"rating list {list_id} is {rating_list.status}; only drafts can be discarded"
            )
        rating_list.status = ListStatus.DISCARDED
        rating_list.save(update_fields=["status"])
        audit.record(actor=by, action="discard", obj=rating_list)


def stale_reason(rating_list: RatingList) -> str | None:
    """Why a draft no longer matches the database (its run's input digest against the digest of
    the input the runner builds now), naming the recorded edits since the run; None if it does."""
    run = rating_list.run
    if run.engine == "import":
        return None  # carried over from elsewhere: there is no engine input to rebuild
    if run.engine != rating_list.federation.system:
        return (
            f"List {rating_list.pk} of {rating_list.period.code} was not published: it was "
            f"rated with {run.engine}, and the federation's rating system is now "
            f"{rating_list.federation.system}. Re-run {rating_list.period.code}."
        )
    _ctx, prepared = prepare_input(rating_list.federation, rating_list.period)
    if provenance.digest(prepared.input_bytes()) == run.input_digest:
        return None
    edits = list(
        InputEdit.objects.filter(
            period=rating_list.period_id, at__gte=run.started_at or run.requested_at
        )
        .order_by("at", "id")
        .values_list("description", flat=True)
    )
    if edits:
        shown = "; ".join(edits[:5]) + (f"; and {len(edits) - 5} more" if len(edits) > 5 else "")
        why = f"since run {run.pk} read it: {shown}"
    else:
        why = f"no recorded edit explains it (a write that bypassed the site since run {run.pk})"
    return (
        f"List {rating_list.pk} of {rating_list.period.code} was not published: its input no "
        f"longer matches the database ({why}). Re-run {rating_list.period.code}."
    )


def rerate_from(
    *, federation: Federation, period_code: str, by: Actor, today: date | None = None
) -> list[RatingRun]:
    """Re-rate a period and every later period with a published list, in order: a chain of
    correction drafts, each rated from the chain's draft of the period before (as if it were
    published). They are reviewed (chain_review) and published together (publish_chain)."""
    require_rating_officer(by, federation, "re-rate its periods")
    start = check_in_calendar(federation, period_code, today)
    later = list(
        RatingPeriod.objects.filter(
            federation=federation,
            valid_from__gt=start.valid_from,
            lists__status=ListStatus.PUBLISHED,
        )
        .order_by("valid_from")
        .distinct()
        .values_list("code", flat=True)
    )
    codes = [start.code, *later]
    busy = (
        RatingList.objects.filter(
            federation=federation, period__code__in=codes, status=ListStatus.DRAFT
        )
        .select_related("period")
        .first()
    )
    if busy is not None:
        raise RunError(
            f"{busy.period.code} of {federation.code} has draft list {busy.pk} awaiting "
            "publication: publish or discard it before re-rating from "
            f"{start.code}"
        )
    runs: list[RatingRun] = []
    drafts: dict[int, int] = {}
    for code in codes:
        run = request_run(
            federation=federation, period_code=code, by=by, enqueue=False, today=today
        )
        run.chain_head_id = runs[0].pk if runs else run.pk
        run.save(update_fields=["chain_head"])
        with chain_drafts(drafts):
            execute_run(run_id=run.pk)
        run.refresh_from_db()
        if run.status != RunStatus.SUCCEEDED:
            discard_chain(head_run_id=run.chain_head_id, by=by)
            raise RunError(
                f"the correction of {code} of {federation.code} failed ({run.error}); "
                f"the chain from {start.code} is discarded"
            )
        drafts[run.period_id] = run.rating_list.pk
        runs.append(run)
    audit.record(
        actor=by,
        action="rerate",
        obj=runs[0],
        message=f"correction chain {', '.join(codes)}",
    )
    return runs


def _chain_lists(head_run_id: int):
    return (
        RatingList.objects.filter(run__chain_head_id=head_run_id)
        .select_related("period", "federation")
        .order_by("period__valid_from")
    )


@transaction.atomic
def publish_chain(*, head_run_id: int, by: Actor) -> list[RatingList]:
    """Publish a correction chain's drafts in one transaction, oldest first; each supersedes its
    period's published list. Nothing is published if one of them is refused."""
    lists = list(_chain_lists(head_run_id))
    if not lists:
        raise RunError(f"run {head_run_id} heads no correction chain")
    require_rating_officer(by, lists[0].federation, "publish its lists")
    for rating_list in lists:
        if rating_list.status != ListStatus.DRAFT:
            raise RunError(
                f"list {rating_list.pk} of {rating_list.period.code} in the chain of run "
                f"{head_run_id} is {rating_list.status}; only a chain of drafts is published"
            )
    return [publish_list(list_id=rating_list.pk, by=by) for rating_list in lists]


def discard_chain(*, head_run_id: int, by: Actor) -> int:
    chain = list(_chain_lists(head_run_id))
    if chain:
        require_rating_officer(by, chain[0].federation, "discard its lists")
    drafts = [rating_list for rating_list in chain if rating_list.status == ListStatus.DRAFT]
    count = 0
    for rating_list in drafts:
        discard_list(list_id=rating_list.pk, by=by)
        count += 1
    return count


@transaction.atomic
def import_list(
    *,
    federation: Federation,
    period_code: str,
    entries: list[dict],
    by: Actor,
    note: str = "imported from the previous rating system",
) -> RatingList:
    """Publish a list carried over from elsewhere (a federation's starting point)."""
    require_rating_officer(by, federation, "import its lists")
    from ratings.systems.common import EntryRow

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
        federation=federation,
        period=period,
        run=run,
        entry_count=sum(1 for row in rows if row.listed),
    )
    writers.write_entries(rating_list, rows, {})
    rating_list.output_digest = run.output_digest = canonical_digest(
        sorted((r.player_id, repr(r.rating), repr(r.rd)) for r in rows)
    )
    rating_list.save(update_fields=["output_digest"])
    run.save(update_fields=["output_digest"])
    return publish_list(list_id=rating_list.id, by=by)
