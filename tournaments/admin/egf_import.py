"""Admin views to import an EGF results table: upload → preview → confirm (one transaction).

Between preview and confirm the file travels in a signed hidden field, so nothing is stored
until the official confirms, and a tampered field is refused.
"""

from __future__ import annotations

import base64
import zlib

from django import forms
from django.contrib import messages
from django.core import signing
from django.core.exceptions import PermissionDenied
from django.http import HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse

from federation.permissions import visible_federations
from tournaments.importers.base import systems_reading
from tournaments.importers.egf import RESULTS_FORMAT, ImportRefused, confirm_import, preview_import

SIGNING_SALT = "tournaments.egf_import"
MAX_BYTES = 10 * 1024 * 1024
# A preview shows counts, the first problems, the first players and the games a page at a time:
# a 250,000-player table must not make a 27 MB page.
ERRORS_SHOWN = 50
PLAYERS_SHOWN = 200
GAMES_PER_PAGE = 100


class EgfUploadForm(forms.Form):
    federation = forms.ModelChoiceField(queryset=None)
    table = forms.FileField(
        label="Results table (.h9, .h2, …)",
        help_text=f"At most {MAX_BYTES // (1024 * 1024)} MB. UTF-8, UTF-16 or ISO-8859-15.",
    )
    default_reduction = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=9,
        label="Handicap reduction",
        help_text="Only needed when the file has neither HA[hN] nor a .hN extension.",
    )

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["federation"].queryset = visible_federations(user).filter(
            system__in=systems_reading(RESULTS_FORMAT)
        )

    def clean_table(self):
        upload = self.cleaned_data["table"]
        if upload.size > MAX_BYTES:
            raise forms.ValidationError(
                f"{upload.name} is {upload.size:,} bytes; a results "
                f"table is at most {MAX_BYTES:,} bytes."
            )
        return upload


class EgfImportMixin:
    def get_urls(self):
        return [
            path(
                "import-egf/",
                self.admin_site.admin_view(self.egf_import_view),
                name="tournaments_event_import_egf",
            ),
            *super().get_urls(),
        ]

    def can_import_egf(self, request) -> bool:
        """Only officials of an EGF federation import EGF results tables."""
        return (
            self.has_add_permission(request)
            and visible_federations(request.user)
            .filter(system__in=systems_reading(RESULTS_FORMAT))
            .exists()
        )

    def changelist_view(self, request, extra_context=None):
        extra_context = {**(extra_context or {}), "can_import_egf": self.can_import_egf(request)}
        return super().changelist_view(request, extra_context)

    def egf_import_view(self, request):
        if not self.can_import_egf(request):
            raise PermissionDenied
        if request.method == "POST" and "confirm" in request.POST:
            return self._egf_confirm(request)
        form = EgfUploadForm(request.POST or None, request.FILES or None, user=request.user)
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "form": form,
            "title": "Import an EGF results table",
        }
        if request.method == "POST" and "games_page" in request.POST:  # paging a preview
            payload = self._egf_payload(request)
            if payload is None:
                return HttpResponseRedirect(reverse("admin:tournaments_event_import_egf"))
            federation, data, filename, reduction = payload
        elif request.method == "POST" and form.is_valid():
            data = form.cleaned_data["table"].read()
            federation = form.cleaned_data["federation"]
            reduction = form.cleaned_data["default_reduction"]
            filename = form.cleaned_data["table"].name
        else:
            return TemplateResponse(request, "admin/tournaments/event/import_egf.html", context)
        preview = preview_import(
            federation=federation, data=data, filename=filename, default_reduction=reduction
        )
        context.update(_preview_context(preview, request.POST.get("games_page")))
        if not preview.errors:
            context["token"] = signing.dumps(
                {
                    "federation": federation.pk,
                    "filename": preview.filename,
                    "reduction": reduction,
                    # Compressed before base64: a large table's token stays small.
                    "zdata": base64.b64encode(zlib.compress(data, 6)).decode(),
                },
                salt=SIGNING_SALT,
            )
        return TemplateResponse(request, "admin/tournaments/event/import_egf.html", context)

    def _egf_payload(self, request):
        """(federation, data, filename, reduction) from the signed token, or None."""
        try:
            payload = signing.loads(request.POST.get("token", ""), salt=SIGNING_SALT, max_age=3600)
        except signing.BadSignature:
            self.message_user(
                request, "The import expired or was altered; upload the file again.", messages.ERROR
            )
            return None
        federation = visible_federations(request.user).filter(pk=payload["federation"]).first()
        if federation is None:
            raise PermissionDenied
        if "zdata" in payload:
            data = zlib.decompress(base64.b64decode(payload["zdata"]))
        else:  # a token made before compression
            data = base64.b64decode(payload["data"])
        return federation, data, payload["filename"], payload["reduction"]

    def _egf_confirm(self, request):
        payload = self._egf_payload(request)
        if payload is None:
            return HttpResponseRedirect(reverse("admin:tournaments_event_import_egf"))
        federation, data, filename, reduction = payload
        try:
            event = confirm_import(
                federation=federation,
                data=data,
                filename=filename,
                by=request.user,
                default_reduction=reduction,
            )
        except ImportRefused as refused:
            for error in refused.errors[:50]:
                self.message_user(request, error, messages.ERROR)
            return HttpResponseRedirect(reverse("admin:tournaments_event_import_egf"))
        self.message_user(
            request,
            f"Imported {event.code}: {event.games.count()} game rows. "
            "Check the time control, then submit it for acceptance.",
        )
        return HttpResponseRedirect(reverse("admin:tournaments_event_change", args=[event.pk]))


def _preview_context(preview, games_page) -> dict:
    """What the preview page shows of a table of any size: counts, the first problems and
    players, one page of games."""
    pages = max(1, -(-len(preview.games) // GAMES_PER_PAGE))
    try:
        page = min(max(1, int(games_page or 1)), pages)
    except ValueError:
        page = 1
    start = (page - 1) * GAMES_PER_PAGE
    return {
        "preview": preview,
        "errors_shown": preview.errors[:ERRORS_SHOWN],
        "errors_more": max(0, len(preview.errors) - ERRORS_SHOWN),
        "players_shown": preview.players[:PLAYERS_SHOWN],
        "players_more": max(0, len(preview.players) - PLAYERS_SHOWN),
        "games_shown": preview.game_rows[start : start + GAMES_PER_PAGE],
        "games_page": page,
        "games_pages": pages,
        "games_first": start + 1,
        "games_last": min(start + GAMES_PER_PAGE, len(preview.games)),
    }
