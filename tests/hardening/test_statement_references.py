"""Foreign keys checked by statement triggers instead of constraints (federation.references):
enumerated over every such key of every model, the database still refuses what a constraint
would — a row referring to nothing (one bad row among many valid ones, on PostgreSQL in one
statement), a referring column moved to nothing, the referenced row deleted or re-keyed, its
table truncated — whatever the path (raw SQL), and the ORM's on_delete still holds."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.db import connection, transaction
from django.db.models import ProtectedError

from federation.references import (
    MISSING_MESSAGE,
    REFERRED_MESSAGE,
    reference_guards,
    unconstrained_references,
)
from federation.triggers import BULK_WRITTEN
from ratings.models import (
    EventRating,
    LiveEventRating,
    LiveRating,
    RatingEntry,
    RatingList,
    RatingRun,
)
from tests.factories import make_world
from tests.hardening.model_keys import key_values, where_key
from tests.hardening.raw_sql import assert_refused

pytestmark = pytest.mark.django_db

REFERENCES = unconstrained_references()
IDS = [f"{r.table}.{r.column}" for r in REFERENCES]


def test_only_the_bulk_written_tables_trade_constraints_for_statement_checks():
    assert {r.table for r in REFERENCES} == set(BULK_WRITTEN)
    assert sorted(IDS) == [
        "ratings_eventrating.event_id",
        "ratings_eventrating.player_id",
        "ratings_eventrating.run_id",
        "ratings_liveeventrating.event_id",
        "ratings_liveeventrating.live_run_id",
        "ratings_liveeventrating.player_id",
        "ratings_liverating.live_run_id",
        "ratings_liverating.player_id",
        "ratings_ratingentry.player_id",
        "ratings_ratingentry.rating_list_id",
    ]
    for model in apps.get_models():  # and every other foreign key keeps its constraint
        for field in model._meta.local_concrete_fields:
            if field.many_to_one and model._meta.db_table not in BULK_WRITTEN:
                assert field.db_constraint, f"{model._meta.label}.{field.name}"


def test_every_statement_checked_reference_has_its_guards():
    names = {g.name for g in reference_guards()}
    for ref in REFERENCES:
        for suffix in ("insert", "update", "delete", "rekey", "truncate"):
            assert f"{ref.table}_{ref.column}_ref_{suffix}" in names


@pytest.fixture
def world(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    return make_world("rf")


def _row(world, table: str):
    return {
        "ratings_eventrating": world["ratings.EventRating"],
        "ratings_ratingentry": world["ratings.RatingEntry"],
        "ratings_liveeventrating": world["ratings.LiveEventRating"],
        "ratings_liverating": world["ratings.LiveRating"],
    }[table]


def _fresh_owner(world, table: str) -> tuple[str, int]:
    """(owner column, id) of a draft run or list of the world's federation to add rows to, or of
    its live run emptied (one per federation)."""
    if table in ("ratings_liveeventrating", "ratings_liverating"):
        live_run = world["ratings.LiveRun"]
        LiveEventRating.objects.filter(live_run=live_run).delete()
        LiveRating.objects.filter(live_run=live_run).delete()
        return "live_run_id", live_run.pk
    run = RatingRun.objects.create(
        federation=world["federation.Federation"],
        period=world["ratings.RatingList"].period,
        status="succeeded",
    )
    if table == "ratings_eventrating":
        return "run_id", run.pk
    draft = RatingList.objects.create(federation=run.federation, period=run.period, run=run)
    return "rating_list_id", draft.pk


def _insert(table: str, rows: list[dict]) -> str:
    columns = list(rows[0])
    values = ", ".join("(" + ", ".join(["%s"] * len(columns)) + ")" for _ in rows)
    return f"INSERT INTO {table} ({', '.join(columns)}) VALUES {values}"


@pytest.mark.parametrize("ref", REFERENCES, ids=IDS)
def test_a_row_referring_to_nothing_is_refused(world, ref):
    """One statement, a valid row and one whose key refers to nothing: refused whole."""
    row = _row(world, ref.table)
    owner_column, owner = _fresh_owner(world, ref.table)
    fields = [f for f in type(row)._meta.local_concrete_fields if f.column != "id"]
    valid = {f.column: f.get_db_prep_save(getattr(row, f.attname), connection) for f in fields}
    valid[owner_column] = owner
    bad = {**valid, ref.column: 987654321}
    params = [*valid.values(), *bad.values()]
    assert_refused(MISSING_MESSAGE, _insert(ref.table, [valid, bad]), params)
    assert not type(row).objects.filter(**{owner_column: owner}).exists()
    with transaction.atomic(), connection.cursor() as cursor:  # the valid row alone goes in
        cursor.execute(_insert(ref.table, [valid]), list(valid.values()))
    assert type(row).objects.filter(**{owner_column: owner}).count() == 1


@pytest.mark.parametrize("ref", REFERENCES, ids=IDS)
def test_a_referring_column_moved_to_nothing_is_refused(world, ref):
    row = _row(world, ref.table)  # of a draft list: only the reference is refused
    assert_refused(
        MISSING_MESSAGE,
        f"UPDATE {ref.table} SET {ref.column} = %s WHERE {where_key(type(row))}",
        [987654321, *key_values(row)],
    )


@pytest.mark.parametrize("ref", REFERENCES, ids=IDS)
def test_a_referred_row_cannot_be_deleted_or_rekeyed_by_sql(world, ref):
    row = _row(world, ref.table)
    target = getattr(row, ref.column)
    assert_refused(REFERRED_MESSAGE, f"DELETE FROM {ref.target} WHERE id = %s", [target])
    assert_refused(
        REFERRED_MESSAGE, f"UPDATE {ref.target} SET id = %s WHERE id = %s", [987654, target]
    )


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("ref", REFERENCES, ids=IDS)
def test_a_referred_table_cannot_be_truncated(world, ref):
    assert_refused(REFERRED_MESSAGE, f"TRUNCATE {ref.target} CASCADE")


def test_the_orm_still_protects_and_cascades(world):
    player = world["ratings.EventRating"].player
    with pytest.raises(ProtectedError):
        player.delete()
    with pytest.raises(ProtectedError):
        world["ratings.EventRating"].event.delete()
    _, list_id = _fresh_owner(world, "ratings_ratingentry")
    draft = RatingList.objects.get(pk=list_id)
    RatingEntry.objects.create(rating_list=draft, player=player, rating=1, published_rating=1)
    EventRating.objects.create(
        run=draft.run, event=world["tournaments.Event"], player=player, after=1
    )
    draft.delete()  # its entries go first (CASCADE), then the list: no trigger refuses
    assert not RatingEntry.objects.filter(rating_list_id=list_id).exists()
    run_id = draft.run_id
    draft.run.delete()
    assert not EventRating.objects.filter(run_id=run_id).exists()
    live_run = world["ratings.LiveRun"]
    live_run.delete()  # as a refresh replaces it: its rows go first
    assert not LiveRating.objects.filter(live_run_id=live_run.pk).exists()
    assert not LiveEventRating.objects.filter(live_run_id=live_run.pk).exists()
