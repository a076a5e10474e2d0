"""Rating periods, runs of the engines, and the lists they publish."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from federation.constraint_errors import ConstraintErrorsOnFields
from federation.models import Federation, Player
from federation.url_values import url_value_constraint, validate_url_value
from tournaments.models import Event


class ImmutableListError(Exception):
    """A published rating list (or a row it is built from) was about to change."""


FROZEN_LIST_STATUSES = ("published", "superseded")


def _run_is_frozen(run_id) -> bool:
    return (
        run_id is not None
        and RatingList.objects.filter(run_id=run_id, status__in=FROZEN_LIST_STATUSES).exists()
    )


class FrozenWithRunMixin:
    """Rows a run wrote (event ratings, norms): immutable once the run's list is published.
    The database refuses the same (ratings.persistence.guards)."""

    def _check_not_frozen(self) -> None:
        stored = type(self).objects.filter(pk=self.pk).values_list("run_id", flat=True).first()
        if _run_is_frozen(self.run_id) or _run_is_frozen(stored):
            raise ImmutableListError(f"{type(self).__name__} rows of a published run cannot change")

    def save(self, *args, **kwargs):
        self._check_not_frozen()
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        self._check_not_frozen()
        return super().delete(*args, **kwargs)


class RatingPeriod(ConstraintErrorsOnFields, models.Model):
    """One period of a federation's calendar: a game window and the list it produces."""

    federation = models.ForeignKey(Federation, on_delete=models.PROTECT, related_name="periods")
    code = models.CharField(_("code"), max_length=20, validators=[validate_url_value])
    starts_on = models.DateField(_("window starts"))
    ends_on = models.DateField(_("window ends"))
    list_published_on = models.DateField(_("list published on"))
    valid_from = models.DateField(_("list valid from"))
    needs_rerun = models.BooleanField(
        _("needs re-run"),
        default=False,
        help_text=_("A result was changed after the period was rated."),
    )
    needs_rerun_reason = models.TextField(blank=True)

    class Meta:
        ordering = ["federation", "starts_on"]
        constraints = [
            models.UniqueConstraint(
                fields=["federation", "code"],
                name="period_unique_code",
                violation_error_code="code",
                violation_error_message=_("This federation already has a period with this code."),
            ),
            url_value_constraint("code", "period_code_url_safe"),
            models.CheckConstraint(
                condition=Q(ends_on__gte=models.F("starts_on")),
                name="period_window_order",
                violation_error_code="ends_on",
                violation_error_message=_("The window cannot end before it starts."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.federation.code} {self.code}"

    IDENTITY = ("federation_id", "code", "starts_on", "ends_on", "list_published_on", "valid_from")

    def save(self, *args, **kwargs):
        # Once a list of the period is published, only the "needs re-run" mark may change.
        if self.pk is not None and self.lists.filter(status__in=FROZEN_LIST_STATUSES).exists():
            stored = type(self).objects.filter(pk=self.pk).values(*self.IDENTITY).first()
            if stored and any(stored[f] != getattr(self, f) for f in self.IDENTITY):
                raise ImmutableListError(f"period {self} has a published list: its dates stay")
        super().save(*args, **kwargs)


class InputEdit(models.Model):
    """An edit of what a rated or drafted period's run read (ratings.services.input_watch): which object,
    which fields, old and new values. Publication names these when it refuses a stale draft."""

    period = models.ForeignKey(RatingPeriod, on_delete=models.CASCADE, related_name="input_edits")
    at = models.DateTimeField(_("at"), default=timezone.now, db_index=True)
    subject = models.CharField(_("object"), max_length=200)
    fields = models.JSONField(_("fields"), default=list, blank=True)
    description = models.TextField(_("what changed"))

    class Meta:
        ordering = ["period", "-at", "-id"]
        verbose_name = _("edit of rating input")

    def __str__(self) -> str:
        return self.description


class RunStatus(models.TextChoices):
    QUEUED = "queued", _("Queued")
    RUNNING = "running", _("Running")
    SUCCEEDED = "succeeded", _("Succeeded")
    FAILED = "failed", _("Failed")


ACTIVE_RUN_STATUSES = (RunStatus.QUEUED, RunStatus.RUNNING)


class RatingRun(ConstraintErrorsOnFields, models.Model):
    federation = models.ForeignKey(Federation, on_delete=models.PROTECT, related_name="runs")
    period = models.ForeignKey(RatingPeriod, on_delete=models.PROTECT, related_name="runs")
    status = models.CharField(max_length=10, choices=RunStatus.choices, default=RunStatus.QUEUED)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    requested_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    engine = models.CharField(max_length=20, blank=True)
    engine_version = models.CharField(max_length=40, blank=True)
    params = models.JSONField(default=dict, blank=True)
    input_digest = models.CharField(max_length=64, blank=True)
    output_digest = models.CharField(max_length=64, blank=True)
    duration_seconds = models.FloatField(null=True, blank=True)
    stage_seconds = models.JSONField(default=dict, blank=True)
    excluded_events = models.JSONField(
        default=list, blank=True, help_text=_("Events left out of the run, and why.")
    )
    report = models.JSONField(default=dict, blank=True)
    error = models.TextField(blank=True)
    chain_head = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="chain_runs",
        help_text=_(
            "A correction chain's first run (services.rerate_from): reviewed and published "
            "together with it."
        ),
    )

    class Meta:
        ordering = ["-requested_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["federation", "period"],
                condition=Q(status__in=ACTIVE_RUN_STATUSES),
                name="run_one_active_per_period",
                violation_error_code="period",
                violation_error_message=_(
                    "A run of this period is already queued or running: wait for it to finish."
                ),
            ),
            models.CheckConstraint(
                condition=Q(status__in=RunStatus.values),
                name="run_status_known",
                violation_error_code="status",
                violation_error_message=_("Choose one of the run statuses."),
            ),
        ]

    def __str__(self) -> str:
        return f"Run {self.pk} of {self.period} ({self.status})"

    def save(self, *args, **kwargs):
        if self.pk is not None and _run_is_frozen(self.pk):
            raise ImmutableListError(f"run {self.pk} made a published list and cannot change")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        if _run_is_frozen(self.pk):
            raise ImmutableListError(f"run {self.pk} made a published list and cannot change")
        return super().delete(*args, **kwargs)


class RunRecord(models.Model):
    """What a run gave its engine and what the engine answered, kept so the run can be replayed
    bit for bit (``ratings/services/provenance.py``): the canonical JSON input, the output exactly as the
    engine's command line prints it, and the labels naming the database rows behind the input's
    list items; each zlib-compressed. Written once, with the run; never changed."""

    run = models.OneToOneField(
        RatingRun, primary_key=True, on_delete=models.CASCADE, related_name="record"
    )
    engine_input = models.BinaryField()
    engine_output = models.BinaryField()
    input_labels = models.BinaryField()
    input_size = models.PositiveBigIntegerField(help_text=_("Bytes of the input, uncompressed."))
    output_size = models.PositiveBigIntegerField(help_text=_("Bytes of the output, uncompressed."))

    def __str__(self) -> str:
        return f"input and output of run {self.run_id}"

    def refuse_if_stored(self) -> None:
        """Written once: a record already in the database is never written again."""
        if not self._state.adding:
            raise ImmutableListError(f"the stored input and output of run {self.run_id} are final")

    def save(self, *args, **kwargs):
        self.refuse_if_stored()
        super().save(*args, **kwargs)

    @property
    def stored_bytes(self) -> int:
        return len(self.engine_input) + len(self.engine_output) + len(self.input_labels)


class ListStatus(models.TextChoices):
    DRAFT = "draft", _("Draft")
    PUBLISHED = "published", _("Published")
    SUPERSEDED = "superseded", _("Superseded")
    DISCARDED = "discarded", _("Discarded")


class RatingList(ConstraintErrorsOnFields, models.Model):
    federation = models.ForeignKey(Federation, on_delete=models.PROTECT, related_name="lists")
    period = models.ForeignKey(RatingPeriod, on_delete=models.PROTECT, related_name="lists")
    run = models.OneToOneField(RatingRun, on_delete=models.PROTECT, related_name="rating_list")
    status = models.CharField(max_length=12, choices=ListStatus.choices, default=ListStatus.DRAFT)
    previous = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text=_("The published list this one is compared with."),
    )
    supersedes = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="superseded_by"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    published_at = models.DateTimeField(null=True, blank=True)
    published_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    entry_count = models.PositiveIntegerField(default=0)
    output_digest = models.CharField(max_length=64, blank=True)

    class Meta:
        ordering = ["-period__valid_from", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["federation", "period"],
                condition=Q(status="published"),
                name="list_one_published_per_period",
                violation_error_code="period",
                violation_error_message=_(
                    "This period already has a published list: a correction supersedes it when it is published."
                ),
            ),
            models.CheckConstraint(
                condition=Q(status__in=ListStatus.values),
                name="list_status_known",
                violation_error_code="status",
                violation_error_message=_("Choose one of the list statuses."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.period} list #{self.pk} ({self.status})"

    @property
    def is_frozen(self) -> bool:
        return self.status in FROZEN_LIST_STATUSES

    def _stored_status(self) -> str | None:
        if self.pk is None:
            return None
        return type(self).objects.filter(pk=self.pk).values_list("status", flat=True).first()

    def save(self, *args, **kwargs):
        stored = self._stored_status()
        # The only change a published list accepts is being superseded (services.publish_list).
        if stored == ListStatus.SUPERSEDED or (
            stored == ListStatus.PUBLISHED and self.status != ListStatus.SUPERSEDED
        ):
            raise ImmutableListError(f"rating list {self.pk} is {stored} and cannot change")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        if self._stored_status() in (ListStatus.PUBLISHED, ListStatus.SUPERSEDED):
            raise ImmutableListError(f"rating list {self.pk} is published and cannot be deleted")
        return super().delete(*args, **kwargs)


# What a player's history reads of each entry besides its keys (ratings.selectors: the player
# page and the API): carried in the (player, rating_list) index.
HISTORY_COLUMNS = [
    "rating",
    "published_rating",
    "rd",
    "published_rd",
    "rank",
    "games",
    "total_games",
    "change",
    "published_change",
    "provisional",
    "half_rating",
    "listed",
]


class RatingEntry(ConstraintErrorsOnFields, models.Model):
    # No single-column indexes on rating_list and player: (rating_list, rank), (rating_list,
    # player) and (player, rating_list) lead with them. The keys are checked by statement
    # triggers, not per-row constraints (federation.references: a run writes 100,000s of rows).
    rating_list = models.ForeignKey(
        RatingList,
        on_delete=models.CASCADE,
        related_name="entries",
        db_index=False,
        db_constraint=False,
    )
    player = models.ForeignKey(
        Player,
        on_delete=models.PROTECT,
        related_name="rating_entries",
        db_index=False,
        db_constraint=False,
    )
    rating = models.FloatField()
    rd = models.FloatField(null=True, blank=True)
    published_rating = models.IntegerField()
    published_rd = models.IntegerField(null=True, blank=True)
    games = models.PositiveIntegerField(default=0)
    total_games = models.PositiveIntegerField(default=0)
    change = models.FloatField(
        null=True, blank=True, help_text=_("Unrounded: rating − previous_rating.")
    )
    published_change = models.IntegerField(
        null=True,
        blank=True,
        help_text=_("The change readers see: published_rating − the previous list's."),
    )
    previous_rating = models.FloatField(null=True, blank=True)
    provisional = models.BooleanField(default=False)
    half_rating = models.BooleanField(default=False)
    listed = models.BooleanField(
        default=True, help_text=_("False: kept for the engine but not shown (inactive).")
    )
    rank = models.PositiveIntegerField(null=True, blank=True)
    state = models.JSONField(default=dict, blank=True, help_text=_("Engine state carried on."))

    class Meta:
        ordering = ["rating_list", "rank", "id"]
        indexes = [
            models.Index(fields=["rating_list", "rank"]),
            # A player's history, answered from the index alone on PostgreSQL (SQLite keeps the
            # key only): his 20 rows sit in 20 heap pages, one per list, and a cold player page
            # read them all (tests/ratings/web/test_history_index.py keeps the columns complete).
            models.Index(
                fields=["player", "rating_list"],
                name="entry_history_of_player",
                include=HISTORY_COLUMNS,
            ),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["rating_list", "player"],
                name="entry_one_per_player",
                violation_error_code="player",
                violation_error_message=_("This player is already on the list."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} {self.published_rating}"

    def save(self, *args, **kwargs):
        stored = type(self).objects.filter(pk=self.pk).values_list("rating_list_id", flat=True)
        if (
            self.rating_list.is_frozen
            or RatingList.objects.filter(pk__in=stored, status__in=FROZEN_LIST_STATUSES).exists()
        ):
            raise ImmutableListError("entries of a published list cannot change")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        if self.rating_list.is_frozen:
            raise ImmutableListError("entries of a published list cannot be deleted")
        return super().delete(*args, **kwargs)


class EventRating(FrozenWithRunMixin, ConstraintErrorsOnFields, models.Model):
    """A player's rating before and after one event of a run: the history players browse."""

    # Keyed by (player, run, event), the only index: the player's page and explanations read
    # by it, and a run writes its rows in its order (persistence.key_order), so each goes in
    # beside the one before. A second index by event took each of a period's 400,000 rows at
    # one of 2,000 places and doubled the insert (0.5 s of a 1.0 s COPY); what looks rows up by
    # event goes through RatedEvent instead, one row per (event, run) the database keeps, and
    # reads a run's rows of an event by its players' keys. No surrogate id: an id's sequence
    # and index added 0.4-0.5 s to a run's insert for a key nothing looks rows up by. The keys
    # are checked by statement triggers, not per-row constraints (federation.references).
    pk = models.CompositePrimaryKey("player", "run", "event")
    run = models.ForeignKey(
        RatingRun,
        on_delete=models.CASCADE,
        related_name="event_ratings",
        db_index=False,
        db_constraint=False,
    )
    # Not PROTECT here: Django would look the event's rows up by event to refuse; RatedEvent's
    # PROTECT refuses the same deletion by its key.
    event = models.ForeignKey(
        Event,
        on_delete=models.DO_NOTHING,
        related_name="event_ratings",
        db_index=False,
        db_constraint=False,
    )
    player = models.ForeignKey(
        Player,
        on_delete=models.PROTECT,
        related_name="event_ratings",
        db_index=False,
        db_constraint=False,
    )
    before = models.FloatField(null=True, blank=True)
    after = models.FloatField()
    before_rd = models.FloatField(null=True, blank=True)
    after_rd = models.FloatField(null=True, blank=True)
    games = models.PositiveIntegerField(default=0)
    score = models.FloatField(null=True, blank=True)
    details = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["event", "player"]

    def __str__(self) -> str:
        return f"{self.player} at {self.event}: {self.before} → {self.after}"


class RatedEvent(models.Model):
    """An event a run rated: the distinct (event, run) of its event ratings, kept by the
    database from them (ratings.persistence.rated_events) and written by nothing else. The way in by event:
    which runs rated an event, and whether any event rating refers to an event or a run."""

    pk = models.CompositePrimaryKey("event", "run")
    # Constraints (a few thousand rows a run, checked at commit), and the table is in no
    # guard's list: nothing but the triggers of ratings.persistence.rated_events writes it, and they only
    # follow the event ratings, which every guard covers.
    event = models.ForeignKey(
        Event,
        on_delete=models.PROTECT,
        related_name="rated_by",
        db_index=False,  # the key leads with it
    )
    # DO_NOTHING: the rows go with the run's event ratings, by the database
    run = models.ForeignKey(RatingRun, on_delete=models.DO_NOTHING, related_name="rated_events")

    class Meta:
        ordering = ["event", "run"]

    def __str__(self) -> str:
        return f"{self.event} rated by run {self.run_id}"


class SolvingNorm(FrozenWithRunMixin, ConstraintErrorsOnFields, models.Model):
    """A WFCC norm a solver earned at an event (stored by the run that rated it)."""

    run = models.ForeignKey(RatingRun, on_delete=models.CASCADE, related_name="norms")
    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="norms")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="norms")
    title = models.CharField(max_length=2)
    at_championship = models.BooleanField(default=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["run", "event", "player", "title"],
                name="norm_unique",
                violation_error_code="title",
                violation_error_message=_(
                    "This run already recorded this norm for this player at this event."
                ),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.title} norm: {self.player} at {self.event}"


class LiveRun(models.Model):
    """An UNOFFICIAL computation of a federation's accepted results since its newest published
    list, by the same engine and runner as a rating run. It is never a list: nothing of it is
    published, and a newer live run replaces it (one per federation)."""

    federation = models.OneToOneField(Federation, on_delete=models.CASCADE, related_name="live_run")
    base_list = models.ForeignKey(
        RatingList, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    period_code = models.CharField(max_length=20)  # the period the live results fall in
    computed_at = models.DateTimeField()
    engine_version = models.CharField(max_length=40, blank=True)
    params = models.JSONField(default=dict, blank=True)
    # The complete input, as a run's record stores its own: canonical JSON, zlib-compressed
    # (ratings/services/provenance.py), whose SHA-256 is input_digest. Its explain reads it.
    engine_input = models.BinaryField(default=b"", blank=True)
    input_digest = models.CharField(max_length=64, blank=True)
    events = models.JSONField(default=list, blank=True)  # codes of the events it counted

    def __str__(self) -> str:
        return (
            f"live {self.federation.code} ({self.period_code}, {self.computed_at:%Y-%m-%d %H:%M})"
        )


class LiveRating(ConstraintErrorsOnFields, models.Model):
    """A player's unofficial current rating: his result of the federation's live run."""

    # Keyed by (live run, player), checked per statement as a run's rows are (EventRating): a
    # refresh writes a federation's moved players at once. The player's index serves his page.
    pk = models.CompositePrimaryKey("live_run", "player")
    live_run = models.ForeignKey(
        LiveRun,
        on_delete=models.CASCADE,
        related_name="ratings",
        db_index=False,
        db_constraint=False,
    )
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="live_ratings", db_constraint=False
    )
    rating = models.FloatField()
    rd = models.FloatField(null=True, blank=True)
    published_rating = models.IntegerField()  # rounded as a list would round it
    published_rd = models.IntegerField(null=True, blank=True)
    official_rating = models.FloatField(null=True, blank=True)  # on the base list
    games = models.PositiveIntegerField(default=0)
    provisional = models.BooleanField(default=False)
    half_rating = models.BooleanField(default=False)

    def __str__(self) -> str:
        return f"{self.player}: live {self.published_rating} (unofficial)"

    @property
    def change(self) -> int | None:
        """Against the official list, as a list's change: the difference of published integers."""
        from ratings.engines.core.rounding import half_up_int

        if self.official_rating is None:
            return None
        return self.published_rating - half_up_int(self.official_rating)


class LiveEventRating(ConstraintErrorsOnFields, models.Model):
    """Before and after of one event in a live run (as EventRating for a rating run)."""

    # Keyed by (live run, event, player) with no surrogate id, its keys checked per statement:
    # an ICCF refresh writes 400,000 rows, as a run does (EventRating). The event's index serves
    # the guards of an event's deletion, the player's his explanations.
    pk = models.CompositePrimaryKey("live_run", "event", "player")
    live_run = models.ForeignKey(
        LiveRun,
        on_delete=models.CASCADE,
        related_name="event_ratings",
        db_index=False,
        db_constraint=False,
    )
    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, related_name="+", db_constraint=False
    )
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="+", db_constraint=False
    )
    before = models.FloatField(null=True, blank=True)
    after = models.FloatField()
    before_rd = models.FloatField(null=True, blank=True)
    after_rd = models.FloatField(null=True, blank=True)
    games = models.PositiveIntegerField(default=0)
    score = models.FloatField(null=True, blank=True)
    details = models.JSONField(default=dict, blank=True)

    def __str__(self) -> str:
        return f"{self.player} at {self.event} (live): {self.before} → {self.after}"
