"""The indexes of the tables a rating run writes by the hundred thousand
(federation.triggers.BULK_WRITTEN). Each index costs a run about a third of a second per 400,000
rows (tests/benchmarks/bench_runs.py), so none may be redundant or lead with a key nobody looks
rows up by; and every key the site does look rows up by alone (a page, a reference guard, the
ORM's delete collector) leads one, or a page or a deletion scans the table, or leads one of
the table that keeps those keys for it (federation.references.LOOKED_UP_IN).

Found three times: (run) was a prefix of the unique (run, event, player) and (player) of
(player, run); later the event had an index of its own beside that unique key, which led with
the run; then event ratings kept an auto id, and its index, which nothing looked them up by.
Event ratings are now looked up by event (and a run's existence checked) in RatedEvent.
"""

from __future__ import annotations

import pytest
from django.apps import apps
from django.db import connection, models

from federation.references import foreign_key_columns, looked_up_in
from federation.triggers import BULK_WRITTEN
from tests.hardening.model_keys import key_columns, table_key_columns

pytestmark = pytest.mark.django_db

# Keys nothing looks rows up by alone, and why.
NOT_LOOKED_UP_ALONE = {
    ("ratings_eventrating", "run_id"): "a run is never deleted (the admin offers no deletion, "
    "published runs are guarded; a discarded list keeps its run)",
}


def _model(table: str):
    return next(m for m in apps.get_models() if m._meta.db_table == table)


def _indexes(table: str) -> list[dict]:
    with connection.cursor() as cursor:
        found = connection.introspection.get_constraints(cursor, table)
    return [
        {"name": name, **info}
        | ({"columns": table_key_columns(table)} if info["primary_key"] else {})
        for name, info in found.items()
        if info["index"] or info["unique"] or info["primary_key"]
    ]


@pytest.mark.parametrize("table", BULK_WRITTEN)
def test_no_index_is_a_prefix_of_another(table):
    """A non-unique index whose columns lead another index answers nothing the other does not,
    and a run pays for both."""
    indexes = _indexes(table)
    assert any(i["primary_key"] for i in indexes)  # the introspection found them
    for index in indexes:
        if index["unique"] or index["primary_key"]:
            continue  # it says something of the rows: it is not there for look-ups alone
        for other in indexes:
            if other is index:
                continue
            lead = other["columns"][: len(index["columns"])]
            assert lead != index["columns"], f"{index['name']} leads {other['name']}"


def _leading(table: str) -> set[str]:
    return {index["columns"][0] for index in _indexes(table)}


@pytest.mark.parametrize("table", BULK_WRITTEN)
def test_every_key_looked_up_leads_an_index(table):
    for column in foreign_key_columns(table):
        if (table, column) in NOT_LOOKED_UP_ALONE:
            continue
        where = looked_up_in(table, column)  # where the reference guards look
        assert column in _leading(where), f"{where}.{column}: no index leads with it"


@pytest.mark.parametrize("table", BULK_WRITTEN)
def test_every_index_leads_with_a_key_looked_up(table):
    """An index that leads with a key nobody looks rows up by alone serves only the look-ups
    of its later columns, which an index leading with one of them serves as well."""
    model = _model(table)
    elsewhere = {c for c in foreign_key_columns(table) if looked_up_in(table, c) != table}
    looked_up = {key_columns(model)[0]} | {
        column
        for column in foreign_key_columns(table) - elsewhere
        if (table, column) not in NOT_LOOKED_UP_ALONE
    }
    for index in _indexes(table):
        assert index["columns"][0] in looked_up, f"{index['name']} leads with an unused key"


# Tables whose rows are looked up by a surrogate id, and by what.
LOOKED_UP_BY_ID = {
    "ratings_ratingentry": "list pages fetch a page's entries by id (selectors._rows_by_id)",
}


@pytest.mark.parametrize("table", BULK_WRITTEN)
def test_a_surrogate_key_only_where_rows_are_looked_up_by_it(table):
    """An auto id costs a run a sequence value and an index entry per row (0.4-0.5 s of an
    ICCF period's 400,000 event ratings); where the row has a natural key and nothing looks
    it up by id, the natural key is the primary key."""
    pk = _model(table)._meta.pk
    if isinstance(pk, models.AutoField | models.BigAutoField):
        assert table in LOOKED_UP_BY_ID, f"{table}.{pk.column}: nothing looks rows up by it"


def test_the_exceptions_name_real_keys():
    for table, column in NOT_LOOKED_UP_ALONE:
        fields = _model(table)._meta.local_concrete_fields
        assert any(f.many_to_one and f.column == column for f in fields), (table, column)
    for table in LOOKED_UP_BY_ID:
        assert table in BULK_WRITTEN and key_columns(_model(table)) == ("id",), table
