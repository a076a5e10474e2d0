"""Every edit of rating input is noticed (issue 12 item 6).

On the rated demo, each system's latest period has a correction draft. The tests enumerate every
column a run reads (captured from the SQL its runner sends), require each to be watched or
declared not input, then edit every watched field of an object the draft's run read and check
that the period is marked with that object and field, and that publication refuses the draft
when its input no longer matches the database, naming the edit.
"""

from __future__ import annotations

import re
from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.apps import apps
from django.db import IntegrityError, connection, transaction

from federation.models import Federation, Player
from federation.permissions import COMMAND_LINE
from ratings.models import InputEdit, ListStatus, RatingList, RatingPeriod
from ratings.services import input_watch, publication, runs
from ratings.services.input_watch import NOT_INPUT, WATCHED
from tests.ratings.conftest import seeded_and_rated_demo
from tournaments.models import (
    AcceptanceOverride,
    Attestation,
    Event,
    Game,
    SolverScore,
    Substitution,
    TeamMember,
)
from tournaments.selectors import RATEABLE_STATUSES
from tournaments.signals import results_written

SYSTEMS = ("egf", "iccf", "playchess", "wfcc")


@pytest.fixture(scope="module")
def drafts(django_db_setup, django_db_blocker):
    """The rated demo, and per system a correction draft of its latest period."""
    with seeded_and_rated_demo(django_db_blocker, players=80, seed=3):
        with django_db_blocker.unblock():
            found = {}
            for system in SYSTEMS:
                latest = (
                    RatingList.objects.filter(
                        federation__system=system, status=ListStatus.PUBLISHED
                    )
                    .order_by("-period__valid_from")
                    .first()
                )
                run = runs.run_now(
                    federation=latest.federation, period_code=latest.period.code, by=COMMAND_LINE
                )
                assert run.status == "succeeded", run.error
                found[system] = run.rating_list.pk
        yield found


pytestmark = pytest.mark.django_db


def _draft(drafts, system) -> RatingList:
    return RatingList.objects.select_related("run", "period", "federation").get(pk=drafts[system])


# --- what a run reads -----------------------------------------------------------------------------


def _columns():
    return {
        (m._meta.db_table, f.column): (m._meta.label, f.name)
        for m in apps.get_models()
        for f in m._meta.concrete_fields
    }


def _reads_of_every_period() -> set[tuple[str, str]]:
    columns, seen = _columns(), set()

    def capture(execute, sql, params, many, context):
        for table_column in re.findall(r'"(\w+)"\."(\w+)"', sql):
            if table_column in columns:
                seen.add(columns[table_column])
        return execute(sql, params, many, context)

    lists = list(
        RatingList.objects.filter(status__in=(ListStatus.PUBLISHED, ListStatus.DRAFT))
        .exclude(run__engine="import")
        .select_related("federation", "period")
    )
    with connection.execute_wrapper(capture):
        for rating_list in lists:
            runs.prepare_input(rating_list.federation, rating_list.period)
    return seen


def test_every_column_a_run_reads_is_watched_or_declared_not_input(drafts):
    watched = {(m._meta.label, name) for m, watch in WATCHED.items() for name in watch.fields}
    reads = _reads_of_every_period()
    assert ("tournaments.SolverScore", "points") in reads  # the capture sees the runners' reads
    assert ("federation.Player", "start_rating") in reads
    unaccounted = sorted(
        (label, name)
        for label, name in reads
        if name != "id"
        and (label, name) not in watched
        and f"{label}.{name}" not in NOT_INPUT
        and label not in NOT_INPUT
    )
    assert unaccounted == [], "read by a run, neither watched nor declared not input"


# --- every watched field --------------------------------------------------------------------------


def _events_read(rating_list: RatingList):
    codes = rating_list.run.report.get("events", [])
    return Event.objects.filter(federation=rating_list.federation, code__in=codes)


def _object_read(model, drafts):
    """(system, an object of that model the system's draft read) for the first system that has
    one."""
    for system in SYSTEMS:
        rating_list = _draft(drafts, system)
        events = _events_read(rating_list)
        path = WATCHED[model].event_path
        if model is Federation:
            return system, rating_list.federation
        if model is Player:
            game = Game.objects.filter(event__in=events).first()
            if game is None:
                continue
            return system, game.white
        query = model.objects.filter(**{f"{path}__in" if path else "pk__in": events})
        found = query.order_by("pk").first()
        if found is not None:
            return system, found
    raise AssertionError(f"the demo has no {model.__name__} in a rated period")


def _candidates(instance, field):
    value = getattr(instance, field.attname)
    if field.is_relation:
        model = field.related_model
        others = model.objects.exclude(pk=value)
        if model is Player and hasattr(instance, "problem_id"):
            # Every solver of the event has a score for each problem: a new solver of the same
            # federation takes this score over.
            federation_id = instance.problem.event.federation_id
            newcomer = Player.objects.create(
                federation_id=federation_id, federation_player_id="watch-new", surname="New"
            )
            return [newcomer.pk]
        elif hasattr(instance, "event_id") or model is Event:
            federation_id = (
                instance.federation_id
                if model is Federation
                else (
                    Event.objects.get(pk=instance.event_id).federation_id
                    if hasattr(instance, "event_id")
                    else None
                )
            )
            if model is Event and federation_id:
                others = others.filter(federation_id=federation_id, status__in=RATEABLE_STATUSES)
            if model is Player and federation_id:
                others = others.filter(federation_id=federation_id)
        return [o.pk for o in others.order_by("pk")[:300]]
    if field.choices:
        return [c for c, _label in field.flatchoices if c != value and c != ""]
    internal = field.get_internal_type()
    if internal == "BooleanField":
        return [not value]
    if internal == "DateField":
        base = value or date(2026, 1, 15)
        step = timedelta(days=-1 if "start" in field.name else 1)
        return [base + step, base - step]
    if internal == "DecimalField":
        return [d for d in (Decimal("1.5"), Decimal("2.5")) if d != value]
    if internal in ("PositiveSmallIntegerField", "PositiveIntegerField", "IntegerField"):
        base = 1500 if value is None else value
        return [base + 1, base + 100]
    if internal == "FloatField":
        return [1500.0 if value is None else value + 1]
    if internal == "JSONField":
        return [{**(value or {}), "engine": {**(value or {}).get("engine", {}), "watched": 1}}]
    if field.name == "grade":
        return [g for g in ("3d", "5k") if g != value]
    if field.name == "country":
        return [c for c in ("FR", "DE") if c != value]
    return [f"{value}x"[: field.max_length]]


# A new value of these fields needs a companion change (the model's constraints say so).
_COMPANIONS = {
    ("Problem", "original"): ("first_published_on", date(2020, 1, 1)),
    ("Problem", "event"): ("number", 99),  # the numbers of the other events are taken
    ("Player", "fide_rating"): ("fide_list_date", date(2026, 1, 1)),
}


# Fields whose change the database refuses outright (federation scoping, the system guard).
_GUARDED = {"federation", "system"}


def _edit(instance, field) -> object:
    companion = _COMPANIONS.get((type(instance).__name__, field.name))
    for candidate in _candidates(instance, field):
        try:
            with transaction.atomic():
                if companion:
                    setattr(instance, *companion)
                setattr(instance, field.attname, candidate)
                instance.save()
            return candidate
        except IntegrityError:
            instance.refresh_from_db()
    return None  # the database refuses every other value (its guards): nothing can change


WATCHED_FIELDS = [(m, name) for m, watch in WATCHED.items() for name in watch.fields]

# Moves the database refuses by design (federation.scoping, ratings.persistence.guards): a row that others
# of its federation refer to cannot change federation, nor a system with published lists.
REFUSED_BY_DESIGN = {("Event", "federation"), ("SolverScore", "solver"), ("Federation", "system")}


@pytest.mark.parametrize(
    ("model", "name"), WATCHED_FIELDS, ids=[f"{m.__name__}.{n}" for m, n in WATCHED_FIELDS]
)
def test_each_watched_edit_marks_the_period_and_publication_checks_it(drafts, model, name):
    if (model.__name__, name) in REFUSED_BY_DESIGN:
        pytest.skip("the database refuses this edit (tests/hardening enumerate those guards)")
    system, instance = _object_read(model, drafts)
    rating_list = _draft(drafts, system)
    assert not InputEdit.objects.filter(period=rating_list.period).exists()
    if _edit(instance, model._meta.get_field(name)) is None:
        # Refused by the database (e.g. moving an event to another federation): nothing changed.
        assert name in _GUARDED and not InputEdit.objects.exists()
        return
    period = RatingPeriod.objects.get(pk=rating_list.period_id)
    edit = InputEdit.objects.filter(period=period).latest("id")
    assert period.needs_rerun and name in edit.fields
    assert str(model._meta.verbose_name) in edit.subject
    assert name in edit.description and period.needs_rerun_reason
    if model is Federation and name == "system":
        with pytest.raises(runs.RunError, match="rating system"):
            publication.publish_list(list_id=rating_list.pk, by=COMMAND_LINE)
        return
    federation = Federation.objects.get(pk=rating_list.federation_id)
    digest_now = runs.canonical_digest(runs.prepare_input(federation, period)[1].engine_input)
    if digest_now == rating_list.run.input_digest:
        publication.publish_list(
            list_id=rating_list.pk, by=COMMAND_LINE
        )  # the edit did not reach the engine
        period.refresh_from_db()
        assert not period.needs_rerun
    else:
        with pytest.raises(runs.RunError) as refused:
            publication.publish_list(list_id=rating_list.pk, by=COMMAND_LINE)
        assert edit.description in str(refused.value)
        assert RatingList.objects.get(pk=rating_list.pk).status == ListStatus.DRAFT


# Edits that reach the engine: publication must refuse the draft, naming the edit.
def _points(drafts):
    score = SolverScore.objects.filter(problem__event__in=_events_read(_draft(drafts, "wfcc")))
    score = score.filter(points__gt=0).order_by("pk").first()
    score.points -= Decimal("0.5")
    score.save()
    return "wfcc", f"solver score {score.pk}", "points"


def _egf_class(drafts):
    event = _events_read(_draft(drafts, "egf")).first()
    event.rating_class = "C" if event.rating_class != "C" else "B"
    event.save()
    return "egf", f"event {event.code}", "rating_class"


def _game_moved(drafts):
    events = list(_events_read(_draft(drafts, "playchess")))
    game = Game.objects.filter(event=events[0]).order_by("pk").first()
    other = (
        Event.objects.filter(federation=events[0].federation, status__in=RATEABLE_STATUSES)
        .exclude(pk=events[0].pk)
        .order_by("-end")
        .first()
    )
    game.event = other
    game.save()
    return "playchess", f"game {game.pk}", "event"


def _game_deleted(drafts):
    game = Game.objects.filter(event__in=_events_read(_draft(drafts, "egf"))).first()
    pk = game.pk
    game.delete()
    return "egf", f"game {pk}", "deleted"


def _substitution(drafts):
    sub = Substitution.objects.filter(game__event__in=_events_read(_draft(drafts, "iccf"))).first()
    sub.side = "black" if sub.side == "white" else "white"
    sub.save()
    return "iccf", f"substitution {sub.pk}", "side"


def _grade(drafts):
    game = Game.objects.filter(event__in=_events_read(_draft(drafts, "egf"))).first()
    player = game.white
    player.grade = "9d" if player.grade != "9d" else "8d"
    player.save()
    return "egf", f"player {player}", "grade"


STALE_EDITS = [_points, _egf_class, _game_moved, _game_deleted, _substitution, _grade]


@pytest.mark.parametrize("make_edit", STALE_EDITS, ids=[f.__name__[1:] for f in STALE_EDITS])
def test_publication_refuses_a_draft_an_edit_made_stale(drafts, make_edit):
    system, subject, what = make_edit(drafts)
    rating_list = _draft(drafts, system)
    with pytest.raises(runs.RunError) as refused:
        publication.publish_list(list_id=rating_list.pk, by=COMMAND_LINE)
    message = str(refused.value)
    assert subject in message and what in message and rating_list.period.code in message
    period = RatingPeriod.objects.get(pk=rating_list.period_id)
    assert period.needs_rerun, "the flag stays until a run reads the new input"
    # A re-run reads the edit; its draft publishes and clears the flag.
    publication.discard_list(list_id=rating_list.pk, by=COMMAND_LINE)
    rerun = runs.run_now(
        federation=rating_list.federation, period_code=period.code, by=COMMAND_LINE
    )
    publication.publish_list(list_id=rerun.rating_list.pk, by=COMMAND_LINE)
    period.refresh_from_db()
    assert not period.needs_rerun and period.needs_rerun_reason == ""


def test_an_unrecorded_write_is_still_caught_at_publication(drafts):
    rating_list = _draft(drafts, "wfcc")
    SolverScore.objects.filter(problem__event__in=_events_read(rating_list)).update(
        points=Decimal("0.5")
    )  # a queryset update sends no signal
    with pytest.raises(runs.RunError, match="no recorded edit explains it"):
        publication.publish_list(list_id=rating_list.pk, by=COMMAND_LINE)


# --- what is read but is not input --------------------------------------------------------------


def _edit_everything_not_input(drafts):
    for system in SYSTEMS:
        rating_list = _draft(drafts, system)
        for event in _events_read(rating_list):
            event.name += " (renamed)"
            event.location = "elsewhere"
            event.save()
            user = rating_list.federation.officials.first().user
            Attestation.objects.create(event=event, rule_id="TEST", by=user, note="checked")
            AcceptanceOverride.objects.create(event=event, rule_ids=["X"], reason="ok", by=user)
            user.first_name = "Renamed"
            user.save()
        federation = rating_list.federation
        federation.name += " renamed"
        federation.code = f"{federation.code}-x"
        federation.save()
        for game in Game.objects.filter(event__in=_events_read(rating_list))[:5]:
            game.white.surname += "x"
            game.white.given_name = "Renamed"
            game.white.save()


def test_edits_of_what_is_not_input_leave_every_draft_publishable(drafts):
    _edit_everything_not_input(drafts)
    assert not InputEdit.objects.exists()
    for system in SYSTEMS:
        rating_list = _draft(drafts, system)
        assert publication.stale_reason(rating_list) is None
        publication.publish_list(list_id=rating_list.pk, by=COMMAND_LINE)


# --- every path -------------------------------------------------------------------------------


def test_an_admin_edit_is_noticed(drafts, client):
    from django.contrib.auth import get_user_model

    from tests.hardening.admin_forms import change_form_data

    rating_list = _draft(drafts, "wfcc")
    score = SolverScore.objects.filter(problem__event__in=_events_read(rating_list)).first()
    admin = get_user_model().objects.create_superuser("watch-admin", "a@example.org", "pw-12345")
    client.force_login(admin)
    url = f"/admin/tournaments/problem/{score.problem_id}/change/"
    data = change_form_data(client.get(url))
    key = next(k for k, v in data.items() if k.endswith("-id") and v == str(score.pk))
    data[key.replace("-id", "-points")] = "0.25" if score.points != Decimal("0.25") else "0.50"
    response = client.post(url, data)
    assert response.status_code == 302, response.content[:2000]
    edit = InputEdit.objects.get(period=rating_list.period)
    assert edit.fields == ["points"] and f"solver score {score.pk}" in edit.subject


def test_a_service_edit_is_noticed(drafts):
    from tournaments.services import record_game

    rating_list = _draft(drafts, "playchess")
    game = Game.objects.filter(event__in=_events_read(rating_list)).first()
    record_game(
        event=game.event,
        round=game.round,
        white=game.black,
        black=game.white,
        result="1-0",
        finished_on=game.finished_on,
        reported_on=game.reported_on,
    )
    assert InputEdit.objects.filter(period=rating_list.period, description__contains="added")


def test_a_bulk_import_is_noticed_through_its_signal(drafts):
    rating_list = _draft(drafts, "egf")
    event = _events_read(rating_list).first()
    results_written.send(Game, event_ids=[event.pk], description="3 games imported from t.h9")
    edit = InputEdit.objects.get(period=rating_list.period)
    assert edit.description == "3 games imported from t.h9" and event.code in edit.subject


def test_a_team_member_change_is_noticed(drafts):
    member = TeamMember.objects.filter(team__event__in=_events_read(_draft(drafts, "iccf"))).first()
    member.is_substitute = not member.is_substitute
    member.save()
    assert InputEdit.objects.filter(fields=["is_substitute"]).exists()


def test_an_edit_of_an_event_nobody_rated_marks_nothing(drafts):
    event = _events_read(_draft(drafts, "egf")).first()
    Event.objects.filter(pk=event.pk).update(status="draft")  # no longer rateable
    game = Game.objects.filter(event=event).first()
    game.result = "0-1" if game.result != "0-1" else "1-0"
    game.save()
    game.delete()
    assert not InputEdit.objects.exists()


def test_publishing_an_earlier_period_marks_the_later_ones(drafts):
    rating_list = _draft(drafts, "egf")
    earlier = (
        RatingList.objects.filter(
            federation=rating_list.federation,
            status=ListStatus.PUBLISHED,
            period__valid_from__lt=rating_list.period.valid_from,
        )
        .order_by("-period__valid_from")
        .select_related("period")[2]
    )
    later = set(
        RatingList.objects.filter(
            federation=rating_list.federation,
            status__in=(ListStatus.DRAFT, ListStatus.PUBLISHED),
            period__valid_from__gt=earlier.period.valid_from,
        ).values_list("period_id", flat=True)
    )
    assert input_watch.notice_published(earlier) == later and len(later) == 3
    edit = InputEdit.objects.get(period=rating_list.period)
    assert f"list {earlier.pk} of {earlier.period.code} was published" in edit.description
