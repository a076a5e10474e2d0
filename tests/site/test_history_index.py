"""A player's history is answered from the (player, rating_list) index alone on PostgreSQL.

His rows sit one per list, each in another heap page; a cold player page read every one of them
(14-28 disk reads, 0.6-0.9 ms of its 3 ms in the site benchmark). The index carries the columns
the history reads (ratings.models.HISTORY_COLUMNS): this test finds a column the query reads and
the index lacks, and asks PostgreSQL for its plan.
"""

from __future__ import annotations

import re

import pytest
from django.db import connection

from ratings.models import HISTORY_COLUMNS, RatingEntry
from ratings.selectors import HISTORY_BY_CODE, HISTORY_QUERY

pytestmark = pytest.mark.django_db

HISTORY_QUERIES = [
    (HISTORY_QUERY, {"player_id": 1}),
    (HISTORY_BY_CODE, {"federation_code": "x", "player_id": "1"}),
]
INDEX = next(i for i in RatingEntry._meta.indexes if i.name == "entry_history_of_player")


def _index_columns() -> set[str]:
    fields = [RatingEntry._meta.get_field(name) for name in (*INDEX.fields, *INDEX.include)]
    return {field.column for field in fields}


def _entry_columns_read(sql: str) -> set[str]:
    """The columns of ratings_ratingentry the statement names (the ORM quotes them)."""
    table = RatingEntry._meta.db_table
    return set(re.findall(rf'"{table}"\."(\w+)"', sql))


def test_the_index_carries_the_declared_history_columns():
    assert set(INDEX.include) == set(HISTORY_COLUMNS)
    assert INDEX.fields == ["player", "rating_list"]


@pytest.mark.parametrize(("query", "values"), HISTORY_QUERIES, ids=["by_id", "by_code"])
def test_every_column_the_history_reads_is_in_the_index(query, values):
    compiled, _ = query._statement(connection, "default", values)
    read = _entry_columns_read(compiled.sql)
    assert {"player_id", "rating_list_id", "published_rating"} <= read  # the pattern matches
    assert read <= _index_columns(), f"add {sorted(read - _index_columns())} to HISTORY_COLUMNS"


@pytest.mark.skipif(connection.vendor != "postgresql", reason="INCLUDE is PostgreSQL's")
@pytest.mark.parametrize(("query", "values"), HISTORY_QUERIES, ids=["by_id", "by_code"])
def test_postgresql_answers_the_history_from_the_index_alone(query, values):
    compiled, params = query._statement(connection, "default", values)
    with connection.cursor() as cursor:
        # An empty test table is read by a scan of the heap; the plan asked for is the one a
        # table of millions of rows gets.
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("SET LOCAL enable_bitmapscan = off")
        cursor.execute("EXPLAIN " + compiled.sql, params)
        plan = "\n".join(row[0] for row in cursor.fetchall())
    assert f"Index Only Scan using {INDEX.name} on {RatingEntry._meta.db_table}" in plan, plan
