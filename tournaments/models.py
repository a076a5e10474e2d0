"""Events and what was played in them: games, teams and substitutes, solving problems and scores."""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from federation.constraint_errors import ConstraintErrorsOnFields
from federation.models import Federation, Player
from federation.scoping import check_one_federation
from federation.url_values import url_value_constraint, validate_url_value


class EventKind(models.TextChoices):
    INDIVIDUAL = "individual", _("Individual")
    TEAM = "team", _("Team")
    SOLVING = "solving", _("Solving")


class EventStatus(models.TextChoices):
    DRAFT = "draft", _("Draft")
    SUBMITTED = "submitted", _("Submitted")
    ACCEPTED = "accepted", _("Accepted")
    RATED = "rated", _("Rated")
    REJECTED = "rejected", _("Rejected")


class RatingClass(models.TextChoices):
    EGF_A = "A", _("EGF class A")
    EGF_B = "B", _("EGF class B")
    EGF_C = "C", _("EGF class C")
    EGF_D = "D", _("EGF class D")
    W40 = "W40", "W40"
    W30 = "W30", "W30"
    W25 = "W25", "W25"
    W20 = "W20", "W20"
    W15 = "W15", "W15"
    W10 = "W10", "W10"
    O20 = "O20", "O20"
    O15 = "O15", "O15"
    O10 = "O10", "O10"


class Transmission(models.TextChoices):
    POSTAL_WEBSERVER = "postal_webserver", _("Postal, administered on the webserver")
    POSTAL_OFF = "postal_off", _("Postal, not on the webserver")
    ELECTRONIC = "electronic", _("Electronic (webserver)")


class TimeSystem(models.TextChoices):
    BYOYOMI = "byoyomi", _("Standard byo-yomi")
    CANADIAN = "canadian", _("Canadian byo-yomi")
    FISCHER = "fischer", _("Fischer")
    SUDDEN_DEATH = "sudden_death", _("Sudden death")


class Championship(models.TextChoices):
    NONE = "", _("None")
    WCSC = "WCSC", _("World Chess Solving Championship")
    ECSC = "ECSC", _("European Chess Solving Championship")
    WCSC_TYPE = "WCSC_TYPE", _("WCSC-type tournament for norms")
    WCCC_OPEN = "WCCC_OPEN", _("WCCC Open")
    ECSC_OPEN = "ECSC_OPEN", _("ECSC Open")


class SolvingRules(models.TextChoices):
    WCSC = "W", _("Organised under WCSC rules")
    OTHER = "O", _("Other rules")


class Event(ConstraintErrorsOnFields, models.Model):
    federation = models.ForeignKey(Federation, on_delete=models.PROTECT, related_name="events")
    name = models.CharField(_("name"), max_length=200)
    code = models.CharField(
        _("code"),
        max_length=40,
        validators=[validate_url_value],
        help_text=_(
            "e.g. the EGD code T130727A; letters, digits and . _ - (part of web addresses)"
        ),
    )
    kind = models.CharField(_("kind"), max_length=20, choices=EventKind.choices)
    status = models.CharField(
        _("status"), max_length=20, choices=EventStatus.choices, default=EventStatus.DRAFT
    )
    announced_on = models.DateField(_("announced on"), null=True, blank=True)
    start = models.DateField(_("start"))
    end = models.DateField(_("end"))
    results_reported_on = models.DateField(_("results reported on"), null=True, blank=True)
    documentation_sent_on = models.DateField(_("documentation sent on"), null=True, blank=True)
    location = models.CharField(_("location"), max_length=200, blank=True)
    multi_location = models.BooleanField(_("multi-location"), default=False)
    rating_class = models.CharField(
        _("class or category"), max_length=3, choices=RatingClass.choices, blank=True
    )
    kt = models.DecimalField(
        _("tournament coefficient KT"),
        max_digits=3,
        decimal_places=1,
        null=True,
        blank=True,
        help_text=_("WFCC: the coefficient the representative determined."),
    )
    # ICCF
    transmission = models.CharField(
        _("transmission"), max_length=20, choices=Transmission.choices, blank=True
    )
    reflection_days = models.PositiveSmallIntegerField(_("reflection days"), null=True, blank=True)
    reflection_moves = models.PositiveSmallIntegerField(
        _("per number of moves"), null=True, blank=True
    )
    # EGF
    basic_time_minutes = models.PositiveSmallIntegerField(
        _("basic time (minutes)"), null=True, blank=True
    )
    time_system = models.CharField(
        _("time system"), max_length=20, choices=TimeSystem.choices, blank=True
    )
    overtime_seconds = models.PositiveIntegerField(
        _("byo-yomi period (seconds)"),
        null=True,
        blank=True,
        help_text=_("Standard: seconds per move; Canadian: seconds per period."),
    )
    overtime_moves = models.PositiveSmallIntegerField(
        _("stones per Canadian period"), null=True, blank=True
    )
    fischer_bonus_seconds = models.PositiveSmallIntegerField(
        _("Fischer bonus (seconds)"), null=True, blank=True
    )
    handicap_reduction = models.PositiveSmallIntegerField(
        _("handicap reduction hN"), null=True, blank=True
    )
    komi = models.DecimalField(_("komi"), max_digits=4, decimal_places=1, null=True, blank=True)
    # WFCC
    championship = models.CharField(
        _("championship"), max_length=10, choices=Championship.choices, blank=True
    )
    solving_rules = models.CharField(
        _("solving rules"), max_length=1, choices=SolvingRules.choices, blank=True
    )
    rounds = models.PositiveSmallIntegerField(_("rounds"), null=True, blank=True)
    days = models.PositiveSmallIntegerField(_("days"), null=True, blank=True)
    fairy_announced_on = models.DateField(_("fairy elements announced on"), null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-end", "code"]
        indexes = [models.Index(fields=["federation", "status", "end"])]
        constraints = [
            models.UniqueConstraint(
                fields=["federation", "code"],
                name="event_unique_code",
                violation_error_code="code",
                violation_error_message=_(
                    "Another event of this federation already has this code."
                ),
            ),
            url_value_constraint("code", "event_code_url_safe"),
            models.CheckConstraint(
                condition=Q(end__gte=F("start")),
                name="event_ends_after_start",
                violation_error_code="end",
                violation_error_message=_(
                    "The event cannot end before it starts: check the start and end dates."
                ),
            ),
            models.CheckConstraint(
                condition=Q(status__in=EventStatus.values),
                name="event_status_known",
                violation_error_code="status",
                violation_error_message=_("Choose one of the statuses."),
            ),
            models.CheckConstraint(
                condition=Q(kind__in=EventKind.values),
                name="event_kind_known",
                violation_error_code="kind",
                violation_error_message=_("Choose individual, team or solving."),
            ),
            models.CheckConstraint(
                condition=Q(kt__isnull=True) | Q(kt__gt=0, kt__lte=4),
                name="event_kt_range",
                violation_error_code="kt",
                violation_error_message=_("The coefficient KT lies above 0 and at most 4."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.code})"

    def clean(self) -> None:
        from ratings.calendars import FIRST_YEAR, LAST_YEAR

        for name in ("start", "end"):
            day = getattr(self, name)
            if day is not None and not FIRST_YEAR <= day.year <= LAST_YEAR:
                raise ValidationError(
                    {name: f"Use a date in the years {FIRST_YEAR}-{LAST_YEAR}."}, code="year"
                )


class Result(models.TextChoices):
    WHITE_WINS = "1-0", _("White wins")
    DRAW = "1/2", _("Draw")
    BLACK_WINS = "0-1", _("Black wins")
    WHITE_WINS_BY_DEFAULT = "1-0ff", _("White wins by default (not played)")
    BLACK_WINS_BY_DEFAULT = "0-1ff", _("Black wins by default (not played)")
    DOUBLE_FORFEIT = "0-0ff", _("Both lose by default (not played)")
    BOTH_WIN = "1-1", _("Both win (not rated)")
    BOTH_LOSE = "0-0", _("Both lose (not rated)")
    UNKNOWN = "?", _("Unknown result")
    UNFINISHED = "*", _("Not finished")
    BYE_WIN = "bye+", _("Free round, counted as a win")
    BYE_LOSS = "bye-", _("Free round, no points")
    BYE_HALF = "bye=", _("Free round, half a point")


PLAYED_RESULTS = {Result.WHITE_WINS: 1.0, Result.DRAW: 0.5, Result.BLACK_WINS: 0.0}
BYE_RESULTS = (Result.BYE_WIN, Result.BYE_LOSS, Result.BYE_HALF)


class Game(ConstraintErrorsOnFields, models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="games")
    round = models.PositiveSmallIntegerField(_("round"), validators=[MinValueValidator(1)])
    white = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="games_as_white")
    black = models.ForeignKey(
        Player,
        on_delete=models.PROTECT,
        related_name="games_as_black",
        null=True,
        blank=True,
        help_text=_("Empty only for a free round (bye) of the white player."),
    )
    result = models.CharField(_("result"), max_length=6, choices=Result.choices)
    handicap = models.PositiveSmallIntegerField(
        _("handicap stones received by Black"), default=0, validators=[MaxValueValidator(30)]
    )
    komi = models.DecimalField(_("komi"), max_digits=4, decimal_places=1, null=True, blank=True)
    finished_on = models.DateField(_("finished on"), null=True, blank=True)
    reported_on = models.DateField(_("reported on"), null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["event", "round", "id"]
        indexes = [
            models.Index(fields=["white", "event"]),
            models.Index(fields=["black", "event"]),
            models.Index(fields=["event", "reported_on"]),
        ]
        constraints = [
            models.CheckConstraint(
                condition=~Q(white=F("black")) | Q(black__isnull=True),
                name="game_no_self_play",
                violation_error_code="black",
                violation_error_message=_("A player cannot play himself: choose another opponent."),
            ),
            models.CheckConstraint(
                condition=Q(result__in=Result.values),
                name="game_result_known",
                violation_error_code="result",
                violation_error_message=_("Choose one of the results."),
            ),
            models.CheckConstraint(
                condition=Q(black__isnull=True, result__in=BYE_RESULTS)
                | (Q(black__isnull=False) & ~Q(result__in=BYE_RESULTS)),
                name="game_bye_has_no_opponent",
                violation_error_code="black",
                violation_error_message=_(
                    "A free round (bye) has no opponent and a game needs one: leave Black empty only with a bye result."
                ),
            ),
            models.CheckConstraint(
                condition=Q(handicap__gte=0, handicap__lte=30),
                name="game_handicap_range",
                violation_error_code="handicap",
                violation_error_message=_("A handicap is 0 to 30 stones."),
            ),
            models.CheckConstraint(
                condition=Q(round__gte=1),
                name="game_round_positive",
                violation_error_code="round",
                violation_error_message=_("Rounds are numbered from 1."),
            ),
        ]

    def __str__(self) -> str:
        black = self.black.full_name if self.black_id else "bye"
        return f"R{self.round}: {self.white.full_name} – {black} {self.result}"

    @property
    def is_rated_result(self) -> bool:
        return self.result in PLAYED_RESULTS

    def clean(self) -> None:
        if self.event_id:
            check_game_players(self)


def check_game_players(game: Game) -> None:
    """Both players of a game must belong to the event's federation, and be different."""
    errors = {}
    try:
        check_one_federation(game)  # the database refuses it too (federation.scoping)
    except ValidationError as error:
        errors.update(error.error_dict)
    if game.white_id and game.white_id == game.black_id:
        errors["black"] = [ValidationError("A player cannot play himself.", code="self_play")]
    if errors:
        raise ValidationError(errors)


class Team(ConstraintErrorsOnFields, models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="teams")
    name = models.CharField(_("name"), max_length=100)
    country = models.CharField(_("country"), max_length=2, blank=True)

    class Meta:
        ordering = ["event", "name"]
        constraints = [
            models.UniqueConstraint(
                fields=["event", "name"],
                name="team_unique_name",
                violation_error_code="name",
                violation_error_message=_("This event already has a team of this name."),
            ),
        ]

    def __str__(self) -> str:
        return self.name


class TeamMember(ConstraintErrorsOnFields, models.Model):
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="members")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="team_memberships")
    board = models.PositiveSmallIntegerField(_("board"), validators=[MinValueValidator(1)])
    is_substitute = models.BooleanField(_("substitute"), default=False)

    class Meta:
        ordering = ["team", "board"]
        constraints = [
            models.UniqueConstraint(
                fields=["team", "player"],
                name="teammember_unique_player",
                violation_error_code="player",
                violation_error_message=_("This player is already a member of the team."),
            ),
            models.CheckConstraint(
                condition=Q(board__gte=1),
                name="teammember_board_positive",
                violation_error_code="board",
                violation_error_message=_("Boards are numbered from 1."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.team}: board {self.board} {self.player.full_name}"

    def clean(self) -> None:
        check_one_federation(self)  # the database refuses it too (federation.scoping)


class Side(models.TextChoices):
    WHITE = "white", _("White")
    BLACK = "black", _("Black")


class Substitution(ConstraintErrorsOnFields, models.Model):
    """ICCF rule 6: a substitute played this game instead of a team member."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="substitutions")
    side = models.CharField(_("side"), max_length=5, choices=Side.choices)
    replaces = models.ForeignKey(
        Player,
        on_delete=models.PROTECT,
        related_name="replaced_in",
        help_text=_("The team member the substitute played instead of."),
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["game", "side"],
                name="substitution_one_per_side",
                violation_error_code="side",
                violation_error_message=_("This game already has a substitute on this side."),
            ),
            models.CheckConstraint(
                condition=Q(side__in=Side.values),
                name="substitution_side",
                violation_error_code="side",
                violation_error_message=_("Choose White or Black."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game}: {self.side} replaces {self.replaces.full_name}"

    def clean(self) -> None:
        check_one_federation(self)  # the database refuses it too (federation.scoping)


class ProblemGroup(models.TextChoices):
    TWOMOVER = "twomover", _("Twomover")
    THREEMOVER = "threemover", _("Threemover")
    MOREMOVER = "moremover", _("Moremover")
    ENDGAME = "endgame", _("Endgame study")
    HELPMATE = "helpmate", _("Helpmate")
    SELFMATE = "selfmate", _("Selfmate")
    FAIRY = "fairy", _("Fairy")


class Problem(ConstraintErrorsOnFields, models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="problems")
    round = models.PositiveSmallIntegerField(_("round"), validators=[MinValueValidator(1)])
    number = models.PositiveSmallIntegerField(_("number"), validators=[MinValueValidator(1)])
    group = models.CharField(_("group"), max_length=12, choices=ProblemGroup.choices)
    original = models.BooleanField(_("original"), default=False)
    first_published_on = models.DateField(_("first published on"), null=True, blank=True)
    fairy_elements = models.CharField(_("fairy elements"), max_length=200, blank=True)
    fairy_elements_announced_on = models.DateField(
        _("fairy elements announced on"), null=True, blank=True
    )
    max_points = models.DecimalField(
        _("maximum points"),
        max_digits=3,
        decimal_places=2,
        default=Decimal("5.00"),
        validators=[MinValueValidator(Decimal("0.01")), MaxValueValidator(Decimal("5.00"))],
    )

    class Meta:
        ordering = ["event", "round", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["event", "round", "number"],
                name="problem_unique_number",
                violation_error_code="number",
                violation_error_message=_("This round already has a problem with this number."),
            ),
            models.CheckConstraint(
                condition=Q(group__in=ProblemGroup.values),
                name="problem_group_known",
                violation_error_code="group",
                violation_error_message=_("Choose one of the problem groups."),
            ),
            models.CheckConstraint(
                condition=Q(original=True) | Q(first_published_on__isnull=False),
                name="problem_original_or_published",
                violation_error_code="first_published_on",
                violation_error_message=_(
                    "A problem that is not an original needs the date it was first published."
                ),
            ),
            models.CheckConstraint(
                condition=Q(max_points__gt=0, max_points__lte=Decimal("5.00")),
                name="problem_max_points_range",
                violation_error_code="max_points",
                violation_error_message=_("The maximum points lie above 0 and at most 5."),
            ),
        ]

    def __str__(self) -> str:
        return f"R{self.round} #{self.number} ({self.get_group_display()})"


class SolverScore(ConstraintErrorsOnFields, models.Model):
    problem = models.ForeignKey(Problem, on_delete=models.CASCADE, related_name="scores")
    solver = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="solving_scores")
    points = models.DecimalField(
        _("points"),
        max_digits=3,
        decimal_places=2,
        validators=[MinValueValidator(Decimal("0")), MaxValueValidator(Decimal("5.00"))],
    )
    time_used_minutes = models.PositiveSmallIntegerField(
        _("time used (minutes)"), null=True, blank=True
    )

    class Meta:
        ordering = ["problem", "solver"]
        constraints = [
            models.UniqueConstraint(
                fields=["problem", "solver"],
                name="score_one_per_problem",
                violation_error_code="solver",
                violation_error_message=_("This solver already has a score for this problem."),
            ),
            models.CheckConstraint(
                condition=Q(points__gte=0, points__lte=Decimal("5.00")),
                name="score_points_range",
                violation_error_code="points",
                violation_error_message=_("Points lie between 0 and 5."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.solver.full_name}: {self.points} on {self.problem}"

    def clean(self) -> None:
        check_one_federation(self)  # the database refuses it too (federation.scoping)


class Attestation(ConstraintErrorsOnFields, models.Model):
    """An official's recorded confirmation of a rule the data cannot prove (e.g. WFCC R3, R12)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="attestations")
    rule_id = models.CharField(_("rule"), max_length=30)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT)
    at = models.DateTimeField(auto_now_add=True)
    note = models.TextField(_("note"), blank=True)

    class Meta:
        ordering = ["event", "rule_id"]
        constraints = [
            models.UniqueConstraint(
                fields=["event", "rule_id"],
                name="attestation_once_per_rule",
                violation_error_code="rule_id",
                violation_error_message=_("This rule is already attested for this event."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.rule_id} attested by {self.by} on {self.at:%Y-%m-%d}"


class AcceptanceOverride(ConstraintErrorsOnFields, models.Model):
    """A rating officer's decision to accept an event although a rule fails, with the reason."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="overrides")
    rule_ids = models.JSONField(_("rules overridden"), default=list)
    reason = models.TextField(_("reason"))
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-at"]
        constraints = [
            models.CheckConstraint(
                condition=~Q(reason=""),
                name="override_has_reason",
                violation_error_code="reason",
                violation_error_message=_(
                    "Give the reason for accepting the event although the rule fails."
                ),
            ),
        ]

    def __str__(self) -> str:
        return f"Override by {self.by} on {self.at:%Y-%m-%d}"


class Placement(ConstraintErrorsOnFields, models.Model):
    """A player's official place in an event as its results file gives it (the EGF table's order),
    with the grade he declared there."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="placements")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="placements")
    place = models.PositiveSmallIntegerField(_("place"), validators=[MinValueValidator(1)])
    grade = models.CharField(_("grade declared"), max_length=3, blank=True)

    class Meta:
        ordering = ["event", "place"]
        constraints = [
            models.UniqueConstraint(
                fields=["event", "player"],
                name="placement_one_per_player",
                violation_error_code="player",
                violation_error_message=_("This player already has a place in this event."),
            ),
            models.UniqueConstraint(
                fields=["event", "place"],
                name="placement_one_per_place",
                violation_error_code="place",
                violation_error_message=_("Another player already has this place in this event."),
            ),
            models.CheckConstraint(
                condition=Q(place__gte=1),
                name="placement_place_positive",
                violation_error_code="place",
                violation_error_message=_("A place is 1 or more."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.event}: {self.place}. {self.player.full_name}"

    def clean(self) -> None:
        check_one_federation(self)  # the database refuses it too (federation.scoping)
