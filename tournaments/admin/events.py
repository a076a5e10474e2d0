from django.contrib import admin
from django.db.models import Q

from federation.admin.base import AuditedAdmin, ScopedTabularInline
from federation.permissions import visible_federations
from federation.player_search import player_name_q
from tournaments.admin.acceptability import AcceptabilityFilter, EventAcceptabilityMixin
from tournaments.admin.egf_import import EgfImportMixin
from tournaments.admin.results_entry import ResultsEntryMixin
from tournaments.models import (
    Event,
    EventKind,
    Game,
    Problem,
    SolverScore,
    Substitution,
    Team,
    TeamMember,
)
from tournaments.system_fields import hidden_fields


class GameInline(ScopedTabularInline):
    model = Game
    fields = ["round", "white", "black", "result", "handicap", "komi", "finished_on", "reported_on"]
    autocomplete_fields = ["white", "black"]
    extra = 1
    show_change_link = True


class TeamInline(ScopedTabularInline):
    model = Team
    fields = ["name", "country"]
    show_change_link = True


class ProblemInline(ScopedTabularInline):
    model = Problem
    fields = [
        "round",
        "number",
        "group",
        "original",
        "first_published_on",
        "fairy_elements",
        "fairy_elements_announced_on",
        "max_points",
    ]
    show_change_link = True


@admin.register(Event)
class EventAdmin(ResultsEntryMixin, EgfImportMixin, EventAcceptabilityMixin, AuditedAdmin):
    list_display = [
        "code",
        "name",
        "federation",
        "kind",
        "start",
        "end",
        "rating_class",
        "status",
        "acceptability",
    ]
    list_filter = ["federation", "kind", "status", AcceptabilityFilter, "rating_class"]
    # The status moves only through tournaments.services (rules checked, audited).
    readonly_fields = ["status"]
    search_fields = ["code", "name", "location"]
    date_hierarchy = "end"
    list_select_related = ["federation"]
    show_full_result_count = False
    fieldsets = [
        (None, {"fields": ["federation", "name", "code", "kind", "status", "rating_class", "kt"]}),
        (
            "Dates and place",
            {
                "fields": [
                    "announced_on",
                    "start",
                    "end",
                    "results_reported_on",
                    "documentation_sent_on",
                    "location",
                    "multi_location",
                ]
            },
        ),
        (
            "ICCF",
            {
                "classes": ["collapse"],
                "fields": ["transmission", "reflection_days", "reflection_moves"],
            },
        ),
        (
            "EGF time control",
            {
                "classes": ["collapse"],
                "fields": [
                    "basic_time_minutes",
                    "time_system",
                    "overtime_seconds",
                    "overtime_moves",
                    "fischer_bonus_seconds",
                    "handicap_reduction",
                    "komi",
                ],
            },
        ),
        (
            "WFCC solving",
            {
                "classes": ["collapse"],
                "fields": ["championship", "solving_rules", "rounds", "days", "fairy_announced_on"],
            },
        ),
    ]

    def _systems(self, request, obj) -> set[str]:
        """The rating systems whose fields this form shows: the event's, or the official's."""
        if obj is not None:
            return {obj.federation.system}
        systems = set(visible_federations(request.user).values_list("system", flat=True))
        return systems if len(systems) == 1 else set()

    def get_fieldsets(self, request, obj=None):
        hidden = hidden_fields(self._systems(request, obj))
        fieldsets = []
        for name, options in super().get_fieldsets(request, obj):
            fields = [f for f in options["fields"] if f not in hidden]
            if fields:
                fieldsets.append((name, {**options, "fields": fields}))
        return fieldsets

    def get_changeform_initial_data(self, request):
        initial = super().get_changeform_initial_data(request)
        federations = list(visible_federations(request.user)[:2])
        if len(federations) == 1:  # an official of one federation: that one
            initial.setdefault("federation", federations[0].pk)
        return initial

    def get_inlines(self, request, obj):
        if obj is None:
            return []
        if obj.kind == EventKind.SOLVING:
            return [ProblemInline]
        if obj.kind == EventKind.TEAM:
            return [TeamInline, GameInline]
        return [GameInline]


class SubstitutionInline(ScopedTabularInline):
    model = Substitution
    autocomplete_fields = ["replaces"]


@admin.register(Game)
class GameAdmin(AuditedAdmin):
    list_display = ["event", "round", "white", "black", "result", "handicap", "reported_on"]
    list_filter = ["event__federation", "result"]
    search_fields = [
        "event__code",
        "white__surname",
        "black__surname",
        "white__federation_player_id",
        "black__federation_player_id",
    ]
    autocomplete_fields = ["event", "white", "black"]

    def get_search_results(self, request, queryset, search_term):
        """An event code, or either player as the player search reads names."""
        text = search_term.strip()
        if not text:
            return queryset, False
        players = player_name_q(text, "white__") | player_name_q(text, "black__")
        return queryset.filter(players | Q(event__code__iexact=text)).distinct(), True

    list_select_related = ["event", "white", "black"]
    inlines = [SubstitutionInline]
    show_full_result_count = False


class TeamMemberInline(ScopedTabularInline):
    model = TeamMember
    autocomplete_fields = ["player"]
    extra = 1


@admin.register(Team)
class TeamAdmin(AuditedAdmin):
    list_display = ["name", "event", "country"]
    list_filter = ["event__federation"]
    search_fields = ["name", "event__code"]
    autocomplete_fields = ["event"]
    list_select_related = ["event"]
    inlines = [TeamMemberInline]


class SolverScoreInline(ScopedTabularInline):
    model = SolverScore
    autocomplete_fields = ["solver"]
    fields = ["solver", "points", "time_used_minutes"]
    extra = 1


@admin.register(Problem)
class ProblemAdmin(AuditedAdmin):
    list_display = ["event", "round", "number", "group", "original", "first_published_on"]
    list_filter = ["event__federation", "group"]
    search_fields = ["event__code", "fairy_elements"]
    autocomplete_fields = ["event"]
    list_select_related = ["event"]
    inlines = [SolverScoreInline]
