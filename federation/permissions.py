"""Federation scoping: which federations a user may see, the admin base class that enforces it,
and who may act on a federation's ratings (the services ask, not the views).

Every model admin of the site derives from FederationScopedAdmin (or its inline twin) and names
the lookup path from its model to the Federation. Querysets, foreign-key choices, autocomplete and
objects reached by a typed URL are all filtered through that path, so an official of one
federation can neither see nor choose another federation's rows. Superusers see everything.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeAlias

from django.contrib import admin
from django.contrib.admin.utils import NotRelationField, get_fields_from_path
from django.core.exceptions import FieldDoesNotExist, PermissionDenied
from django.db.models import Model, QuerySet
from django.http import Http404

from federation.models import Federation, Official, OfficialRole

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, AnonymousUser


@dataclass(frozen=True)
class SystemActor:
    """The site acting by itself, not a person: the command line or the scheduler. It may do
    whatever a rating officer may, and the audit row names it."""

    name: str

    def __str__(self) -> str:
        return self.name


COMMAND_LINE = SystemActor("command line")
SCHEDULER = SystemActor("scheduler")
# The worker recording a run's failure (whoever asked for the run is on the run).
RATING_RUN = SystemActor("rating run")

# Whoever a service acts for: a user (maybe anonymous) or the system. None is nobody: refused.
Actor: TypeAlias = "AbstractBaseUser | AnonymousUser | SystemActor | None"


def user_or_none(actor: Actor):
    """The user to keep in a ``…_by`` foreign key: None for the system and for nobody."""
    return actor if getattr(actor, "is_authenticated", False) else None


class NotAllowed(PermissionDenied):
    """The actor may not do this; the message says who may, in plain words. A PermissionDenied,
    so one that no view catches is a 403, never a 500."""


def _is_person(actor: Actor) -> bool:
    return (
        actor is not None
        and not isinstance(actor, SystemActor)
        and actor.is_authenticated
        and actor.is_active
    )


def may_rate(actor: Actor, federation_id: int) -> bool:
    """Run, publish, discard, re-rate and import lists: a rating officer of the federation, a
    superuser, or the system."""
    if isinstance(actor, SystemActor):
        return True
    return _is_person(actor) and is_rating_officer(actor, federation_id)


def may_merge_players(actor: Actor, federation_id: int) -> bool:
    """Merge a federation's duplicate players: any of its officials, a superuser, or the system."""
    if isinstance(actor, SystemActor):
        return True
    if not _is_person(actor):
        return False
    ids = visible_federation_ids(actor)
    return ids is None or federation_id in ids


def require_rating_officer(actor: Actor, federation: Federation, doing: str) -> None:
    """NotAllowed unless ``actor`` may rate for ``federation`` (``doing``: "publish lists")."""
    if not may_rate(actor, federation.pk):
        raise NotAllowed(f"Only a rating officer of {federation.code} may {doing}.")


def require_official(actor: Actor, federation: Federation, doing: str) -> None:
    if not may_merge_players(actor, federation.pk):
        raise NotAllowed(f"Only an official of {federation.code} may {doing}.")


def visible_federation_ids(user) -> set[int] | None:
    """None means every federation (superuser); otherwise the ids the user holds a role in."""
    if not user.is_authenticated or not user.is_active:
        return set()
    if user.is_superuser:
        return None
    cached = getattr(user, "_visible_federation_ids", None)
    if cached is None:
        cached = set(Official.objects.filter(user=user).values_list("federation_id", flat=True))
        user._visible_federation_ids = cached
    return cached


def visible_federations(user) -> QuerySet[Federation]:
    ids = visible_federation_ids(user)
    return Federation.objects.all() if ids is None else Federation.objects.filter(id__in=ids)


def is_rating_officer(user, federation_id: int) -> bool:
    if not user.is_authenticated or not user.is_active:
        return False
    if user.is_superuser:
        return True
    return Official.objects.filter(
        user=user, federation_id=federation_id, role=OfficialRole.RATING_OFFICER
    ).exists()


def federation_path_of(model: type[Model]) -> str | None:
    """The lookup path from a model to its Federation ('' for Federation itself)."""
    if model is Federation:
        return ""
    return getattr(model, "federation_path", None) or _DEFAULT_PATHS.get(model._meta.label)


_DEFAULT_PATHS = {
    "federation.Player": "federation",
    "federation.Official": "federation",
    "federation.AuditEvent": "federation",
    "federation.FideList": "federation",
    "federation.FideRating": "fide_list__federation",
    "tournaments.Event": "federation",
    "tournaments.Game": "event__federation",
    "tournaments.Team": "event__federation",
    "tournaments.TeamMember": "team__event__federation",
    "tournaments.Substitution": "game__event__federation",
    "tournaments.Problem": "event__federation",
    "tournaments.SolverScore": "problem__event__federation",
    "tournaments.Attestation": "event__federation",
    "tournaments.AcceptanceOverride": "event__federation",
    "ratings.RatingPeriod": "federation",
    "ratings.RatingRun": "federation",
    "ratings.RatingList": "federation",
    "ratings.RatingEntry": "rating_list__federation",
    "ratings.EventRating": "event__federation",
    "ratings.RatedEvent": "event__federation",
    "ratings.SolvingNorm": "event__federation",
}


def scope_queryset(queryset: QuerySet, user) -> QuerySet:
    ids = visible_federation_ids(user)
    if ids is None:
        return queryset
    path = federation_path_of(queryset.model)
    if path is None:
        # A model nobody mapped: show nothing rather than everything.
        return queryset.none()
    field = f"{path}__id__in" if path else "id__in"
    return queryset.filter(**{field: ids})


def federation_id_of(obj: Model) -> int | None:
    path = federation_path_of(type(obj))
    if path is None:
        return None
    if path == "":
        return obj.pk
    current = obj
    for part in path.split("__"):
        current = getattr(current, part, None)
        if current is None:
            return None
    return current.pk


def _related_only(model: type[Model], item):
    if not isinstance(item, str):
        return item
    try:
        fields = get_fields_from_path(model, item)
    except (FieldDoesNotExist, NotRelationField):
        return item
    if fields[-1].is_relation:
        return (item, admin.RelatedOnlyFieldListFilter)
    return item


class _ScopingMixin:
    def get_queryset(self, request):
        return scope_queryset(super().get_queryset(request), request.user)

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        field = super().formfield_for_foreignkey(db_field, request, **kwargs)
        if field is not None and hasattr(field, "queryset"):
            field.queryset = scope_queryset(field.queryset, request.user)
        return field

    def formfield_for_manytomany(self, db_field, request, **kwargs):
        field = super().formfield_for_manytomany(db_field, request, **kwargs)
        if field is not None and hasattr(field, "queryset"):
            field.queryset = scope_queryset(field.queryset, request.user)
        return field

    def get_list_filter(self, request):
        """A plain filter on a relation lists every row of the related table (all federations'
        names in the sidebar); offer only the values present in the scoped change list."""
        return [_related_only(self.model, item) for item in super().get_list_filter(request)]

    def _is_official(self, request) -> bool:
        ids = visible_federation_ids(request.user)
        return ids is None or bool(ids)

    def _may_touch(self, request, obj) -> bool:
        if not self._is_official(request):
            return False
        if obj is None:
            return True
        ids = visible_federation_ids(request.user)
        return ids is None or federation_id_of(obj) in ids

    def has_module_permission(self, request):
        return request.user.is_active and request.user.is_staff and self._is_official(request)

    def has_view_permission(self, request, obj=None):
        return request.user.is_staff and self._may_touch(request, obj)

    def has_add_permission(self, request, *args):
        return (
            request.user.is_staff
            and self._is_official(request)
            and not self.read_only_for_officials(request)
        )

    def has_change_permission(self, request, obj=None):
        return (
            request.user.is_staff
            and self._may_touch(request, obj)
            and not self.read_only_for_officials(request)
        )

    def has_delete_permission(self, request, obj=None):
        return self.has_change_permission(request, obj)

    def read_only_for_officials(self, request) -> bool:
        """Models officials may look at but only superusers edit (federations, officials)."""
        return False


class FederationScopedAdmin(_ScopingMixin, admin.ModelAdmin):
    def get_object(self, request, object_id, from_field=None):
        obj = super().get_object(request, object_id, from_field)
        if obj is None:
            # Another federation's object looks exactly like one that does not exist.
            raise Http404(f"No {self.opts.verbose_name} with id {object_id!r} is visible to you.")
        return obj


class FederationScopedInline(_ScopingMixin):
    """Mixin for TabularInline/StackedInline subclasses."""
