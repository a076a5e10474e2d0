from django.contrib import admin

from federation.admin_base import AuditedAdmin
from ratings.models import RatingList, RatingPeriod, RatingRun


@admin.register(RatingPeriod)
class RatingPeriodAdmin(AuditedAdmin):
    list_display = ["federation", "code", "starts_on", "ends_on", "valid_from", "needs_rerun"]
    list_filter = ["federation", "needs_rerun"]
    search_fields = ["code"]
    list_select_related = ["federation"]


@admin.register(RatingRun)
class RatingRunAdmin(AuditedAdmin):
    list_display = ["id", "federation", "period", "status", "requested_at", "duration_seconds"]
    list_filter = ["federation", "status"]
    search_fields = ["period__code"]
    list_select_related = ["federation", "period"]
    readonly_fields = [f.name for f in RatingRun._meta.fields]

    def has_add_permission(self, request, *args):
        return False


@admin.register(RatingList)
class RatingListAdmin(AuditedAdmin):
    list_display = ["id", "federation", "period", "status", "entry_count", "published_at"]
    list_filter = ["federation", "status"]
    search_fields = ["period__code"]
    list_select_related = ["federation", "period"]
    readonly_fields = [f.name for f in RatingList._meta.fields]

    def has_add_permission(self, request, *args):
        return False

    def has_change_permission(self, request, obj=None):
        if obj is not None and obj.is_frozen:
            return False
        return super().has_change_permission(request, obj)
