"""Federations, their players and officials, and the append-only audit log."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from federation.constraint_errors import ConstraintErrorsOnFields
from federation.countries import ISO_3166_ALPHA2
from federation.names import fold
from federation.url_values import url_value_constraint, validate_url_value
from ratings.engines.core.grades import GRADE_PATTERN


class RatingSystem(models.TextChoices):
    ICCF = "iccf", _("ICCF correspondence chess")
    EGF = "egf", _("EGF go (GoR)")
    PLAYCHESS = "playchess", _("PlayChess online chess")
    WFCC = "wfcc", _("WFCC problem solving")


class Federation(ConstraintErrorsOnFields, models.Model):
    code = models.SlugField(_("code"), max_length=20, unique=True, validators=[validate_url_value])
    name = models.CharField(_("name"), max_length=200)
    system = models.CharField(_("rating system"), max_length=20, choices=RatingSystem.choices)
    params = models.JSONField(
        _("system parameters"),
        default=dict,
        blank=True,
        help_text=_(
            'Overrides of the rating system\'s settings: {"engine": {"rd_cap": 120}, '
            '"calendar": {"egf_snapshot_months": 3}}.'
        ),
    )

    class Meta:
        ordering = ["code"]
        constraints = [
            models.CheckConstraint(
                condition=Q(system__in=RatingSystem.values),
                name="federation_system_known",
                violation_error_code="system",
                violation_error_message=_("Choose one of the rating systems the site knows."),
            ),
            url_value_constraint("code", "federation_code_url_safe"),
        ]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        from ratings.calendars import CalendarParams
        from ratings.engines.core.errors import EngineInputError

        params = self.params or {}
        if not isinstance(params, dict) or set(params) - {"engine", "calendar"}:
            raise ValidationError({"params": _('Use {"engine": {...}, "calendar": {...}}.')})
        for key in ("engine", "calendar"):
            if not isinstance(params.get(key, {}), dict):
                raise ValidationError({"params": _("%(key)s must be an object.") % {"key": key}})
        try:
            CalendarParams(**params.get("calendar", {}))
        except TypeError as error:
            raise ValidationError({"params": f"calendar: {error}"}) from None
        except EngineInputError as error:
            raise ValidationError({"params": f"calendar {error.where}: {error.what}"}) from None


def validate_country(value: str) -> None:
    if value and value not in ISO_3166_ALPHA2:
        raise ValidationError(
            _("%(value)s is not an ISO 3166 alpha-2 country code"), params={"value": value}
        )


class Player(ConstraintErrorsOnFields, models.Model):
    federation = models.ForeignKey(Federation, on_delete=models.PROTECT, related_name="players")
    federation_player_id = models.CharField(
        _("federation id"),
        max_length=20,
        help_text=_("The federation's own id: ICCF ID, EGD PIN, ..."),
        validators=[validate_url_value],
    )
    surname = models.CharField(_("surname"), max_length=100)
    given_name = models.CharField(_("given name"), max_length=100, blank=True)
    # Folded copies for search (federation.names.fold), kept by save() and fill_folded_names().
    surname_folded = models.CharField(max_length=100, blank=True, editable=False)
    given_name_folded = models.CharField(max_length=100, blank=True, editable=False)
    country = models.CharField(
        _("country"),
        max_length=2,
        blank=True,
        validators=[validate_country],
        help_text=_("ISO 3166 alpha-2, e.g. DE"),
    )
    club = models.CharField(_("club"), max_length=100, blank=True)
    grade = models.CharField(
        _("declared grade"),
        max_length=3,
        blank=True,
        validators=[RegexValidator(GRADE_PATTERN, _("A go grade: 30k..1k, 1d..9d, 1p..9p."))],
    )
    fide_rating = models.PositiveSmallIntegerField(
        _("declared FIDE rating"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1000), MaxValueValidator(3000)],
    )
    fide_list_date = models.DateField(_("FIDE list date"), null=True, blank=True)
    fide_id = models.CharField(
        _("declared FIDE ID"),
        max_length=15,
        blank=True,
        validators=[RegexValidator(r"^[0-9]+$", _("Digits only."))],
        help_text=_("Checked against the imported FIDE list (ICCF rule 2.1a)."),
    )
    start_rating = models.FloatField(
        _("start rating"),
        null=True,
        blank=True,
        help_text=_("Declared entry rating accepted by an official (PlayChess) or ICCF rule 1.4."),
    )
    active = models.BooleanField(_("active"), default=True)
    merged_into = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="merged_duplicates",
        editable=False,
        help_text=_("Set when this entry was merged into another: the same person twice."),
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["surname", "given_name"]
        indexes = [
            models.Index(fields=["federation", "surname"]),
            models.Index(fields=["federation", "surname_folded"]),
            models.Index(fields=["federation", "country"]),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["federation", "federation_player_id"],
                name="player_unique_federation_id",
                violation_error_code="federation_player_id",
                violation_error_message=_("Another player of this federation already has this id."),
            ),
            url_value_constraint("federation_player_id", "player_id_url_safe"),
            models.CheckConstraint(
                condition=Q(country="") | Q(country__regex=r"^[A-Z]{2}$"),
                name="player_country_alpha2",
                violation_error_code="country",
                violation_error_message=_("Use a two-letter country code in capitals, e.g. DE."),
            ),
            models.CheckConstraint(
                condition=Q(grade="") | Q(grade__regex=GRADE_PATTERN),
                name="player_grade_valid",
                violation_error_code="grade",
                violation_error_message=_("A go grade is 30k to 1k, 1d to 9d or 1p to 9p."),
            ),
            models.CheckConstraint(
                condition=Q(fide_rating__isnull=True)
                | Q(fide_rating__gte=1000, fide_rating__lte=3000),
                name="player_fide_rating_range",
                violation_error_code="fide_rating",
                violation_error_message=_("A FIDE rating lies between 1000 and 3000."),
            ),
            models.CheckConstraint(
                condition=Q(fide_rating__isnull=True) | Q(fide_list_date__isnull=False),
                name="player_fide_rating_has_list_date",
                violation_error_code="fide_list_date",
                violation_error_message=_("Give the date of the FIDE list the rating comes from."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.full_name} ({self.federation_player_id})"

    def fill_folded_names(self) -> None:
        """Set the search columns; call before bulk_create, which bypasses save()."""
        self.surname_folded = fold(self.surname)
        self.given_name_folded = fold(self.given_name)

    def save(self, *args, **kwargs):
        self.fill_folded_names()
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and {"surname", "given_name"} & set(update_fields):
            kwargs["update_fields"] = {*update_fields, "surname_folded", "given_name_folded"}
        super().save(*args, **kwargs)

    @property
    def full_name(self) -> str:
        return f"{self.surname}, {self.given_name}" if self.given_name else self.surname


class FideList(ConstraintErrorsOnFields, models.Model):
    """A FIDE rating list as imported (reference data for ICCF rule 2.1a), kept whole."""

    federation = models.ForeignKey(Federation, on_delete=models.PROTECT, related_name="fide_lists")
    valid_from = models.DateField(_("valid from"))
    filename = models.CharField(max_length=200, blank=True)
    row_count = models.PositiveIntegerField(default=0)
    digest = models.CharField(
        max_length=64, help_text=_("Of the rows read: same file, same digest.")
    )
    imported_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["federation", "-valid_from"]
        constraints = [
            models.UniqueConstraint(
                fields=["federation", "valid_from"],
                name="fidelist_one_per_date",
                violation_error_message=_("A FIDE list of this date is already imported."),
                violation_error_code="valid_from",
            ),
        ]

    def __str__(self) -> str:
        return f"FIDE list of {self.valid_from:%Y-%m-%d} ({self.row_count} players)"


class FideRating(models.Model):
    fide_list = models.ForeignKey(FideList, on_delete=models.CASCADE, related_name="ratings")
    fide_id = models.CharField(max_length=15)
    name = models.CharField(max_length=200)
    fed = models.CharField(max_length=3, blank=True)
    rating = models.PositiveSmallIntegerField(null=True, blank=True)
    games = models.PositiveSmallIntegerField(null=True, blank=True)
    birth_year = models.PositiveSmallIntegerField(null=True, blank=True)
    title = models.CharField(max_length=4, blank=True)

    class Meta:
        # Not unique: a 1,000,000-row list is written by COPY as read, then checked for repeated
        # IDs by one query (list_import), so the reader needs no memory of the IDs it saw.
        indexes = [models.Index(fields=["fide_list", "fide_id"])]

    def __str__(self) -> str:
        return f"{self.fide_id} {self.name} {self.rating or 'unrated'}"


class OfficialRole(models.TextChoices):
    RATING_OFFICER = "rating_officer", _("Rating officer")
    TOURNAMENT_DIRECTOR = "tournament_director", _("Tournament director")


class Official(ConstraintErrorsOnFields, models.Model):
    """A user's role in one federation; a user may hold roles in several federations."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="official_roles"
    )
    federation = models.ForeignKey(Federation, on_delete=models.CASCADE, related_name="officials")
    role = models.CharField(max_length=30, choices=OfficialRole.choices)

    class Meta:
        ordering = ["federation__code", "user__username"]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "federation", "role"],
                name="official_unique_role",
                violation_error_code="role",
                violation_error_message=_("This user already holds this role in this federation."),
            ),
            models.CheckConstraint(
                condition=Q(role__in=OfficialRole.values),
                name="official_role_known",
                violation_error_code="role",
                violation_error_message=_("Choose one of the roles."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} — {self.get_role_display()} of {self.federation.code}"


class AppendOnlyError(Exception):
    """Raised when code tries to change or delete a row that must never change."""


class AuditEvent(models.Model):
    """Who changed what, when, from which values to which. Rows are never updated or deleted."""

    federation = models.ForeignKey(
        Federation, null=True, blank=True, on_delete=models.PROTECT, related_name="audit_events"
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    # Who acted, by name: the user's (kept if the user is deleted) or the system's ("command
    # line", "scheduler"), which has no user row.
    actor_name = models.CharField(max_length=150, blank=True)
    at = models.DateTimeField(auto_now_add=True, db_index=True)
    action = models.CharField(max_length=30)
    object_type = models.CharField(max_length=100)
    object_id = models.CharField(max_length=64, blank=True)
    object_repr = models.CharField(max_length=300, blank=True)
    old_values = models.JSONField(default=dict, blank=True)
    new_values = models.JSONField(default=dict, blank=True)
    message = models.TextField(blank=True)

    class Meta:
        ordering = ["-at", "-id"]
        indexes = [models.Index(fields=["object_type", "object_id"])]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.actor_name or self.actor} {self.action} {self.object_repr}"

    def save(self, *args, **kwargs):
        if self.pk is not None and not kwargs.get("force_insert"):
            raise AppendOnlyError("audit events are append-only")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise AppendOnlyError("audit events are append-only")
