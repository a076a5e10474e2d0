"""A player's history is answered from the (player, rating_list) index alone on PostgreSQL.

His rows sit one per list, each in another heap page; a cold player page read every one of them
(14-28 disk reads, 0.6-0.9 ms of its 3 ms in the site benchmark). The index carries the columns
the history reads (ratings.models.HISTORY_COLUMNS): these tests find a column the queries read and
the index lacks, and check the index PostgreSQL holds.
"""

from __future__ import annotations

import re

import pytest
from django.db import connection

from ratings.models import HISTORY_COLUMNS, RatingEntry
from ratings.selectors.players import _history_query

pytestmark = pytest.mark.django_db

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


def test_every_column_the_history_reads_is_in_the_index():
    sql, _ = _history_query(1).query.get_compiler(connection=connection).as_sql()
    read = _entry_columns_read(sql)
    assert {"player_id", "rating_list_id", "published_rating"} <= read  # the pattern matches
    assert read <= _index_columns(), f"add {sorted(read - _index_columns())} to HISTORY_COLUMNS"


@pytest.mark.skipif(connection.vendor != "postgresql", reason="INCLUDE is PostgreSQL's")
def test_the_database_index_is_the_declared_one():
    """The index PostgreSQL holds (after the migrations) keys on player and list and carries
    every history column. Whether the planner then reads it alone depends on the statistics of
    a real table; the site benchmark's database shows it (0.96 -> 0.12 ms per cold history)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_get_indexdef(%s::regclass)", [INDEX.name])
        (definition,) = cursor.fetchone()
    keys, _, included = definition.partition(" INCLUDE ")
    assert keys.endswith("(player_id, rating_list_id)"), definition
    carried = {column.strip() for column in included.strip("()").split(",")}
    assert carried == {RatingEntry._meta.get_field(name).column for name in HISTORY_COLUMNS}
