from django.contrib import admin
from django.db.models import Q

from federation.admin.base import AuditedAdmin
from federation.admin.duplicates import DuplicatesMixin
from federation.models import AuditEvent, Federation, FideList, Official, Player
from federation.player_search import player_name_q


class SuperuserEditsOnly:
    def read_only_for_officials(self, request) -> bool:
        return not request.user.is_superuser


@admin.register(Federation)
class FederationAdmin(SuperuserEditsOnly, AuditedAdmin):
    list_display = ["code", "name", "system"]
    search_fields = ["code", "name"]


@admin.register(Player)
class PlayerAdmin(DuplicatesMixin, AuditedAdmin):
    list_display = [
        "federation_player_id",
        "surname",
        "given_name",
        "country",
        "club",
        "grade",
        "fide_rating",
        "active",
        "federation",
    ]
    list_display_links = ["federation_player_id", "surname"]
    list_filter = ["federation", "active", "country"]
    search_fields = ["federation_player_id", "surname", "given_name", "club"]
    list_select_related = ["federation"]
    list_per_page = 50
    show_full_result_count = False

    def get_search_results(self, request, queryset, search_term):
        """Search and autocomplete: "Surname, Given", "Given Surname", an id, any accents
        (federation.player_search), or a club."""
        if not search_term.strip():
            return queryset, False
        club = Q(club__icontains=search_term.strip())
        return queryset.filter(player_name_q(search_term) | club), False

    fieldsets = [
        (
            None,
            {
                "fields": [
                    "federation",
                    "federation_player_id",
                    "surname",
                    "given_name",
                    "country",
                    "club",
                    "active",
                ]
            },
        ),
        (
            "Declared strength",
            {"fields": ["grade", "fide_id", "fide_rating", "fide_list_date", "start_rating"]},
        ),
    ]


@admin.register(FideList)
class FideListAdmin(AuditedAdmin):
    """FIDE lists are imported whole (Rating lists → Import a player list) and never edited; a
    list imported by mistake is deleted here with its rows."""

    list_display = ["valid_from", "federation", "row_count", "filename", "imported_at"]
    list_filter = ["federation"]
    readonly_fields = [f.name for f in FideList._meta.fields]

    def has_add_permission(self, request, *args):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Official)
class OfficialAdmin(SuperuserEditsOnly, AuditedAdmin):
    list_display = ["user", "federation", "role"]
    list_filter = ["federation", "role"]
    search_fields = ["user__username"]
    autocomplete_fields = ["user"]
    list_select_related = ["user", "federation"]


@admin.register(AuditEvent)
class AuditEventAdmin(AuditedAdmin):
    list_display = ["at", "who", "action", "object_type", "object_repr", "federation"]
    list_filter = ["action", "object_type", "federation"]
    search_fields = ["object_repr", "object_id", "message", "actor_name"]
    list_select_related = ["actor", "federation"]
    readonly_fields = [f.name for f in AuditEvent._meta.fields]

    @admin.display(description="who", ordering="actor_name")
    def who(self, event: AuditEvent) -> str:
        """The name kept on the row (a user's, or the command line's or scheduler's); rows
        written before names were kept show their user."""
        return event.actor_name or (str(event.actor) if event.actor else "-")

    def read_only_for_officials(self, request) -> bool:
        return True  # nobody edits the audit log, superusers included

    def has_add_permission(self, request, *args):
        return False
