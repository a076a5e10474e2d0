"""Results in one page: the WFCC score sheet and the ICCF/PlayChess results grid of an event.

Thin views over ``tournaments.importers``: the sheet saves in one submission (or shows every
error in its cell, nothing saved); pasted lines, grid rows and CSV/XLSX files are previewed
(every bad line named) and then confirmed. Between preview and confirm the rows travel signed,
so nothing is stored until the official confirms and a tampered field is refused.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.core import signing
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse

from tournaments.formats.game_lines import COLUMNS, RESULTS
from tournaments.formats.solving_sheet import SOLVER, ProblemKey, format_cell
from tournaments.formats.tabular import Row, TabularError, file_rows, pasted_rows
from tournaments.importers import games, solving
from tournaments.importers.base import ImportRefused
from tournaments.models import EventKind, SolverScore

SIGNING_SALT = "tournaments.results_entry"
MAX_BYTES = 5 * 1024 * 1024
MAX_BLANK_ROWS = 500
MAX_POSTED_ROWS = 2000  # saved solvers plus the empty rows offered
RESULT_CHOICES = [("", "—")] + [(code, code) for code in dict.fromkeys(RESULTS.values())]


class ResultsFileForm(forms.Form):
    file = forms.FileField(label="CSV or XLSX file")

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_BYTES:
            raise forms.ValidationError(
                f"{upload.name} is {upload.size:,} bytes; at most {MAX_BYTES:,} are read."
            )
        return upload


def _count(text, default: int, limit: int) -> int:
    try:
        return max(0, min(limit, int(text)))
    except (TypeError, ValueError):
        return default


def _blank_rows(request, default: int) -> int:
    """Empty rows to offer (``?rows=40``)."""
    return _count(request.GET.get("rows", default), default, MAX_BLANK_ROWS)


def _posted_rows(request) -> int:
    """How many rows the submitted sheet or grid had (its hidden ``rows`` field)."""
    return _count(request.POST.get("rows", 0), 0, MAX_POSTED_ROWS)


def _sign(rows: list[Row], *, label: str, source: str) -> str:
    payload = {"rows": [[r.line, list(r.cells)] for r in rows], "label": label, "source": source}
    return signing.dumps(payload, salt=SIGNING_SALT, compress=True)


def _unsign(token: str) -> tuple[list[Row], str, str] | None:
    try:
        payload = signing.loads(token, salt=SIGNING_SALT, max_age=3600)
    except signing.BadSignature:
        return None
    rows = [Row(line, tuple(cells)) for line, cells in payload["rows"]]
    return rows, payload["label"], payload["source"]


def _sheet_saved(saved: solving.SheetPreview) -> str:
    return (
        f"Score sheet saved from {saved.source}: {saved.created} scores created, "
        f"{saved.changed} changed, {saved.removed} removed."
    )


class ResultsEntryMixin:
    """URLs and views of the event admin for entering a whole event's results at once."""

    def get_urls(self):
        wrap = self.admin_site.admin_view
        prefix = f"{self.opts.app_label}_{self.opts.model_name}"
        return [
            path(
                "<path:object_id>/score-sheet/",
                wrap(self.score_sheet_view),
                name=f"{prefix}_score_sheet",
            ),
            path(
                "<path:object_id>/results/",
                wrap(self.results_entry_view),
                name=f"{prefix}_results_entry",
            ),
            *super().get_urls(),
        ]

    def change_view(self, request, object_id, form_url="", extra_context=None):
        event = self.get_object(request, object_id)
        extra_context = dict(extra_context or {})
        if event is not None:
            extra_context["entry_links"] = self.entry_links(event)
        return super().change_view(request, object_id, form_url, extra_context)

    def entry_links(self, event) -> list[tuple[str, str]]:
        system = event.federation.system
        if solving.handles(system) and event.kind == EventKind.SOLVING:
            url = reverse("admin:tournaments_event_score_sheet", args=[event.pk])
            return [("Score sheet (solvers × problems)", url)]
        if games.handles(system) and event.kind != EventKind.SOLVING:
            url = reverse("admin:tournaments_event_results_entry", args=[event.pk])
            return [("Enter results (grid, paste or file)", url)]
        return []

    def _entry_event(self, request, object_id):
        event = self.get_object(request, object_id)  # None for another federation's event
        if event is None:
            raise Http404("no such event")
        if not self.has_change_permission(request, event):
            raise PermissionDenied
        return event

    def _context(self, request, event, title: str, **extra) -> dict:
        return {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "original": event,
            "event": event,
            "title": title,
            "change_url": reverse("admin:tournaments_event_change", args=[event.pk]),
            **extra,
        }

    # --- WFCC: the score sheet ----------------------------------------------------------------

    def score_sheet_view(self, request, object_id):
        event = self._entry_event(request, object_id)
        if request.method == "POST" and "confirm" in request.POST:
            return self._confirm(
                request,
                event,
                solving.save_sheet,
                "admin:tournaments_event_score_sheet",
                lambda saved: (_sheet_saved(saved), None),
            )
        problems = solving.event_problems(event)
        keys = [ProblemKey(p.round, p.number) for p in problems]
        upload = ResultsFileForm(request.POST or None, request.FILES or None, prefix="upload")
        preview = token = None
        if request.method == "POST" and "upload" in request.POST:
            if upload.is_valid():
                preview, token = self._file_preview(
                    upload,
                    lambda rows, source: solving.preview_sheet(
                        event=event, rows=rows, source=source
                    ),
                )
            grid = self._sheet_from_scores(event, keys, _blank_rows(request, 10))
        elif request.method == "POST":
            rows = self._sheet_rows_from_post(request, keys)
            result = solving.preview_sheet(event=event, rows=rows, label="row", source="sheet")
            if result.ok:
                try:
                    saved = solving.save_sheet(
                        event=event, rows=rows, by=request.user, label="row", source="sheet"
                    )
                except ImportRefused as refused:
                    for error in refused.errors[:50]:
                        self.message_user(request, error, messages.ERROR)
                else:
                    self.message_user(request, _sheet_saved(saved))
                    return HttpResponseRedirect(request.path)
            grid = self._grid_with_errors(rows, keys, result)
            for error in result.general:  # about the event, not a cell
                self.message_user(request, error, messages.ERROR)
            if result.issues:
                self.message_user(
                    request,
                    f"{len(result.issues)} error(s) in the sheet: nothing was saved. Each is "
                    "shown in its cell.",
                    messages.ERROR,
                )
        else:
            grid = self._sheet_from_scores(event, keys, _blank_rows(request, 10))
        context = self._context(
            request,
            event,
            f"Score sheet of {event.code}",
            problems=problems,
            grid=grid,
            upload=upload,
            preview=preview,
            token=token,
        )
        return TemplateResponse(request, "admin/tournaments/event/score_sheet.html", context)

    def _sheet_from_scores(self, event, keys, blank: int) -> list[dict]:
        scores = SolverScore.objects.filter(problem__event=event).select_related(
            "solver", "problem"
        )
        by_solver: dict = {}
        for score in scores:
            row = by_solver.setdefault(score.solver, {})
            row[ProblemKey(score.problem.round, score.problem.number)] = format_cell(
                score.points, score.time_used_minutes
            )
        rows = [
            {
                "solver": solver.federation_player_id,
                "name": solver.full_name,
                "cells": [(str(k), cells.get(k, ""), "") for k in keys],
                "error": "",
            }
            for solver, cells in sorted(by_solver.items(), key=lambda i: i[0].full_name)
        ]
        empty = {"solver": "", "name": "", "cells": [(str(k), "", "") for k in keys], "error": ""}
        return rows + [dict(empty) for _ in range(blank)]

    def _sheet_rows_from_post(self, request, keys) -> list[Row]:
        header = Row(0, (SOLVER, *map(str, keys)))
        count = _posted_rows(request)
        rows = [header]
        for i in range(1, count + 1):
            cells = [request.POST.get(f"s{i}-solver", "")]
            cells += [request.POST.get(f"s{i}-{k}", "") for k in keys]
            rows.append(Row(i, tuple(c.strip() for c in cells)))
        return rows

    def _grid_with_errors(self, rows: list[Row], keys, preview) -> list[dict]:
        errors = preview.cell_errors()
        names = {line.line: line.solver.full_name for line in preview.lines}
        grid = []
        for row in rows[1:]:
            grid.append(
                {
                    "solver": row.cells[0],
                    "name": names.get(row.line, ""),
                    "error": errors.get((row.line, SOLVER), "") or errors.get((row.line, ""), ""),
                    "cells": [
                        (str(k), row.cells[i + 1], errors.get((row.line, str(k)), ""))
                        for i, k in enumerate(keys)
                    ],
                }
            )
        return grid

    # --- ICCF / PlayChess: grid, paste or file ------------------------------------------------

    def results_entry_view(self, request, object_id):
        event = self._entry_event(request, object_id)
        if request.method == "POST" and "confirm" in request.POST:
            return self._confirm(
                request,
                event,
                games.confirm_games,
                "admin:tournaments_event_results_entry",
                # back to this page, not the event's: its inline rows grow with every game
                lambda saved: (f"Saved {len(saved.games)} games from {saved.source}.", None),
            )
        team = event.kind == EventKind.TEAM
        columns = COLUMNS if team else COLUMNS[:6]
        upload = ResultsFileForm(request.POST or None, request.FILES or None, prefix="upload")
        preview = token = None
        pasted = request.POST.get("lines", "")
        blank = _blank_rows(request, 10)
        grid = [[""] * len(columns) for _ in range(blank)]
        if request.method == "POST" and "upload" in request.POST:
            if upload.is_valid():
                preview, token = self._file_preview(
                    upload,
                    lambda rows, source: games.preview_games(event=event, rows=rows, source=source),
                )
        elif request.method == "POST":
            rows, label, source, grid = self._game_rows_from_post(request, columns, pasted)
            if rows is not None:
                preview = games.preview_games(event=event, rows=rows, label=label, source=source)
                if preview.ok:
                    token = _sign(rows, label=label, source=source)
        context = self._context(
            request,
            event,
            f"Results of {event.code}",
            columns=columns,
            grid=grid,
            pasted=pasted,
            upload=upload,
            preview=preview,
            token=token,
            result_choices=RESULT_CHOICES,
            games_entered=event.games.count(),
        )
        return TemplateResponse(request, "admin/tournaments/event/results_entry.html", context)

    def _game_rows_from_post(self, request, columns, pasted):
        """Rows of the paste if any, else of the grid; (None, …) when both are empty."""
        count = _posted_rows(request)
        grid = [
            [request.POST.get(f"g{i}-{c}", "").strip() for c in columns]
            for i in range(1, count + 1)
        ]
        if pasted.strip():
            try:
                return pasted_rows(pasted), "line", "pasted lines", grid
            except TabularError as error:
                messages.error(request, str(error))
                return None, "", "", grid
        rows = [Row(i, tuple(cells)) for i, cells in enumerate(grid, start=1) if any(cells)]
        if not rows:
            messages.error(request, "Nothing to preview: fill grid rows or paste lines.")
            return None, "", "", grid
        # the grid's columns are named, whichever of them the event shows
        return [Row(0, tuple(columns)), *rows], "row", "the results grid", grid

    # --- shared: file preview and confirm -----------------------------------------------------

    def _file_preview(self, upload, preview_of):
        name = upload.cleaned_data["file"].name
        try:
            rows = file_rows(upload.cleaned_data["file"].read(), name)
        except TabularError as error:
            upload.add_error("file", f"{name}: {error}")
            return None, None
        preview = preview_of(rows, name)
        token = _sign(rows, label="line", source=name) if preview.ok else None
        return preview, token

    def _confirm(self, request, event, save, url_name: str, done):
        """Save the signed rows of a preview; ``done(saved)`` says what was saved."""
        here = reverse(url_name, args=[event.pk])
        unsigned = _unsign(request.POST.get("token", ""))
        if unsigned is None:
            self.message_user(
                request, "The preview expired or was altered; start again.", messages.ERROR
            )
            return HttpResponseRedirect(here)
        rows, label, source = unsigned
        try:
            saved = save(event=event, rows=rows, by=request.user, label=label, source=source)
        except ImportRefused as refused:
            for error in refused.errors[:50]:
                self.message_user(request, error, messages.ERROR)
            return HttpResponseRedirect(here)
        message, target = done(saved)
        self.message_user(request, message)
        return HttpResponseRedirect(target or here)
