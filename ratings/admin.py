"""Admin for periods, runs and lists: request a run, review a draft's diff, publish."""

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

from federation.admin_base import AuditedAdmin
from federation.models import Federation
from federation.permissions import is_rating_officer, visible_federations
from ratings import services, systems
from ratings.diff import list_diff
from ratings.engines.core.errors import EngineInputError
from ratings.models import ListStatus, RatingList, RatingPeriod, RatingRun
from ratings.run_files import files_of, json_download


class RunRequestForm(forms.Form):
    federation = forms.ModelChoiceField(queryset=Federation.objects.none())
    period = forms.CharField(
        max_length=20,
        help_text="e.g. "
        + " or ".join([f"{s.example_period} ({s.code.upper()})" for s in systems.ALL]),
    )

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user
        self.fields["federation"].queryset = visible_federations(user)

    def clean(self):
        data = super().clean()
        federation, code = data.get("federation"), data.get("period")
        if federation and code:
            if not is_rating_officer(self.user, federation.pk):
                raise forms.ValidationError(
                    "Only a rating officer of %(f)s can request runs.",
                    params={"f": federation.code},
                )
            try:
                data["period"] = (
                    systems.of(federation)
                    .calendar.period_by_code(code.strip(), params=services.calendar_of(federation))
                    .code
                )
            except EngineInputError as error:
                self.add_error(
                    "period", f"{code!r} is not a {federation.system.upper()} period: {error.what}"
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
    actions = ["run_now"]

    def has_add_permission(self, request, *args):
        return False

    @admin.action(description="Run the rating for the selected periods")
    def run_now(self, request, queryset):
        for period in queryset.select_related("federation"):
            if not is_rating_officer(request.user, period.federation_id):
                self.message_user(
                    request, f"{period}: only a rating officer can run it.", messages.ERROR
                )
                continue
            run = services.request_run(
                federation=period.federation, period_code=period.code, by=request.user
            )
            self.message_user(request, f"{period}: run {run.pk} is {run.status}.")


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

    def has_add_permission(self, request, *args):
        return False

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
                "<path:object_id>/files/<str:part>.json",
                self.admin_site.admin_view(self.file_view),
                name="ratings_ratingrun_file",
            ),
            *super().get_urls(),
        ]

    def request_view(self, request):
        if not self._is_official(request):
            raise PermissionDenied
        form = RunRequestForm(request.POST or None, user=request.user)
        if request.method == "POST" and form.is_valid():
            run = services.request_run(
                federation=form.cleaned_data["federation"],
                period_code=form.cleaned_data["period"],
                by=request.user,
            )
            run.refresh_from_db()
            self.message_user(request, f"Run {run.pk} for {run.period} is {run.status}.")
            return HttpResponseRedirect(reverse("admin:ratings_ratingrun_change", args=[run.pk]))
        context = {
            **self.admin_site.each_context(request),
            "form": form,
            "title": "Request a rating run",
            "opts": self.opts,
        }
        return TemplateResponse(request, "admin/ratings/request_run.html", context)


@admin.register(RatingList)
class RatingListAdmin(AuditedAdmin):
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
            "diff": list_diff(rating_list),
            "can_publish": rating_list.status == ListStatus.DRAFT
            and is_rating_officer(request.user, rating_list.federation_id),
        }
        return super().change_view(request, object_id, form_url, extra_context)

    def _officer_list(self, request, list_id) -> RatingList:
        rating_list = get_object_or_404(self.get_queryset(request), pk=list_id)
        if not is_rating_officer(request.user, rating_list.federation_id):
            raise PermissionDenied
        return rating_list

    @staticmethod
    def _back(rating_list):
        return HttpResponseRedirect(
            reverse("admin:ratings_ratinglist_change", args=[rating_list.pk])
        )

    def publish_view(self, request, list_id):
        return require_POST(self._publish)(request, list_id)

    def _publish(self, request, list_id):
        rating_list = self._officer_list(request, list_id)
        try:
            services.publish_list(list_id=rating_list.pk, by=request.user)
        except services.RunError as error:
            self.message_user(request, str(error), messages.ERROR)
        else:
            self.message_user(request, f"List {rating_list.pk} is published.")
        return self._back(rating_list)

    def discard_view(self, request, list_id):
        return require_POST(self._discard)(request, list_id)

    def _discard(self, request, list_id):
        rating_list = self._officer_list(request, list_id)
        try:
            services.discard_list(list_id=rating_list.pk, by=request.user)
        except services.RunError as error:
            self.message_user(request, str(error), messages.ERROR)
        else:
            self.message_user(request, f"List {rating_list.pk} is discarded.")
        return self._back(rating_list)
