"""Several queries as one PostgreSQL statement whose answer carries each query's rows as JSON.

The player page runs four small queries. Sent together in psycopg's pipeline they still cost
four statements on each side (Python's execute and fetch, the server's executor) and a dozen
socket waits: under tests/benchmarks/bench_site.py's load the page's median was 0.65 ms above
that of the same page running its first query alone (3.3 ms). As one statement, each query is a
subquery aggregated to a JSON array of its rows, in its own order, and the rows are read back to
the values the ORM gives: a float column's 1500 (JSON has no 1500.0) is 1500.0 again, a date's
text a date. The player page's queries then took 0.56 ms in one process instead of 0.89 ms.

A query can go this way only if every column it selects is of a type read back exactly here
(readers); rows_together (federation.prepared) sends the others in the pipeline as before.
tests/site/test_json_rows.py compares generated rows of every such type, and
tests/site/test_prepared_queries.py the site's queries, values and types, with each one's own.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from datetime import date, datetime

import orjson

_AS_GIVEN = None  # JSON gives the ORM's value itself: ints, text, booleans
# A JSON document column: as given too, but parsed as Django's JSONField parses it (json.loads:
# orjson reads an integer past 64 bits as a float)
_DOCUMENT = "document"
_INTEGER_TYPES = {
    "AutoField",
    "BigAutoField",
    "SmallAutoField",
    "IntegerField",
    "BigIntegerField",
    "SmallIntegerField",
    "PositiveIntegerField",
    "PositiveBigIntegerField",
    "PositiveSmallIntegerField",
}
_TEXT_TYPES = {"CharField", "TextField", "SlugField", "EmailField", "URLField"}
_MAX_COLUMNS = 100  # json_build_array takes at most 100 arguments (FUNC_MAX_ARGS)

Reader = Callable[[object], object] | str | None


def _float(value):
    # 1500.0 comes as 1500, NaN and the infinities as text ("NaN", "Infinity")
    return float(value)


def readers(fields: Sequence, timezone) -> tuple[Reader, ...] | None:
    """How to read each selected column's JSON value back to the ORM's value (None, and a JSON
    document's marker: as given), or None if a column's type is not read back exactly here.
    `timezone`: the connection's, which Django's loaders give timestamps in (None: naive
    timestamps, not read here)."""
    found = []
    for field in fields:
        reader = _reader(field, timezone)
        if reader is False:
            return None
        found.append(reader)
    if len(found) > _MAX_COLUMNS:
        return None
    return tuple(found)


def _reader(field, timezone) -> Reader | bool:
    while field.is_relation:  # a foreign key's column holds its target's key
        field = field.target_field
    kind = field.get_internal_type()
    if kind in _INTEGER_TYPES or kind in _TEXT_TYPES or kind == "BooleanField":
        return _AS_GIVEN
    if kind == "FloatField":
        return _float
    if kind == "DateField":
        return date.fromisoformat
    if kind == "DateTimeField" and timezone is not None:
        return lambda text: datetime.fromisoformat(text).astimezone(timezone)
    if kind == "JSONField" and field.decoder is None:
        return _DOCUMENT
    return False


def statement(queries: Sequence[tuple[str, int]]) -> str:
    """One SELECT of one text column per (sql, column count): that query's rows as a JSON array
    of arrays. Each query runs as a subquery kept whole (one with ORDER BY is never merged into
    the query around it), and the aggregate takes its rows in the order it gives them."""
    columns = []
    for sql, count in queries:
        names = [f"c{i}" for i in range(count)]
        row = ", ".join(f"q.{name}" for name in names)
        columns.append(
            f"(SELECT coalesce(json_agg(json_build_array({row})), '[]')::text "
            f"FROM ({sql}) AS q({', '.join(names)}))"
        )
    return "SELECT " + ", ".join(columns)


def rows(text: str, column_readers: Sequence[Reader]) -> list[tuple]:
    """The rows of one query's JSON array, each value read back by its column's reader."""
    found = (json.loads if _DOCUMENT in column_readers else orjson.loads)(text)
    converted = [(i, read) for i, read in enumerate(column_readers) if callable(read)]
    if not converted:
        return [tuple(row) for row in found]
    for row in found:
        for i, read in converted:
            if row[i] is not None:
                row[i] = read(row[i])
    return [tuple(row) for row in found]
