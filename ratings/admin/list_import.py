"""Admin: import a player list (EGD world list, FIDE TXT/XML, CSV): upload → preview → confirm.

The upload is kept in a private temporary file between preview and confirmation (a FIDE XML is
hundreds of MB: too big for a hidden field); the signed token names it, so a tampered token is
refused, and the confirmation re-reads the file (never trusting the preview) and removes it.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import time
from datetime import date
from pathlib import Path

from django import forms
from django.contrib import messages
from django.core import signing
from django.core.exceptions import PermissionDenied
from django.http import HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse

from federation.models import Federation
from federation.permissions import NotAllowed, is_rating_officer, visible_federations
from ratings.services.imports import FORMATS, ListImportRefused, guess_format, import_player_list

SIGNING_SALT = "ratings.services.imports"
MAX_BYTES = 1024 * 1024 * 1024  # FIDE's whole-world XML is about 856 MB
SHOWN = 200
_NAME = "fed-list-import-"


def upload_dir() -> Path:
    folder = Path(tempfile.gettempdir()) / "fed-list-imports"
    folder.mkdir(mode=0o700, exist_ok=True)
    return folder


class ListUploadForm(forms.Form):
    federation = forms.ModelChoiceField(queryset=Federation.objects.none())
    file = forms.FileField(label="List file")
    format = forms.ChoiceField(
        choices=[("", "from the file name"), *FORMATS.items()], required=False
    )
    valid_from = forms.DateField(
        required=False,
        label="Valid from",
        help_text="The list's date, when the file does not print it (FIDE, CSV): YYYY-MM-DD.",
    )
    publish = forms.BooleanField(
        required=False,
        label="Publish the ratings as the federation's first list (EGD, CSV)",
    )

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user
        self.fields["federation"].queryset = visible_federations(user)

    def clean_federation(self):
        federation = self.cleaned_data["federation"]
        if not is_rating_officer(self.user, federation.pk):
            raise forms.ValidationError("Only a rating officer of the federation imports lists.")
        return federation

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_BYTES:
            raise forms.ValidationError(
                f"{upload.name} is {upload.size:,} bytes; a list is at most {MAX_BYTES:,} bytes."
            )
        return upload


class ListImportMixin:
    def get_urls(self):
        return [
            path(
                "import/",
                self.admin_site.admin_view(self.list_import_view),
                name="ratings_ratinglist_import",
            ),
            *super().get_urls(),
        ]

    def list_import_view(self, request):
        if request.method == "POST" and "confirm" in request.POST:
            return self._confirm_import(request)
        form = ListUploadForm(request.POST or None, request.FILES or None, user=request.user)
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "form": form,
            "title": "Import a player list",
            "shown": SHOWN,
        }
        if request.method == "POST" and form.is_valid():
            data = form.cleaned_data
            stored = _store(data["file"])
            options = {
                "federation": data["federation"].pk,
                "stored": stored.name,
                "filename": data["file"].name[:200],
                "fmt": data["format"] or guess_format(data["file"].name),
                "publish": data["publish"],
                "valid_from": data["valid_from"].isoformat() if data["valid_from"] else None,
            }
            try:
                preview = _run(data["federation"], stored, options, dry_run=True, by=request.user)
            except ListImportRefused as refused:
                stored.unlink(missing_ok=True)
                preview = refused.preview
            else:
                context["token"] = signing.dumps(options, salt=SIGNING_SALT)
            context["preview"] = preview
            context["new_shown"] = preview.new[:SHOWN]
            context["updated_shown"] = preview.updated[:SHOWN]
        return TemplateResponse(request, "admin/ratings/ratinglist/import_list.html", context)

    def _confirm_import(self, request):
        here = reverse("admin:ratings_ratinglist_import")
        try:
            options = signing.loads(request.POST.get("token", ""), salt=SIGNING_SALT, max_age=3600)
        except signing.BadSignature:
            self.message_user(
                request, "The import expired or was altered; upload the file again.", messages.ERROR
            )
            return HttpResponseRedirect(here)
        federation = visible_federations(request.user).filter(pk=options["federation"]).first()
        if federation is None:
            raise PermissionDenied
        stored = upload_dir() / options["stored"]
        if not stored.is_file():
            self.message_user(request, "The upload is gone; upload the file again.", messages.ERROR)
            return HttpResponseRedirect(here)
        try:
            preview = _run(federation, stored, options, dry_run=False, by=request.user)
        except ListImportRefused as refused:
            for message in refused.preview.messages()[:50]:
                self.message_user(request, message, messages.ERROR)
            return HttpResponseRedirect(here)
        except NotAllowed as refused:
            self.message_user(request, str(refused), messages.ERROR)
            return HttpResponseRedirect(here)
        finally:
            stored.unlink(missing_ok=True)
        self.message_user(
            request,
            f"Imported {options['filename']}: {preview.summary()}"
            + (f"; {preview.publication}" if preview.publication else "."),
        )
        return HttpResponseRedirect(reverse("admin:ratings_ratinglist_changelist"))


STALE_SECONDS = 2 * 3600  # the token expires after an hour


def _store(upload) -> Path:
    """Save the upload privately; uploads never confirmed are removed after a while."""
    now = time.time()
    for old in upload_dir().glob(f"{_NAME}*"):
        with contextlib.suppress(OSError):
            if now - old.stat().st_mtime > STALE_SECONDS:
                old.unlink()
    handle, name = tempfile.mkstemp(prefix=_NAME, dir=upload_dir())
    with os.fdopen(handle, "wb") as out:
        for chunk in upload.chunks():
            out.write(chunk)
    return Path(name)


def _run(federation, stored: Path, options: dict, *, dry_run: bool, by):
    valid_from = options["valid_from"]
    return import_player_list(
        federation=federation,
        source=lambda: stored.open("rb"),
        filename=options["filename"],
        fmt=options["fmt"],
        publish=options["publish"],
        dry_run=dry_run,
        valid_from=date.fromisoformat(valid_from) if valid_from else None,
        by=by,
    )
