"""A WFCC solving event's score sheet, from the admin sheet or a CSV/XLSX file.

The sheet sets the scores of the solvers it lists: a filled cell creates or changes that score,
an empty cell removes it; solvers not on the sheet keep theirs. ``preview_sheet`` checks every
cell (``tournaments.formats.solving_sheet``) and looks the solvers up, writing nothing;
``save_sheet`` does the same under the event's row lock and writes every change with one audit
row each in one transaction, or raises ``ImportRefused``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from django.db import transaction

from federation import audit
from federation.models import AuditEvent, Player
from tournaments.formats.solving_sheet import (
    SOLVER,
    ParsedSheet,
    ProblemKey,
    Score,
    SheetIssue,
    parse_sheet,
)
from tournaments.formats.tabular import Row
from tournaments.importers.base import (
    ImportRefused,
    audit_rows,
    entry_closed_reason,
    find_players,
    locked_event,
    reads_results_of,
)
from tournaments.models import Event, EventKind, Problem, SolverScore
from tournaments.signals import results_written

RESULTS_FORMAT = "score-sheet"  # a system whose events take it says so (System.results_format)


def handles(system: str) -> bool:
    """Whether this importer reads the results of ``system``'s events."""
    return reads_results_of(system, RESULTS_FORMAT)


@dataclass(frozen=True)
class SolverLine:
    line: int
    solver: Player
    scores: dict[ProblemKey, Score | None]

    @property
    def total(self) -> Decimal:
        return sum((s.points for s in self.scores.values() if s), Decimal("0.00"))


@dataclass
class SheetPreview:
    event: Event
    problems: list[Problem]
    lines: list[SolverLine] = field(default_factory=list)
    issues: list[SheetIssue] = field(default_factory=list)  # each with its line and column
    general: list[str] = field(default_factory=list)  # about the event, not a cell
    created: int = 0
    changed: int = 0
    removed: int = 0
    source: str = "sheet"

    @property
    def errors(self) -> list[str]:
        return self.general + [str(i) for i in self.issues]

    @property
    def ok(self) -> bool:
        return not self.errors

    def cell_errors(self) -> dict[tuple[int, str], str]:
        """(line, column) -> message, for showing each error in its cell."""
        return {(i.line, i.column or ""): i.message for i in self.issues}


def event_problems(event: Event) -> list[Problem]:
    return list(Problem.objects.filter(event=event).order_by("round", "number"))


def _key(problem: Problem) -> ProblemKey:
    return ProblemKey(problem.round, problem.number)


def preview_sheet(
    *, event: Event, rows: Sequence[Row], label: str = "line", source: str = "sheet"
) -> SheetPreview:
    problems = event_problems(event)
    preview = SheetPreview(event=event, problems=problems, source=source)
    closed = entry_closed_reason(event)
    if closed:
        preview.general.append(closed)
    if not handles(event.federation.system) or event.kind != EventKind.SOLVING:
        preview.general.append(f"{event.code} is no solving event: the score sheet is for WFCC")
        return preview
    if not problems:
        preview.general.append(f"{event.code} has no problems yet: add them to the event first")
        return preview
    parsed: ParsedSheet = parse_sheet(
        rows, max_points={_key(p): p.max_points for p in problems}, label=label
    )
    preview.issues.extend(parsed.errors)
    lookup = find_players(event.federation, (r.solver for r in parsed.rows))
    seen: dict[int, int] = {}
    for row in parsed.rows:
        if row.solver in lookup.problems:
            preview.issues.append(SheetIssue(row.line, SOLVER, lookup.problems[row.solver], label))
            continue
        solver = lookup.found[row.solver]
        if solver.pk in seen:
            preview.issues.append(
                SheetIssue(
                    row.line,
                    SOLVER,
                    f"{solver.full_name} is already on {label} {seen[solver.pk]}",
                    label,
                )
            )
            continue
        seen[solver.pk] = row.line
        preview.lines.append(SolverLine(row.line, solver, dict(row.scores)))
    preview.issues.sort(key=lambda i: (i.line, i.column or ""))
    _count_changes(preview, _existing(event, preview.lines))
    return preview


def _existing(event: Event, lines: list[SolverLine]) -> dict[tuple[int, int], SolverScore]:
    solver_ids = [line.solver.pk for line in lines]
    return {
        (s.problem_id, s.solver_id): s
        for s in SolverScore.objects.filter(
            problem__event=event, solver_id__in=solver_ids
        ).select_related("solver", "problem")
    }


def _changes(preview: SheetPreview, existing: dict[tuple[int, int], SolverScore]):
    """(to create, to change with old values, to remove)."""
    by_key = {_key(p): p for p in preview.problems}
    create, change, remove = [], [], []
    for line in preview.lines:
        for key, score in line.scores.items():
            problem = by_key[key]
            old = existing.get((problem.pk, line.solver.pk))
            if score is None:
                if old is not None:
                    remove.append(old)
            elif old is None:
                create.append(
                    SolverScore(
                        problem=problem,
                        solver=line.solver,
                        points=score.points,
                        time_used_minutes=score.minutes,
                    )
                )
            elif (old.points, old.time_used_minutes) != (score.points, score.minutes):
                before = audit.snapshot(old)
                old.points, old.time_used_minutes = score.points, score.minutes
                change.append((old, before))
    return create, change, remove


def _count_changes(preview: SheetPreview, existing) -> None:
    create, change, remove = _changes(preview, existing)
    preview.created, preview.changed, preview.removed = len(create), len(change), len(remove)


def save_sheet(
    *, event: Event, rows: Sequence[Row], by, label: str = "line", source: str = "sheet"
) -> SheetPreview:
    """Every change of the sheet with its audit row, in one transaction; or ImportRefused."""
    with transaction.atomic():
        event = locked_event(event)
        preview = preview_sheet(event=event, rows=rows, label=label, source=source)
        if preview.errors:
            raise ImportRefused(preview.errors)
        create, change, remove = _changes(preview, _existing(event, preview.lines))
        message = f"score sheet of {event.code} saved from {source}"
        rows_to_audit = audit_rows(
            actor=by,
            action="delete",
            objects=remove,
            message=message,
            federation_id=event.federation_id,
            old={s.pk: audit.snapshot(s) for s in remove},
        )
        SolverScore.objects.filter(pk__in=[s.pk for s in remove]).delete()
        SolverScore.objects.bulk_update(
            [score for score, _ in change], ["points", "time_used_minutes"], batch_size=500
        )
        created = SolverScore.objects.bulk_create(create, batch_size=500)
        rows_to_audit += audit_rows(
            actor=by,
            action="change",
            objects=[score for score, _ in change],
            message=message,
            federation_id=event.federation_id,
            old={score.pk: before for score, before in change},
        )
        rows_to_audit += audit_rows(
            actor=by,
            action="create",
            objects=created,
            message=message,
            federation_id=event.federation_id,
        )
        AuditEvent.objects.bulk_create(rows_to_audit, batch_size=500)
        # bulk writes send no model signals: say so, for the periods that read this event.
        results_written.send(SolverScore, event_ids=[event.pk], description=message)
        audit.record(
            actor=by,
            action="import",
            obj=event,
            message=f"{message}: {len(create)} created, {len(change)} changed, "
            f"{len(remove)} removed",
        )
        preview.created, preview.changed, preview.removed = len(create), len(change), len(remove)
    return preview
