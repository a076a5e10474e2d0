"""The site's admin base classes: federation scoping plus an audit row for every change."""

from __future__ import annotations

from django.contrib import admin

from federation import audit
from federation.permissions import FederationScopedAdmin, FederationScopedInline


def _locked(obj):
    # FOR NO KEY UPDATE: two saves of the object still wait for each other, but a transaction
    # that only refers to it (a live refresh's rows, checked by their foreign keys at commit)
    # does not wait for the official, which could deadlock with what the save waits for.
    return type(obj).objects.select_for_update(no_key=True).filter(pk=obj.pk).first()


class AuditedAdmin(FederationScopedAdmin):
    """Every save and delete through the admin writes an AuditEvent in the same transaction."""

    def save_model(self, request, obj, form, change):
        # The row is locked until the admin's transaction commits: a second official saving the
        # same object waits, then records the first one's values as "old" (a true audit chain).
        old = audit.snapshot(_locked(obj)) if change else {}
        super().save_model(request, obj, form, change)
        audit.record(
            actor=request.user,
            action="change" if change else "create",
            obj=obj,
            old=old,
            new=audit.snapshot(obj),
        )

    def delete_model(self, request, obj):
        old = audit.snapshot(obj)
        federation_id = audit.federation_id_of(obj)
        audit.record(
            actor=request.user, action="delete", obj=obj, old=old, federation_id=federation_id
        )
        super().delete_model(request, obj)

    def delete_queryset(self, request, queryset):
        for obj in queryset:
            self.delete_model(request, obj)

    def save_formset(self, request, form, formset, change):
        olds = {
            f.instance.pk: audit.snapshot(_locked(f.instance))
            for f in formset.forms
            if f.instance.pk is not None and f.has_changed()
        }
        deleted = [
            (f.instance, audit.snapshot(f.instance), audit.federation_id_of(f.instance))
            for f in formset.initial_forms
            if formset.can_delete and formset._should_delete_form(f)
        ]
        formset.save()
        for obj, old, federation_id in deleted:
            audit.record(
                actor=request.user, action="delete", obj=obj, old=old, federation_id=federation_id
            )
        for obj in formset.new_objects:
            audit.record(actor=request.user, action="create", obj=obj, new=audit.snapshot(obj))
        for obj, _fields in formset.changed_objects:
            audit.record(
                actor=request.user,
                action="change",
                obj=obj,
                old=olds.get(obj.pk, {}),
                new=audit.snapshot(obj),
            )


class ScopedTabularInline(FederationScopedInline, admin.TabularInline):
    extra = 0


class ScopedStackedInline(FederationScopedInline, admin.StackedInline):
    extra = 0
