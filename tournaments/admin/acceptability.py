"""The acceptability part of the event admin: panel, column, filter, forms, actions.

Everything writes through ``tournaments.services`` (status changes, attestations, overrides), so
the rules, the roles and the audit rows are the same whichever page or action an official uses.
Forms are separate pages (no nested forms in the change form, no JavaScript: the site's CSP).
"""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.views.main import ChangeList
from django.core.exceptions import PermissionDenied
from django.http import HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html

from federation.permissions import is_rating_officer
from ratings.engines.wfcc.categories import CATEGORY_KT
from tournaments import ports, services
from tournaments.acceptability import Status
from tournaments.acceptability.wfcc import ATTEST_KT
from tournaments.acceptability_report import EventReport, evaluate_event, reports_for
from tournaments.services import TRANSITIONS, TransitionError

ACTION_LABELS = {
    "submit": "Submit for acceptance",
    "accept": "Accept",
    "reject": "Reject",
    "mark_rated": "Mark rated",
}
STATUS_LABELS = {
    Status.PASS: "pass",
    Status.WARNING: "warning",
    Status.FAIL: "FAIL",
    Status.NEEDS_ATTESTATION: "needs attestation",
    Status.NOT_APPLICABLE: "n/a",
}


# --- changelist: a column and a filter --------------------------------------------------------


class AcceptabilityChangeList(ChangeList):
    """Judges the events of the page in one batch (constant queries) for the column."""

    def get_results(self, request):
        super().get_results(request)
        reports = reports_for(self.result_list, today=timezone.localdate())
        for event in self.result_list:
            event.acceptability_report = reports.get(event.pk)


class AcceptabilityFilter(admin.SimpleListFilter):
    title = "acceptability"
    parameter_name = "acceptability"

    def lookups(self, request, model_admin):
        return [
            ("blocked", "Blocked (fails or needs an attestation)"),
            ("fails", "Fails a rule (not overridden)"),
            ("attestation", "Needs an attestation"),
            ("acceptable", "Acceptable"),
        ]

    def queryset(self, request, queryset):
        wanted = self.value()
        if not wanted:
            return queryset
        tests = {
            "blocked": lambda r: not r.acceptable,
            "fails": lambda r: bool(r.unresolved_failures),
            "attestation": lambda r: bool(r.needs_attestation),
            "acceptable": lambda r: r.acceptable,
        }
        test = tests.get(wanted)
        if test is None:
            return queryset
        reports = reports_for(queryset.select_related("federation"), today=timezone.localdate())
        return queryset.filter(pk__in=[pk for pk, r in reports.items() if test(r)])


def acceptability_cell(report: EventReport | None) -> str:
    if report is None:
        return "—"
    blocking = report.blocking_results
    if not blocking:
        return format_html('<span class="acc-pass">{}</span>', report.verdict)
    ids = ", ".join(r.rule_id for r in blocking[:3]) + (" …" if len(blocking) > 3 else "")
    css = "acc-fail" if report.unresolved_failures else "acc-attest"
    return format_html(
        '<span class="{}" title="{}">{}: {}</span>', css, report.summary(), report.verdict, ids
    )


# --- forms ----------------------------------------------------------------------------------


class AttestationForm(forms.Form):
    note = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="Optional: what you checked, documents seen.",
    )


class KtAttestationForm(AttestationForm):
    category = forms.ChoiceField(label="Category determined", choices=[])

    def __init__(self, *args, rules: str, proposed: str, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["category"].choices = [
            (code, f"{code} (KT {kt})") for code, kt in CATEGORY_KT.items() if code[0] == rules
        ]
        self.fields["category"].initial = proposed


class OverrideForm(forms.Form):
    rule_ids = forms.MultipleChoiceField(
        label="Failing rules to override", widget=forms.CheckboxSelectMultiple, choices=[]
    )
    reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text="Why the event may be rated although these rules fail.",
    )

    def __init__(self, *args, failing: list, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["rule_ids"].choices = [
            (r.rule_id, f"{r.rule_id}: {r.message}") for r in failing
        ]
        self.fields["rule_ids"].initial = [r.rule_id for r in failing]


class ReasonForm(forms.Form):
    reason = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 3}))


# --- the mixin for EventAdmin ------------------------------------------------------------------


class EventAcceptabilityMixin:
    """Adds the panel, the acceptability views, the column, the filter and the actions."""

    change_form_template = "admin/tournaments/event/change_form.html"
    actions = ["submit_selected", "accept_selected", "reject_selected", "mark_rated_selected"]

    # changelist ----------------------------------------------------------------------------
    def get_changelist(self, request, **kwargs):
        return AcceptabilityChangeList

    @admin.display(description="acceptability")
    def acceptability(self, obj):
        return acceptability_cell(getattr(obj, "acceptability_report", None))

    # change page ---------------------------------------------------------------------------
    def change_view(self, request, object_id, form_url="", extra_context=None):
        extra_context = dict(extra_context or {})
        obj = self.get_object(request, object_id)  # 404 for another federation's event
        extra_context.update(self.panel_context(request, obj))
        return super().change_view(request, object_id, form_url, extra_context)

    def panel_context(self, request, event) -> dict:
        report = evaluate_event(event, today=timezone.localdate())
        officer = is_rating_officer(request.user, event.federation_id)
        may_change = self.has_change_permission(request, event)
        rows = []
        for r in report.results:
            attest_url = None
            if (
                may_change
                and r.status is Status.NEEDS_ATTESTATION
                and r.rule_id in report.attestable
            ):
                attest_url = self._url("attest", event.pk, r.rule_id)
            hint = ""
            if r.status is Status.NEEDS_ATTESTATION and r.rule_id not in report.attestable:
                hint = "record the date in the event's fields"
            rows.append(
                {
                    "hint": hint,
                    "result": r,
                    "label": STATUS_LABELS[r.status],
                    "css": "acc-" + r.status.value.replace("_", "-"),
                    "overridden": r in report.overridden,
                    "attest_url": attest_url,
                }
            )
        transitions = []
        if may_change:
            for action, (sources, _target) in TRANSITIONS.items():
                if event.status in sources and (
                    officer or action not in services.NEEDS_RATING_OFFICER
                ):
                    if action == "mark_rated" and event.status != "accepted":
                        continue
                    transitions.append(
                        {
                            "label": ACTION_LABELS[action],
                            "url": self._url("transition", event.pk, action),
                        }
                    )
        override_url = None
        open_failures = [r for r in report.unresolved_failures if not r.rule_id.endswith("-DATA")]
        if may_change and officer and open_failures:
            override_url = self._url("override", event.pk)
        return {
            "fide_checks": ports.fide_checks_of_event(event, timezone.localdate()),
            "acceptability": report,
            "acceptability_rows": rows,
            "acceptability_transitions": transitions,
            "acceptability_override_url": override_url,
            "acceptability_audit_url": reverse("admin:federation_auditevent_changelist")
            + f"?q={event.code}",
        }

    # views ---------------------------------------------------------------------------------
    def get_urls(self):
        wrap = self.admin_site.admin_view
        prefix = f"{self.opts.app_label}_{self.opts.model_name}"
        return [
            path(
                "<path:object_id>/acceptability/attest/<str:rule_id>/",
                wrap(self.attest_view),
                name=f"{prefix}_attest",
            ),
            path(
                "<path:object_id>/acceptability/override/",
                wrap(self.override_view),
                name=f"{prefix}_override",
            ),
            path(
                "<path:object_id>/acceptability/<str:action>/",
                wrap(self.transition_view),
                name=f"{prefix}_transition",
            ),
            *super().get_urls(),
        ]

    def _url(self, name: str, *args) -> str:
        return reverse(f"admin:{self.opts.app_label}_{self.opts.model_name}_{name}", args=args)

    def _change_url(self, event) -> str:
        return reverse(
            f"admin:{self.opts.app_label}_{self.opts.model_name}_change", args=[event.pk]
        )

    def _event_for_change(self, request, object_id):
        event = self.get_object(request, object_id)  # Http404 for another federation's event
        if not self.has_change_permission(request, event):
            raise PermissionDenied
        return event

    def _form_page(self, request, event, *, title, form, intro="", submit="Save"):
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "original": event,
            "title": title,
            "form": form,
            "intro": intro,
            "submit_label": submit,
            "change_url": self._change_url(event),
        }
        return TemplateResponse(request, "admin/tournaments/event/acceptability_form.html", context)

    def attest_view(self, request, object_id, rule_id):
        event = self._event_for_change(request, object_id)
        report = evaluate_event(event, today=timezone.localdate())
        what = report.attestable.get(rule_id)
        if what is None:
            messages.error(request, f"{rule_id} is not an open attestation of {event.code}.")
            return HttpResponseRedirect(self._change_url(event))
        kt = None
        if rule_id == ATTEST_KT:
            kt = next(r for r in report.results if r.rule_id == ATTEST_KT).facts
        form_class, kwargs = AttestationForm, {}
        if kt is not None:
            form_class = KtAttestationForm
            kwargs = {"rules": event.solving_rules, "proposed": kt["category"]}
        form = form_class(request.POST or None, **kwargs)
        if request.method == "POST" and form.is_valid():
            try:
                services.record_attestation(
                    event=event,
                    rule_id=rule_id,
                    by=request.user,
                    note=form.cleaned_data["note"],
                    category=form.cleaned_data.get("category"),
                )
            except TransitionError as exc:
                form.add_error(None, exc)
            else:
                messages.success(request, f"{rule_id} attested for {event.code}.")
                return HttpResponseRedirect(self._change_url(event))
        rule = next((r for r in report.results if r.rule_id == rule_id), None)
        prefix = "an official must attest that "
        if rule is not None and rule.message.startswith(prefix):
            what = rule.message.removeprefix(prefix)
        intro = f"You attest, under your name and today's date, that {what}."
        if kt is not None:
            intro += f" Proposed from the facts: {kt['category']} (KT {kt['kt']}): {kt['reason']}."
        return self._form_page(
            request,
            event,
            title=f"Attest {rule_id} for {event.code}",
            form=form,
            intro=intro,
            submit="Attest",
        )

    def override_view(self, request, object_id):
        event = self._event_for_change(request, object_id)
        if not is_rating_officer(request.user, event.federation_id):
            raise PermissionDenied("only a rating officer may override a failing rule")
        report = evaluate_event(event, today=timezone.localdate())
        failing = [r for r in report.unresolved_failures if not r.rule_id.endswith("-DATA")]
        if not failing:
            messages.info(request, f"{event.code} has no failing rule to override.")
            return HttpResponseRedirect(self._change_url(event))
        form = OverrideForm(request.POST or None, failing=failing)
        if request.method == "POST" and form.is_valid():
            try:
                services.record_override(
                    event=event,
                    rule_ids=form.cleaned_data["rule_ids"],
                    reason=form.cleaned_data["reason"],
                    by=request.user,
                )
            except TransitionError as exc:
                form.add_error(None, exc)
            else:
                messages.success(request, f"Override recorded for {event.code}.")
                return HttpResponseRedirect(self._change_url(event))
        return self._form_page(
            request,
            event,
            title=f"Override failing rules of {event.code}",
            form=form,
            intro="The override and its reason are recorded under your name in the audit log.",
            submit="Record override",
        )

    def transition_view(self, request, object_id, action):
        if action not in TRANSITIONS:
            raise PermissionDenied(f"unknown action {action!r}")
        event = self._event_for_change(request, object_id)
        form = ReasonForm(request.POST or None)
        if action == "reject":
            form.fields["reason"].required = True
        if request.method == "POST" and form.is_valid():
            try:
                services.change_status(
                    event=event, action=action, by=request.user, reason=form.cleaned_data["reason"]
                )
            except TransitionError as exc:
                messages.error(request, "; ".join(exc.messages))
            else:
                messages.success(request, f"{event.code}: {ACTION_LABELS[action].lower()} done.")
            return HttpResponseRedirect(self._change_url(event))
        return self._form_page(
            request,
            event,
            title=f"{ACTION_LABELS[action]}: {event.code}",
            form=form,
            submit=ACTION_LABELS[action],
            intro=f"{event} is {event.status}.",
        )

    # actions on the changelist -------------------------------------------------------------
    def _apply(self, request, queryset, action: str, reason: str = ""):
        done, refused = [], []
        for event in queryset.select_related("federation"):
            try:
                services.change_status(event=event, action=action, by=request.user, reason=reason)
            except (TransitionError, PermissionDenied) as exc:
                text = "; ".join(exc.messages) if isinstance(exc, TransitionError) else str(exc)
                refused.append(f"{event.code}: {text}")
            else:
                done.append(event.code)
        if done:
            messages.success(request, f"{ACTION_LABELS[action]}: {', '.join(done)}.")
        for line in refused:
            messages.error(request, line)

    @admin.action(description="Submit selected events for acceptance")
    def submit_selected(self, request, queryset):
        self._apply(request, queryset, "submit")

    @admin.action(description="Accept selected events (rules checked)")
    def accept_selected(self, request, queryset):
        self._apply(request, queryset, "accept")

    @admin.action(description="Mark selected events rated (rules checked)")
    def mark_rated_selected(self, request, queryset):
        self._apply(request, queryset, "mark_rated")

    @admin.action(description="Reject selected events (with a reason)")
    def reject_selected(self, request, queryset):
        reason = request.POST.get("reason", "").strip()
        if request.POST.get("confirm") and reason:
            self._apply(request, queryset, "reject", reason)
            return None
        if request.POST.get("confirm"):
            messages.error(request, "A rejection needs a reason.")
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "title": "Reject events",
            "events": queryset,
            "selected": request.POST.getlist(admin.helpers.ACTION_CHECKBOX_NAME),
            "action": "reject_selected",
        }
        return TemplateResponse(request, "admin/tournaments/event/reject_selected.html", context)
