"""Admin for periods, runs and lists: request a run, review a draft's diff, publish.

The services decide who may (federation.permissions.NotAllowed); the admin shows their refusal
as a message and offers the buttons only to those the services will let through."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html
from django.views.decorators.http import require_POST

from federation.admin.base import AuditedAdmin
from federation.models import Federation
from federation.permissions import NotAllowed, is_rating_officer, visible_federations
from ratings.admin.list_import import ListImportMixin
from ratings.models import ACTIVE_RUN_STATUSES, ListStatus, RatingList, RatingPeriod, RatingRun
from ratings.selectors.corrections import chain_review
from ratings.selectors.diffs import draft_diff
from ratings.selectors.run_files import files_of, json_download
from ratings.selectors.runs import open_periods
from ratings.services import publication, runs
from ratings.systems.iccf.fide_checks import with_players

# What a service refuses with a message for the officer (not a 500).
REFUSED = (runs.RunError, NotAllowed)


class RunRequestForm(forms.Form):
    """A choice among the federation's open periods (ratings.selectors.runs), never a typed code."""

    federation = forms.ModelChoiceField(queryset=Federation.objects.none())
    period = forms.ChoiceField(
        choices=[],
        help_text="Open periods: due, marked for a re-run, or "
        "holding accepted events not yet rated.",
    )

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user
        federations = [f for f in visible_federations(user) if is_rating_officer(user, f.pk)]
        self.fields["federation"].queryset = Federation.objects.filter(
            pk__in=[f.pk for f in federations]
        )
        if len(federations) == 1:
            self.fields["federation"].initial = federations[0].pk
        self.open = {f.pk: open_periods(f) for f in federations}
        self.fields["period"].choices = [
            (f.code, [(p.code, p.label) for p in self.open[f.pk]]) for f in federations
        ]

    def clean(self):
        data = super().clean()
        federation, code = data.get("federation"), data.get("period")
        if federation and code and code not in {p.code for p in self.open.get(federation.pk, [])}:
            self.add_error(
                "period",
                f"{code} is not an open period of {federation.code}: choose one of the list.",
            )
        return data


@admin.register(RatingPeriod)
class RatingPeriodAdmin(AuditedAdmin):
    list_display = [
        "federation",
        "code",
        "starts_on",
        "ends_on",
        "valid_from",
        "needs_rerun",
        "needs_rerun_reason",
    ]
    list_filter = ["federation", "needs_rerun"]
    search_fields = ["code"]
    list_select_related = ["federation"]
    readonly_fields = [
        "federation",
        "code",
        "starts_on",
        "ends_on",
        "list_published_on",
        "valid_from",
        "needs_rerun",
        "needs_rerun_reason",
    ]
    actions = ["run_now", "rerate_from"]

    def has_add_permission(self, request, *args):
        return False

    def has_change_permission(self, request, obj=None):
        return False  # read-only: the flag and its reason are the services' to write

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.action(description="Run the rating for the selected periods")
    def run_now(self, request, queryset):
        for period in queryset.select_related("federation"):
            try:
                run = runs.request_run(
                    federation=period.federation, period_code=period.code, by=request.user
                )
            except REFUSED as error:
                self.message_user(request, f"{period}: {error}", messages.ERROR)
                continue
            self.message_user(request, f"{period}: run {run.pk} is {run.status}.")

    @admin.action(description="Re-rate from the selected period (it and every later list)")
    def rerate_from(self, request, queryset):
        periods = list(queryset.select_related("federation").order_by("valid_from"))
        if len(periods) != 1:
            self.message_user(request, "Choose the one period to re-rate from.", messages.ERROR)
            return None
        period = periods[0]
        try:
            chain = publication.rerate_from(
                federation=period.federation, period_code=period.code, by=request.user
            )
        except REFUSED as error:
            self.message_user(request, f"{period}: {error}", messages.ERROR)
            return None
        return HttpResponseRedirect(reverse("admin:ratings_ratingrun_chain", args=[chain[0].pk]))


@admin.register(RatingRun)
class RatingRunAdmin(AuditedAdmin):
    list_display = [
        "id",
        "federation",
        "period",
        "status",
        "requested_by",
        "requested_at",
        "duration_seconds",
        "list_link",
    ]
    list_filter = ["federation", "status"]
    search_fields = ["period__code"]
    list_select_related = ["federation", "period", "requested_by", "rating_list"]
    readonly_fields = [f.name for f in RatingRun._meta.fields] + ["stored_files"]
    change_form_template = "admin/ratings/ratingrun/change_form.html"

    def has_add_permission(self, request, *args):
        return False

    def has_change_permission(self, request, obj=None):
        return False  # read-only: only the services write a run (no Save writing stale values)

    def change_view(self, request, object_id, form_url="", extra_context=None):
        run = self.get_object(request, object_id)
        draft = getattr(run, "rating_list", None) if run else None
        if draft is not None and request.GET.get("follow"):
            # Requested from the run form: once written, the draft opens on its diff.
            return HttpResponseRedirect(reverse("admin:ratings_ratinglist_change", args=[draft.pk]))
        checks = (run.report or {}).get("fide_checks", []) if run else []
        extra_context = {
            **(extra_context or {}),
            "active": run is not None and run.status in ACTIVE_RUN_STATUSES,
            "draft": draft,
            "fide_checks": with_players(checks),
        }
        return super().change_view(request, object_id, form_url, extra_context)

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.display(description="engine input and output")
    def stored_files(self, run):
        files = files_of(run) if run.pk else None
        if files is None:
            return "not stored (the run was made before runs kept them, or did not succeed)"
        links = [
            (reverse("admin:ratings_ratingrun_file", args=[run.pk, part]), files.name(part), size)
            for part, size in (("input", len(files.input)), ("output", len(files.output)))
        ]
        return format_html(
            '<a href="{}" download>{}</a> ({} bytes) · <a href="{}" download>{}</a> ({} bytes)'
            " — <code>python -m ratings.engines {} {}</code> prints the output exactly",
            *links[0],
            *links[1],
            run.engine,
            links[0][1],
        )

    def file_view(self, request, object_id, part):
        run = self.get_object(request, object_id)  # scoped: another federation's run is None
        files = files_of(run) if run is not None else None
        if files is None or part not in ("input", "output"):
            raise Http404("no stored input or output for this run")
        return json_download(getattr(files, part), files.name(part))

    @admin.display(description="list")
    def list_link(self, run):
        rating_list = getattr(run, "rating_list", None)
        if rating_list is None:
            return "—"
        url = reverse("admin:ratings_ratinglist_change", args=[rating_list.pk])
        return format_html('<a href="{}">{} ({})</a>', url, rating_list.pk, rating_list.status)

    def get_urls(self):
        return [
            path(
                "request/",
                self.admin_site.admin_view(self.request_view),
                name="ratings_ratingrun_request",
            ),
            path(
                "chain/<int:head_id>/",
                self.admin_site.admin_view(self.chain_view),
                name="ratings_ratingrun_chain",
            ),
            path(
                "<path:object_id>/files/<str:part>.json",
                self.admin_site.admin_view(self.file_view),
                name="ratings_ratingrun_file",
            ),
            *super().get_urls(),
        ]

    def chain_view(self, request, head_id):
        """A correction chain: original beside revised ratings per period; publish or discard
        them together."""
        head = get_object_or_404(self.get_queryset(request), pk=head_id, chain_head_id=head_id)
        officer = is_rating_officer(request.user, head.federation_id)
        if request.method == "POST":
            try:
                if "publish" in request.POST:
                    published = publication.publish_chain(head_run_id=head.pk, by=request.user)
                    self.message_user(request, f"Published {len(published)} corrected lists.")
                else:
                    count = publication.discard_chain(head_run_id=head.pk, by=request.user)
                    self.message_user(request, f"Discarded {count} correction drafts.")
            except REFUSED as error:
                self.message_user(request, str(error), messages.ERROR)
            return HttpResponseRedirect(request.path)
        review = chain_review(head.pk)
        context = {
            **self.admin_site.each_context(request),
            "title": f"Correction of {head.federation.code} from {review[0].code if review else '?'}",
            "opts": self.opts,
            "review": review,
            "can_publish": officer and review and all(r.draft_status == "draft" for r in review),
        }
        return TemplateResponse(request, "admin/ratings/chain.html", context)

    def request_view(self, request):
        if not self._is_official(request):
            raise PermissionDenied
        form = RunRequestForm(request.POST or None, user=request.user)
        if request.method == "POST" and form.is_valid():
            try:
                run = runs.request_run(
                    federation=form.cleaned_data["federation"],
                    period_code=form.cleaned_data["period"],
                    by=request.user,
                )
            except REFUSED as error:
                form.add_error("period", str(error))
            else:
                run.refresh_from_db()
                self.message_user(request, f"Run {run.pk} for {run.period} is {run.status}.")
                draft = getattr(run, "rating_list", None)
                if draft is not None:  # finished already: open the draft on its diff
                    return HttpResponseRedirect(
                        reverse("admin:ratings_ratinglist_change", args=[draft.pk])
                    )
                return HttpResponseRedirect(
                    reverse("admin:ratings_ratingrun_change", args=[run.pk]) + "?follow=1"
                )
        context = {
            **self.admin_site.each_context(request),
            "form": form,
            "title": "Request a rating run",
            "opts": self.opts,
        }
        return TemplateResponse(request, "admin/ratings/request_run.html", context)


@admin.register(RatingList)
class RatingListAdmin(ListImportMixin, AuditedAdmin):
    list_display = [
        "id",
        "federation",
        "period",
        "status",
        "entry_count",
        "created_at",
        "published_at",
    ]
    list_filter = ["federation", "status"]
    search_fields = ["period__code"]
    list_select_related = ["federation", "period"]
    readonly_fields = [f.name for f in RatingList._meta.fields]
    change_form_template = "admin/ratings/ratinglist/change_form.html"

    def has_add_permission(self, request, *args):
        return False

    def has_change_permission(self, request, obj=None):
        return False  # lists change only through publish/discard

    def has_delete_permission(self, request, obj=None):
        return False

    def get_urls(self):
        return [
            path(
                "<int:list_id>/publish/",
                self.admin_site.admin_view(self.publish_view),
                name="ratings_ratinglist_publish",
            ),
            path(
                "<int:list_id>/discard/",
                self.admin_site.admin_view(self.discard_view),
                name="ratings_ratinglist_discard",
            ),
            *super().get_urls(),
        ]

    def change_view(self, request, object_id, form_url="", extra_context=None):
        rating_list = self.get_object(request, object_id)
        extra_context = {
            **(extra_context or {}),
            "diff": draft_diff(rating_list),
            "can_publish": rating_list.status == ListStatus.DRAFT
            and is_rating_officer(request.user, rating_list.federation_id),
        }
        return super().change_view(request, object_id, form_url, extra_context)

    def _visible_list(self, request, list_id) -> RatingList:
        return get_object_or_404(self.get_queryset(request), pk=list_id)

    @staticmethod
    def _back(rating_list):
        return HttpResponseRedirect(
            reverse("admin:ratings_ratinglist_change", args=[rating_list.pk])
        )

    def publish_view(self, request, list_id):
        return require_POST(self._publish)(request, list_id)

    def _publish(self, request, list_id):
        rating_list = self._visible_list(request, list_id)
        try:
            publication.publish_list(list_id=rating_list.pk, by=request.user)
        except REFUSED as error:
            self.message_user(request, str(error), messages.ERROR)
        else:
            self.message_user(request, f"List {rating_list.pk} is published.")
        return self._back(rating_list)

    def discard_view(self, request, list_id):
        return require_POST(self._discard)(request, list_id)

    def _discard(self, request, list_id):
        rating_list = self._visible_list(request, list_id)
        try:
            publication.discard_list(list_id=rating_list.pk, by=request.user)
        except REFUSED as error:
            self.message_user(request, str(error), messages.ERROR)
        else:
            self.message_user(request, f"List {rating_list.pk} is discarded.")
        return self._back(rating_list)
