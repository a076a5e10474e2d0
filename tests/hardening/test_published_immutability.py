"""A published list and every row it is built from stay as published, whatever the path: the
ORM (save/delete refuse), raw SQL (row triggers on PostgreSQL and SQLite: UPDATE of the old and
the new row, INSERT, DELETE) and TRUNCATE (a statement trigger on PostgreSQL).

The class is enumerated twice:
- the tables reachable from RatingList (following foreign keys both ways, not through the
  models that are editable by design) are exactly the guarded ones, and every column of each is
  listed as frozen or as allowed to change, with the reason (ratings.persistence.guards.FROZEN_COLUMNS);
- for every guarded table, every frozen column is changed by a raw UPDATE and must be refused,
  every row is deleted and must be refused, a row is inserted into the published list or run
  and must be refused, a draft's row is moved into the published list and must be refused.
"""

from __future__ import annotations

from datetime import date
from functools import partial

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import DatabaseError, IntegrityError, connection, models, transaction

from federation.models import Federation, Player
from federation.references import MISSING_MESSAGE, REFERRED_MESSAGE
from federation.scoping import MOVE_MESSAGE, SCOPE_MESSAGE
from ratings.models import (
    EventRating,
    ImmutableListError,
    InputEdit,
    LiveRun,
    RatedEvent,
    RatingEntry,
    RatingList,
    RatingPeriod,
    RatingRun,
    RunRecord,
    SolvingNorm,
)
from ratings.persistence.guards import CHILDREN, FROZEN_COLUMNS, MESSAGE, TRUNCATE_GUARDED
from tests.factories import make_world
from tests.hardening.model_keys import key_values, where_key
from tests.hardening.raw_sql import assert_refused
from tournaments.models import Event

pytestmark = pytest.mark.django_db

# Reachable from a published list, but editable by design (each with the reason).
EDITABLE_BY_DESIGN = {
    Player: "a name or club correction shows on every list; ratings and ranks stay",
    Event: "results edited after rating mark the period for a re-run (the list stays)",
    get_user_model(): "who published or requested; the link is set to NULL when deleted",
    InputEdit: "the log of later edits of a period's input: rows are added after publication",
    LiveRun: "unofficial and never a list: a newer live run replaces it (it only names its base)",
}
# Reachable, and written by the database alone (its own guard refuses every other write:
# tests/hardening/test_rated_events.py), following rows that are guarded here.
KEPT_BY_THE_DATABASE = {
    RatedEvent: "the events a run rated, kept from its event ratings (ratings.persistence.rated_events)",
}


def _reachable() -> set[type[models.Model]]:
    seen, todo = set(), [RatingList]
    stop = set(EDITABLE_BY_DESIGN) | {Federation}
    while todo:
        model = todo.pop()
        if model in seen:
            continue
        seen.add(model)
        if model in stop:
            continue
        for field in model._meta.get_fields():
            if field.is_relation and field.related_model is not None:
                todo.append(field.related_model)
    return seen - set(EDITABLE_BY_DESIGN) - set(KEPT_BY_THE_DATABASE)


def test_every_table_reachable_from_a_published_list_is_guarded():
    guarded = set(FROZEN_COLUMNS) | set(CHILDREN)
    reachable = {m._meta.db_table for m in _reachable()}
    assert reachable == guarded, (reachable - guarded, guarded - reachable)
    assert set(TRUNCATE_GUARDED) == guarded
    assert len(guarded) == 8


@pytest.mark.parametrize("table", sorted(FROZEN_COLUMNS))
def test_every_column_is_frozen_or_allowed_with_a_reason(table):
    model = next(m for m in apps.get_models() if m._meta.db_table == table)
    columns = {f.column for f in model._meta.concrete_fields}
    fixed, allowed = FROZEN_COLUMNS[table]
    assert columns == set(fixed) | set(allowed), columns ^ (set(fixed) | set(allowed))
    assert all(reason.strip() for reason in allowed.values())


@pytest.fixture
def published(settings):
    """A federation whose list (entry, run, event rating, norm) is published, and a draft."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    world = make_world("aa")
    world["ratings.RunRecord"] = RunRecord.objects.create(
        run=world["ratings.RatingRun"],
        engine_input=b"in",
        engine_output=b"out",
        input_labels=b"labels",
        input_size=2,
        output_size=3,
    )
    rating_list = world["ratings.RatingList"]
    RatingList.objects.filter(pk=rating_list.pk).update(
        status="published", published_by=world["user"]
    )
    period = RatingPeriod.objects.create(
        federation=world["federation.Federation"],
        code="2026Q3",
        starts_on=date(2026, 3, 1),
        ends_on=date(2026, 5, 31),
        list_published_on=date(2026, 6, 15),
        valid_from=date(2026, 7, 1),
    )
    run = RatingRun.objects.create(federation=period.federation, period=period, status="succeeded")
    draft = RatingList.objects.create(federation=period.federation, period=period, run=run)
    world["draft_entry"] = RatingEntry.objects.create(
        rating_list=draft, player=world["players"][1], rating=1500, published_rating=1500
    )
    world["draft_run"] = run
    world["draft_rating"] = EventRating.objects.create(
        run=run, event=world["tournaments.Event"], player=world["players"][1], after=1500
    )
    return world


def _changed(field: models.Field, column: str) -> str:
    """SQL for a value of the column different from every stored one."""
    if isinstance(field, models.BooleanField):
        return f"NOT {column}"
    if isinstance(field, models.DateTimeField):
        return "'2001-02-03 04:05:06+00'" if connection.vendor == "postgresql" else "'2001-02-03'"
    if isinstance(field, models.DateField):
        return "'2001-02-03'"
    if isinstance(field, models.BinaryField):
        return "decode('00', 'hex')" if connection.vendor == "postgresql" else "X'00'"
    if isinstance(field, models.JSONField):
        return "'{\"tampered\": 1}'"
    if isinstance(field, models.CharField | models.TextField):  # one character: fits any length
        return f"CASE WHEN {column} = 'Z' THEN 'Y' ELSE 'Z' END"
    if isinstance(field, models.AutoField | models.BigAutoField):
        return f"{column} + 1000000"
    return f"COALESCE({column}, 0) + 1"


# A federation column may be refused by the scoping guard first, a key moved to no row or a
# truncation of a table other rows refer to by the references guards (all hold).
_refused = partial(
    assert_refused, (MESSAGE, SCOPE_MESSAGE, MOVE_MESSAGE, MISSING_MESSAGE, REFERRED_MESSAGE)
)


def _rows(world) -> dict[str, models.Model]:
    return {
        "ratings_ratinglist": world["ratings.RatingList"],
        "ratings_ratingentry": world["ratings.RatingEntry"],
        "ratings_ratingrun": world["ratings.RatingRun"],
        "ratings_eventrating": world["ratings.EventRating"],
        "ratings_solvingnorm": world["ratings.SolvingNorm"],
        "ratings_runrecord": world["ratings.RunRecord"],
        "ratings_ratingperiod": world["ratings.RatingPeriod"],
        "federation_federation": world["federation.Federation"],
    }


@pytest.mark.parametrize("table", sorted(set(FROZEN_COLUMNS) | set(CHILDREN)))
def test_raw_sql_cannot_change_a_frozen_column_or_delete(published, table):
    row = _rows(published)[table]
    model = type(row)
    fixed = FROZEN_COLUMNS[table][0] if table in FROZEN_COLUMNS else None
    tried = 0
    for field in model._meta.concrete_fields:
        if fixed is not None and field.column not in fixed:
            continue
        _refused(
            f"UPDATE {table} SET {field.column} = {_changed(field, field.column)} "
            f"WHERE {where_key(model)}",
            key_values(row),
        )
        tried += 1
    if table != "federation_federation":  # a federation is PROTECTed by its rows anyway
        _refused(f"DELETE FROM {table} WHERE {where_key(model)}", key_values(row))
        tried += 1
    assert tried >= (1 if table == "federation_federation" else 3)


def test_allowed_changes_still_work(published):
    rating_list = published["ratings.RatingList"]
    RatingList.objects.filter(pk=rating_list.pk).update(status="superseded")
    RatingList.objects.filter(pk=rating_list.pk).update(published_by=None)
    RatingPeriod.objects.filter(pk=rating_list.period_id).update(
        needs_rerun=True, needs_rerun_reason="a result changed"
    )
    Federation.objects.filter(pk=rating_list.federation_id).update(name="Renamed")
    _refused("UPDATE ratings_ratinglist SET status = 'published' WHERE id = %s", [rating_list.pk])
    _refused("UPDATE ratings_ratinglist SET status = 'draft' WHERE id = %s", [rating_list.pk])


@pytest.mark.parametrize("table", sorted(CHILDREN))
def test_no_row_can_be_added_to_a_published_list_or_run(published, table):
    row = _rows(published)[table]
    model = type(row)
    values = {f.attname: getattr(row, f.attname) for f in model._meta.concrete_fields}
    values.pop("id", None)
    if table in ("ratings_ratingentry", "ratings_eventrating"):
        # a row valid but for the list's state (these guards run after the statement's rows,
        # so a duplicate would meet its unique index first)
        values["player_id"] = published["players"][2].pk
    with pytest.raises((IntegrityError, DatabaseError)) as refused, transaction.atomic():
        model.objects.bulk_create([model(**values)])
    assert MESSAGE in str(refused.value)


def test_a_draft_row_cannot_be_moved_into_a_published_list_or_run(published):
    """The audit's UPDATE ... SET rating_list_id=<published>: the new-row side is guarded."""
    entry, rating = published["draft_entry"], published["draft_rating"]
    _refused(
        "UPDATE ratings_ratingentry SET rating_list_id = %s WHERE id = %s",
        [published["ratings.RatingList"].pk, entry.pk],
    )
    _refused(
        f"UPDATE ratings_eventrating SET run_id = %s WHERE {where_key(EventRating)}",
        [published["ratings.RatingRun"].pk, *key_values(rating)],
    )
    entry.rating_list = RatingList.objects.get(pk=published["ratings.RatingList"].pk)
    with pytest.raises(ImmutableListError):
        entry.save()


def test_the_orm_refuses_first(published):
    for label in ("ratings.EventRating", "ratings.SolvingNorm", "ratings.RatingRun"):
        row = published[label]
        with pytest.raises(ImmutableListError):
            row.save()
        with pytest.raises(ImmutableListError):
            row.delete()
    period = published["ratings.RatingPeriod"]
    period.valid_from = date(2030, 1, 1)
    with pytest.raises(ImmutableListError):
        period.save()
    period.refresh_from_db()
    period.needs_rerun = True
    period.save()  # the mark may change
    assert EventRating.objects.filter(run=published["draft_run"]).exists()
    SolvingNorm.objects.create(
        run=published["draft_run"],
        event=published["tournaments.Event"],
        player=published["players"][1],
        title="IM",
    )  # a draft's run still takes rows


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)  # no deferred foreign-key checks pending
@pytest.mark.parametrize("table", TRUNCATE_GUARDED)
def test_truncate_is_refused_on_postgresql(published, table):
    _refused(f"TRUNCATE {table} CASCADE")


def test_every_guard_of_the_site_is_installed():
    """After migrate every trigger exists (on SQLite a migration that rebuilds a table drops the
    triggers on it: they are reinstalled after each migrate)."""
    from federation.triggers import checks_trigger_name, is_statement_checked
    from ratings.persistence.guards import all_guards

    vendor = connection.vendor
    guards = [g for g in all_guards() if vendor == "postgresql" or g.operation != "TRUNCATE"]
    with connection.cursor() as cursor:
        if vendor == "postgresql":
            cursor.execute("SELECT tgname FROM pg_trigger WHERE NOT tgisinternal")
        else:
            cursor.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")
        installed = {row[0] for row in cursor.fetchall()}
    # a table's statement-checked guards share its checks trigger (test_statement_checks.py)
    expected = {
        checks_trigger_name(g.table) if is_statement_checked(vendor, g) else g.name for g in guards
    }
    assert expected <= installed
    assert len(guards) >= 41


@pytest.mark.django_db(transaction=True)
def test_a_sqlite_table_rebuild_gets_its_guards_back_after_migrate():
    if connection.vendor != "sqlite":
        pytest.skip("PostgreSQL alters tables in place; its triggers stay")
    from ratings.persistence.guards import all_guards, reinstall_guards
    from tournaments.models import Game

    def installed():
        with connection.cursor() as cursor:
            cursor.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")
            return {row[0] for row in cursor.fetchall()}

    on_game = {g.name for g in all_guards() if g.table == "tournaments_game"}
    with connection.schema_editor() as editor:
        editor._remake_table(Game)  # what a migration altering Game does on SQLite
    assert not on_game & installed()  # the rebuild dropped them
    reinstall_guards(sender=None)  # what post_migrate runs
    assert on_game <= installed() and len(on_game) == 2
