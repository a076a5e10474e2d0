"""Every edit of rating input is noticed: the period whose run read it is marked for a re-run.

``WATCHED`` names, per model, the fields a rating run reads as engine input and the lookup from
the model to its event. A receiver remembers the stored row before a save or delete; afterwards
it compares, and when a watched field of an object of an accepted or rated event changed, every
period with a draft or published list whose run read that event (or whose window holds it) gets
``needs_rerun`` and an ``InputEdit`` naming the object and the fields, old and new values.
Any path counts: the admin, the services and imports save models; bulk writes, which send no
model signals, send ``tournaments.signals.results_written`` instead. Publication is the check of
last resort: it compares digests (``services.stale_reason``), so even an unrecorded write cannot
slip into a published list.

``NOT_INPUT`` names what a run reads without it entering the engine input, and why;
tests/ratings/services/test_input_watch.py proves that every column a run reads is in one of the two, that
every watched edit marks, and that every unwatched one leaves the input digest unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any, NamedTuple

from django.db.models import Model, Q
from django.db.models.signals import post_delete, post_save, pre_delete, pre_save
from django.utils import timezone

from federation.models import Federation, Player
from ratings.models import (
    ACTIVE_RUN_STATUSES,
    InputEdit,
    ListStatus,
    RatingList,
    RatingPeriod,
    RatingRun,
)
from tournaments import signals as tournament_signals
from tournaments.models import (
    Event,
    Game,
    Problem,
    SolverScore,
    Substitution,
    TeamMember,
)
from tournaments.selectors import RATEABLE_STATUSES


@dataclass(frozen=True)
class Watch:
    fields: tuple[str, ...]
    event_path: str | None  # lookup from the model to its Event; "" for Event; None: see _events_of


WATCHED: dict[type[Model], Watch] = {
    Event: Watch(
        (
            "federation",
            "code",
            "kind",
            "status",
            "start",
            "end",
            "rating_class",
            "kt",
            "multi_location",
            "championship",
            "solving_rules",
            "rounds",
            "days",
            "announced_on",
            "results_reported_on",
            "documentation_sent_on",
            "fairy_announced_on",
            "transmission",
            "reflection_days",
            "reflection_moves",
            "basic_time_minutes",
            "time_system",
            "overtime_seconds",
            "overtime_moves",
            "fischer_bonus_seconds",
            "handicap_reduction",
            "komi",
        ),
        "",
    ),
    Game: Watch(
        (
            "event",
            "round",
            "white",
            "black",
            "result",
            "handicap",
            "finished_on",
            "reported_on",
        ),
        "event",
    ),
    Substitution: Watch(("game", "side", "replaces"), "game__event"),
    # Not read by the runner today, but who is a substitute decides ICCF rule 6 (the brief's list).
    TeamMember: Watch(("team", "player", "board", "is_substitute"), "team__event"),
    Problem: Watch(
        (
            "event",
            "round",
            "number",
            "group",
            "original",
            "first_published_on",
            "fairy_elements",
            "fairy_elements_announced_on",
            "max_points",
        ),
        "event",
    ),
    SolverScore: Watch(("problem", "solver", "points", "time_used_minutes"), "problem__event"),
    Player: Watch(("grade", "fide_rating", "fide_id", "start_rating", "country"), None),
    Federation: Watch(("system", "params"), None),
}

NOT_INPUT: dict[str, str] = {
    "tournaments.Event.name": "shown in the run's report of left-out events only",
    "tournaments.Event.location": "read with the event row, used by no engine",
    "tournaments.Event.created_at": "bookkeeping",
    "tournaments.Event.updated_at": "bookkeeping",
    "federation.Player.surname": "names are read for acceptability messages, not rated",
    "federation.Player.given_name": "names are read for acceptability messages, not rated",
    "federation.Player.federation": "the run's scope, not input: the players it reads are its "
    "games' (a player other rows refer to cannot change federation: federation.scoping)",
    "federation.Federation.code": "named in the run's report only",
    "federation.Federation.name": "named in the run's report only",
    # Acceptance is decided once (tournaments.services.accept_event) and recorded as the event's
    # status, which is watched; attestations and overrides only explain why an event is left out.
    "tournaments.Attestation": "explains why an event is left out; its status is watched",
    "tournaments.AcceptanceOverride": "explains why an event is left out; its status is watched",
    "auth.User": "who attested or overrode, named in the report of left-out events",
    # The runs' own records: a published list never changes (triggers); publishing a list makes
    # the later periods stale (notice_published), which is how they enter another run's input.
    "ratings.RatingList": "published lists are immutable; publication marks later periods",
    "ratings.RatingEntry": "published lists are immutable; publication marks later periods",
    "ratings.RatingPeriod": "the period itself",
    "ratings.SolvingNorm": "norms of published runs are immutable; publication marks",
    # ICCF rule 2.1a: a FIDE list is imported whole under its own date and never edited; a draft
    # computed before a list arrived is caught by publication's digest comparison.
    "federation.FideList": "imported whole under its date, never edited; publication compares",
    "federation.FideRating": "imported whole with its list, never edited; publication compares",
}


class EventKey(NamedTuple):
    id: int
    federation_id: int
    code: str
    start: date
    end: date
    status: str


_KEY_FIELDS = EventKey._fields
_EVENT_ATTNAMES = ("federation_id", "code", "start", "end", "status")
_STATE = "_input_watch_before"


def _attnames(model: type[Model]) -> list[str]:
    return [model._meta.get_field(name).attname for name in WATCHED[model].fields]


def _event_keys(ids) -> list[EventKey]:
    ids = [i for i in ids if i is not None]
    if not ids:
        return []
    return [EventKey(*row) for row in Event.objects.filter(pk__in=ids).values_list(*_KEY_FIELDS)]


def _stored(model: type[Model], pk) -> dict | None:
    """The stored row's watched values and its event, before the save or delete."""
    if pk is None:
        return None
    watch = WATCHED[model]
    extra = {}
    if watch.event_path:
        extra = {f"event__{f}": f"{watch.event_path}__{f}" for f in _KEY_FIELDS}
    names = _attnames(model)
    lookups = names + list(extra.values())
    row = model._default_manager.filter(pk=pk).values_list(*lookups).first()
    if row is None:
        return None
    values = dict(zip(names, row[: len(names)], strict=True))
    if watch.event_path:
        key = row[len(names) :]
        values["__event"] = EventKey(*key) if key[0] is not None else None
    return values


def _remember(sender, instance, raw=False, **kwargs):
    if raw or sender not in WATCHED:
        return
    setattr(instance, _STATE, _stored(sender, instance.pk))


def _current(model: type[Model], instance) -> dict:
    return {name: getattr(instance, name) for name in _attnames(model)}


def _saved(sender, instance, created=False, raw=False, **kwargs):
    if raw or sender not in WATCHED:
        return
    before = instance.__dict__.pop(_STATE, None)
    after = _current(sender, instance)
    if before is None:
        changes = {name: (None, value) for name, value in after.items()}
        verb = "added"
    else:
        changes = {n: (before[n], v) for n, v in after.items() if before[n] != v}
        verb = "changed"
    if not changes:
        return
    _notice(sender, instance, before, changes, verb)


def _deleted(sender, instance, **kwargs):
    if sender not in WATCHED:
        return
    before = instance.__dict__.pop(_STATE, None)
    if before is None:
        return
    changes = {n: (v, None) for n, v in before.items() if not n.startswith("__")}
    _notice(sender, instance, before, changes, "deleted")


def _events_of(model, instance, before: dict | None) -> tuple[list[EventKey], set[int]]:
    """(events the object belongs to before and after, federations wholly concerned)."""
    if model is Federation:
        return [], {instance.pk}
    if model is Player:
        return _player_events(instance.pk), set()
    if model is Event:
        keys = [EventKey(*(getattr(instance, f) for f in _KEY_FIELDS))]
        if before is not None:
            keys.append(EventKey(instance.pk, *(before[f] for f in _EVENT_ATTNAMES)))
        return keys, set()
    keys = [before["__event"]] if before and before.get("__event") else []
    path = WATCHED[model].event_path
    event_id = model._default_manager.filter(pk=instance.pk).values_list(path, flat=True).first()
    if event_id is not None and (not keys or keys[0].id != event_id):
        keys += _event_keys([event_id])  # new, or moved to another event
    return keys, set()


def _player_events(player_id: int) -> list[EventKey]:
    played = (
        Q(games__white_id=player_id)
        | Q(games__black_id=player_id)
        | Q(problems__scores__solver_id=player_id)
        | Q(teams__members__player_id=player_id)
        | Q(games__substitutions__replaces_id=player_id)
    )
    rows = (
        Event.objects.filter(played, status__in=RATEABLE_STATUSES)
        .values_list(*_KEY_FIELDS)
        .distinct()
    )
    return [EventKey(*row) for row in rows]


def _subject(model, instance, keys: list[EventKey]) -> str:
    name = model._meta.verbose_name
    if model is Event:
        return f"event {instance.code}"
    if model in (Player, Federation):
        return f"{name} {instance}"
    where = keys[0].code if keys else "?"
    return f"{name} {instance.pk} of {where}"


def _show(model, attname: str, value: Any) -> str:
    if value is None or value == "":
        return "—"
    field = next(f for f in model._meta.concrete_fields if f.attname == attname)
    if field.is_relation:
        return f"{field.related_model._meta.verbose_name} {value}"
    return str(value)


def _notice(model, instance, before, changes: dict, verb: str) -> None:
    if verb == "added" and model in (Player, Federation):
        return  # a new player has played nothing yet; a new federation has no lists
    keys, federations = _events_of(model, instance, before)
    keys = [k for k in keys if k.status in RATEABLE_STATUSES]
    if not keys and not federations:
        return
    subject = _subject(model, instance, keys)
    fields = [
        next(f.name for f in model._meta.concrete_fields if f.attname == attname)
        for attname in changes
    ]
    if verb == "changed":
        detail = "; ".join(
            f"{name}: {_show(model, attname, old)} → {_show(model, attname, new)}"
            for name, (attname, (old, new)) in zip(fields, changes.items(), strict=True)
        )
        description = f"{subject}: {detail}"
    else:
        description = f"{subject} {verb}"
    record(keys, federations, subject=subject, fields=fields, description=description)


def periods_reading(keys: list[EventKey], federations: set[int] = frozenset()) -> set[int]:
    """Periods with a draft or published list (or a run under way) whose run read one of these
    events (rated it or left it out) or whose window holds it; every such period of the given
    federations."""
    wanted = {k.federation_id for k in keys} | set(federations)
    if not wanted:
        return set()
    rows = RatingList.objects.filter(
        federation_id__in=wanted, status__in=(ListStatus.DRAFT, ListStatus.PUBLISHED)
    ).values_list(
        "federation_id",
        "period_id",
        "period__starts_on",
        "period__ends_on",
        "run__report",
        "run__excluded_events",
    )
    # A run under way has no report yet: the window tells whether it reads the event.
    active = RatingRun.objects.filter(
        federation_id__in=wanted, status__in=ACTIVE_RUN_STATUSES
    ).values_list("federation_id", "period_id", "period__starts_on", "period__ends_on")
    rows = [*rows, *((*row, {}, []) for row in active)]
    found = set()
    for federation_id, period_id, starts_on, ends_on, report, excluded in rows:
        if federation_id in federations:
            found.add(period_id)
            continue
        read = set((report or {}).get("events", [])) | {
            row.get("event") for row in excluded or [] if isinstance(row, dict)
        }
        for key in keys:
            if key.federation_id == federation_id and (
                key.code in read or (key.start <= ends_on and key.end >= starts_on)
            ):
                found.add(period_id)
    return found


def record(
    keys: list[EventKey],
    federations: set[int] = frozenset(),
    *,
    subject: str,
    fields: list[str],
    description: str,
) -> set[int]:
    """Mark the periods that read these events (or every current period of these federations)."""
    period_ids = periods_reading(keys, federations)
    _mark(period_ids, subject=subject, fields=fields, description=description)
    return period_ids


def _mark(period_ids: set[int], *, subject: str, fields: list[str], description: str) -> None:
    if not period_ids:
        return
    now = timezone.now()
    InputEdit.objects.bulk_create(
        InputEdit(
            period_id=pid,
            at=now,
            subject=subject[:200],
            fields=fields,
            description=description[:2000],
        )
        for pid in sorted(period_ids)
    )
    RatingPeriod.objects.filter(id__in=period_ids).update(
        needs_rerun=True, needs_rerun_reason=description[:500]
    )


def notice_published(rating_list: RatingList) -> set[int]:
    """A list was published: every later period with a current list continued from an older one."""
    later = set(
        RatingList.objects.filter(
            federation_id=rating_list.federation_id,
            status__in=(ListStatus.DRAFT, ListStatus.PUBLISHED),
            period__valid_from__gt=rating_list.period.valid_from,
        ).values_list("period_id", flat=True)
    )
    _mark(
        later,
        subject=f"list {rating_list.pk} of {rating_list.period.code}",
        fields=["ratings"],
        description=f"list {rating_list.pk} of {rating_list.period.code} was published: "
        "the ratings this period starts from changed",
    )
    return later


def _written_in_bulk(sender, event_ids=(), description="", **kwargs):
    keys = [k for k in _event_keys(event_ids) if k.status in RATEABLE_STATUSES]
    if keys:
        record(
            keys,
            subject=f"{sender._meta.verbose_name_plural} of {', '.join(k.code for k in keys)}",
            fields=["*"],
            description=description,
        )


def connect() -> None:
    for model in WATCHED:
        uid = f"input_watch:{model._meta.label}"
        pre_save.connect(_remember, sender=model, dispatch_uid=uid)
        pre_delete.connect(_remember, sender=model, dispatch_uid=uid)
        post_save.connect(_saved, sender=model, dispatch_uid=uid)
        post_delete.connect(_deleted, sender=model, dispatch_uid=uid)
    tournament_signals.results_written.connect(_written_in_bulk, dispatch_uid="input_watch:bulk")
