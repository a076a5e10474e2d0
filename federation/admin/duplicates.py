"""Admin page of duplicate suggestions per federation, and the merge (federation.duplicates)."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse

from federation.duplicates import MergeRefused, duplicate_suggestions, merge_players
from federation.permissions import NotAllowed, visible_federations


class DuplicatesMixin:
    def get_urls(self):
        return [
            path(
                "duplicates/",
                self.admin_site.admin_view(self.duplicates_view),
                name="federation_player_duplicates",
            ),
            *super().get_urls(),
        ]

    def duplicates_view(self, request):
        if not self.has_change_permission(request):
            raise PermissionDenied
        if request.method == "POST":
            return self._merge(request)
        federations = [
            (federation, duplicate_suggestions(federation))
            for federation in visible_federations(request.user).order_by("code")
        ]
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "title": "Duplicate players",
            "federations": federations,
        }
        return TemplateResponse(request, "admin/federation/player/duplicates.html", context)

    def _merge(self, request):
        here = reverse("admin:federation_player_duplicates")
        visible = self.get_queryset(request)  # scoped: another federation's player is not found
        keep = visible.filter(pk=request.POST.get("keep") or 0).first()
        others = list(
            visible.filter(pk__in=request.POST.getlist("merge")).exclude(pk=keep and keep.pk)
        )
        if keep is None or not others:
            self.message_user(
                request, "Choose the player to keep and at least one other.", messages.ERROR
            )
            return HttpResponseRedirect(here)
        for duplicate in others:
            try:
                result = merge_players(keep=keep, duplicate=duplicate, by=request.user)
            except (MergeRefused, NotAllowed) as refused:
                self.message_user(request, str(refused), messages.ERROR)
                continue
            moved = ", ".join(f"{n} {label}" for label, n in sorted(result.moved.items()))
            self.message_user(
                request, f"Merged {duplicate} into {keep}" + (f": moved {moved}" if moved else ".")
            )
        return HttpResponseRedirect(here)
