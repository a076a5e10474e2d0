"""One federation per row: every row that joins a player to an event (or to a list or run) must
have all its sides in the same federation. The registry below is the one home of that rule:
the database triggers (federation.triggers) and the model validation (check_one_federation)
are both generated from it, and tests/hardening/test_federation_scoping.py checks that every
model with a foreign key to Player is registered.

Each side is (field, attribute path from the row to a federation id, SQL over NEW for the same).
The first side is the row's owner; every other side that is set must equal it.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import ValidationError

from federation.triggers import BULK_WRITTEN, Guard, any_of


@dataclass(frozen=True)
class Side:
    field: str  # the model field a mismatch is reported on
    path: tuple[str, ...]  # attributes from the row to a federation id
    sql: str  # the same federation id, over NEW


@dataclass(frozen=True)
class ScopedRow:
    model: str  # "tournaments.Game"
    table: str
    sides: tuple[Side, ...]


def _player(column: str, field: str) -> Side:
    return Side(
        field,
        (field, "federation_id"),
        f"(SELECT federation_id FROM federation_player WHERE id = NEW.{column})",
    )


def _event_of(column: str, field: str) -> Side:
    return Side(
        field,
        (field, "federation_id"),
        f"(SELECT federation_id FROM tournaments_event WHERE id = NEW.{column})",
    )


def _via(field: str, table: str, column: str, hop: str) -> Side:
    """The federation of the event reached through ``table`` (a team, game or problem)."""
    return Side(
        field,
        (field, "event", "federation_id"),
        f"(SELECT e.federation_id FROM {table} x JOIN tournaments_event e ON e.id = x.{hop} "
        f"WHERE x.id = NEW.{column})",
    )


def _own(table_of: str, column: str, field: str) -> Side:
    return Side(
        field,
        (field, "federation_id"),
        f"(SELECT federation_id FROM {table_of} WHERE id = NEW.{column})",
    )


SCOPED_ROWS: tuple[ScopedRow, ...] = (
    ScopedRow(
        "tournaments.Game",
        "tournaments_game",
        (
            _event_of("event_id", "event"),
            _player("white_id", "white"),
            _player("black_id", "black"),
        ),
    ),
    ScopedRow(
        "tournaments.TeamMember",
        "tournaments_teammember",
        (_via("team", "tournaments_team", "team_id", "event_id"), _player("player_id", "player")),
    ),
    ScopedRow(
        "tournaments.Substitution",
        "tournaments_substitution",
        (
            _via("game", "tournaments_game", "game_id", "event_id"),
            _player("replaces_id", "replaces"),
        ),
    ),
    ScopedRow(
        "tournaments.SolverScore",
        "tournaments_solverscore",
        (
            _via("problem", "tournaments_problem", "problem_id", "event_id"),
            _player("solver_id", "solver"),
        ),
    ),
    ScopedRow(
        "tournaments.Placement",
        "tournaments_placement",
        (_event_of("event_id", "event"), _player("player_id", "player")),
    ),
    ScopedRow(
        "ratings.RatingEntry",
        "ratings_ratingentry",
        (
            _own("ratings_ratinglist", "rating_list_id", "rating_list"),
            _player("player_id", "player"),
        ),
    ),
    ScopedRow(
        "ratings.EventRating",
        "ratings_eventrating",
        (
            _own("ratings_ratingrun", "run_id", "run"),
            _event_of("event_id", "event"),
            _player("player_id", "player"),
        ),
    ),
    ScopedRow(
        "ratings.SolvingNorm",
        "ratings_solvingnorm",
        (
            _own("ratings_ratingrun", "run_id", "run"),
            _event_of("event_id", "event"),
            _player("player_id", "player"),
        ),
    ),
    ScopedRow(
        "ratings.LiveRating",
        "ratings_liverating",
        (
            _own("ratings_liverun", "live_run_id", "live_run"),
            _player("player_id", "player"),
        ),
    ),
    ScopedRow(
        "ratings.LiveEventRating",
        "ratings_liveeventrating",
        (
            _own("ratings_liverun", "live_run_id", "live_run"),
            _event_of("event_id", "event"),
            _player("player_id", "player"),
        ),
    ),
    ScopedRow(
        "ratings.RatingRun",
        "ratings_ratingrun",
        (
            Side("federation", ("federation_id",), "NEW.federation_id"),
            _own("ratings_ratingperiod", "period_id", "period"),
        ),
    ),
    ScopedRow(
        "ratings.RatingList",
        "ratings_ratinglist",
        (
            Side("federation", ("federation_id",), "NEW.federation_id"),
            _own("ratings_ratingperiod", "period_id", "period"),
            _own("ratings_ratingrun", "run_id", "run"),
        ),
    ),
)

SCOPE_MESSAGE = "a row must not join rows of different federations"


def _terms(row: ScopedRow) -> tuple[str, ...]:
    """One alternative per side: that side is set and of another federation than the owner.
    An unset side (NULL) needs no test of its own: its comparison is NULL, which no trigger
    takes for true, and each lookup costs (a run's 20,000 (player, run) pairs, one each)."""
    owner = row.sides[0].sql
    return tuple(f"({side.sql}) <> ({owner})" for side in row.sides[1:])


def scope_guards(app_label: str) -> list[Guard]:
    """INSERT and UPDATE triggers for the registered tables of one app."""
    guards = []
    for row in SCOPED_ROWS:
        if row.model.split(".")[0] != app_label:
            continue
        terms = _terms(row)
        for operation in ("INSERT", "UPDATE"):
            guards.append(
                Guard(
                    f"{row.table}_one_federation_{operation.lower()}",
                    row.table,
                    operation,
                    any_of(terms),
                    SCOPE_MESSAGE,
                    # four lookups a row: a run COPYs 400,000 event ratings
                    per_statement=operation == "INSERT" and row.table in BULK_WRITTEN,
                    terms=terms,
                )
            )
    return guards


# The rows the sides above are read from must not move to another federation under them.
# Tables holding a foreign key to the parent, per parent; the parent's federation (or event)
# may change only while none refers to it.
REFERRERS = {
    "federation_player": (
        ("tournaments_game", "white_id"),
        ("tournaments_game", "black_id"),
        ("tournaments_teammember", "player_id"),
        ("tournaments_substitution", "replaces_id"),
        ("tournaments_solverscore", "solver_id"),
        ("tournaments_placement", "player_id"),
        ("ratings_ratingentry", "player_id"),
        ("ratings_eventrating", "player_id"),
        ("ratings_solvingnorm", "player_id"),
        ("ratings_liverating", "player_id"),
        ("ratings_liveeventrating", "player_id"),
    ),
    "tournaments_event": (
        ("tournaments_game", "event_id"),
        ("tournaments_team", "event_id"),
        ("tournaments_problem", "event_id"),
        ("tournaments_placement", "event_id"),
        (
            "ratings_ratedevent",
            "event_id",
        ),  # for the event ratings: ratings.persistence.rated_events
        ("ratings_solvingnorm", "event_id"),
        ("ratings_liveeventrating", "event_id"),
    ),
    "ratings_ratingperiod": (
        ("ratings_ratingrun", "period_id"),
        ("ratings_ratinglist", "period_id"),
    ),
}
# Rows that reach an event through a parent whose event could be switched.
REPARENTED = {
    "tournaments_team": ("tournaments_teammember", "team_id"),
    "tournaments_problem": ("tournaments_solverscore", "problem_id"),
}
MOVE_MESSAGE = "rows of this federation refer to it: its federation cannot change"


def move_guards() -> list[Guard]:
    guards = []
    for table, referrers in REFERRERS.items():
        used = " OR ".join(
            f"EXISTS (SELECT 1 FROM {child} WHERE {column} = OLD.id)" for child, column in referrers
        )
        guards.append(
            Guard(
                f"{table}_keeps_federation",
                table,
                "UPDATE",
                f"NEW.federation_id <> OLD.federation_id AND ({used})",
                MOVE_MESSAGE,
            )
        )
    for table, (child, column) in REPARENTED.items():
        guards.append(
            Guard(
                f"{table}_keeps_federation",
                table,
                "UPDATE",
                "(SELECT federation_id FROM tournaments_event WHERE id = NEW.event_id) <> "
                "(SELECT federation_id FROM tournaments_event WHERE id = OLD.event_id) AND "
                f"EXISTS (SELECT 1 FROM {child} WHERE {column} = OLD.id)",
                MOVE_MESSAGE,
            )
        )
    return guards


def _follow(obj, path: tuple[str, ...]):
    for name in path:
        if obj is None:
            return None
        if name.endswith("_id") or not hasattr(type(obj), f"{name}_id"):
            obj = getattr(obj, name, None)
        else:  # a foreign key: read it only when set (an unsaved row raises otherwise)
            obj = getattr(obj, name) if getattr(obj, f"{name}_id") is not None else None
    return obj


def scoped_row(model) -> ScopedRow | None:
    label = model._meta.label
    return next((row for row in SCOPED_ROWS if row.model == label), None)


def check_one_federation(obj) -> None:
    """ValidationError, on the field of each side, if a side is of another federation than the
    row's owner (the first side). Sides not yet set are skipped (required-field errors are the
    form's)."""
    row = scoped_row(type(obj))
    if row is None:
        return
    owner_side, *others = row.sides
    owner = _follow(obj, owner_side.path)
    if owner is None:
        return
    from federation.models import Federation

    errors = {}
    for side in others:
        theirs = _follow(obj, side.path)
        if theirs is not None and theirs != owner:
            codes = dict(
                Federation.objects.filter(pk__in=[owner, theirs]).values_list("pk", "code")
            )
            errors[side.field] = ValidationError(
                "%(value)s belongs to federation %(theirs)s, not to %(ours)s.",
                params={
                    "value": _follow(obj, (side.field,)),
                    "theirs": codes.get(theirs, theirs),
                    "ours": codes.get(owner, owner),
                },
                code="wrong_federation",
            )
    if errors:
        raise ValidationError(errors)
