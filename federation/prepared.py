"""Querysets compiled to SQL once and run many times with new parameter values.

A page's queries are the same statement on every request with other values (this player, this
list). The ORM builds and compiles each one again per request, which on the busiest pages costs
more than the database takes to answer (tests/benchmarks/bench_site.py). A PreparedValues keeps
the queryset as the one statement of the query's meaning: it is built once with marker values,
compiled by Django's own compiler, and each call substitutes the real values for the markers in
the compiled parameters and converts the rows with the same compiler (SQLite's dates, booleans
and JSON come back as the ORM gives them). On PostgreSQL the statement is bound on the server, so
psycopg prepares it (at its first run on a connection by default: `prepare_threshold`) and
PostgreSQL plans it once, generically (`plan_cache_mode`, federation.env): planning took 1–3 ms
of each of the player page's queries, running them 0.1–1.3 ms. The ORM's own cursor binds on
the client and never prepares; nor does a one-off statement (a run's read or record).
rows_together() sends the independent queries of a page in one round trip: on PostgreSQL as
one statement whose answer carries each query's rows as JSON (federation.json_rows).
tests/site/test_prepared_queries.py checks every prepared query of the site against its queryset
run the ORM's way.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import connections
from django.db.models import QuerySet

from federation import json_rows


def server_binding_cursor(connection, *, numbered: bool = False, one_off: bool = False):
    """Django's cursor wrapper (query log, error translation, execute wrappers) around a cursor
    that sends the values apart from the statement (PostgreSQL), or the usual cursor.
    `numbered`: as for server_binding_cursors. `one_off`: a statement run once in a while (a
    run's read or record), never prepared: planned for its values each time, not once for
    any, and not kept on the connection."""
    return server_binding_cursors(connection, 1, numbered=numbered, one_off=one_off)[0]


def server_binding_cursors(
    connection, count: int, *, numbered: bool = False, one_off: bool = False
) -> list:
    """`count` such cursors, the connection checked once for all of them (a page's statements
    sent together: rows_together). `numbered`: for statements whose placeholders are $1, $2, …
    already (numbered_placeholders): psycopg sends them as they are instead of parsing them
    again on every call, which it does for any statement longer than 4,096 characters."""
    if connection.vendor != "postgresql":
        return [connection.cursor() for _ in range(count)]
    import psycopg
    from django.db.backends.postgresql.base import TIMESTAMPTZ_OID, register_tzloader

    connection.close_if_health_check_failed()
    connection.ensure_connection()
    connection.validate_thread_sharing()
    with connection.wrap_database_errors:
        kind = psycopg.RawCursor if numbered else psycopg.Cursor
        if one_off:
            kind = _unprepared(kind)
        raws = [kind(connection.connection) for _ in range(count)]
    # As Django's create_cursor: the connection's time zone, if it changed since connecting.
    loader = connection.connection.adapters.get_loader(TIMESTAMPTZ_OID, psycopg.pq.Format.TEXT)
    if connection.timezone != loader.timezone:
        for raw in raws:
            register_tzloader(connection.timezone, raw)
    wrap = connection.make_debug_cursor if connection.queries_logged else connection.make_cursor
    return [wrap(raw) for raw in raws]


@functools.cache
def _unprepared(kind: type) -> type:
    """psycopg's cursor class `kind`, whose statements are never prepared."""

    class Unprepared(kind):
        def execute(self, query, params=None, *, prepare=None, binary=None):
            return super().execute(query, params, prepare=False, binary=binary)

    return Unprepared


_PLACEHOLDER_OR_PERCENT = re.compile(r"%([s%])")


def numbered_placeholders(sql: str) -> str:
    """A statement of Django's (%s placeholders, %% for a percent sign) with $1, $2, … and %."""
    numbers = itertools.count(1)
    return _PLACEHOLDER_OR_PERCENT.sub(
        lambda found: f"${next(numbers)}" if found.group(1) == "s" else "%", sql
    )


def binary_results(cursor) -> None:
    """The rows of `cursor` (of server_binding_cursor) come in PostgreSQL's binary format:
    numbers are copied, not parsed from text (a list page's 51 rows: 0.33 ms to 0.28), bytes
    come as they are, not as hexadecimal. Only for statements of numbers, text, booleans, dates
    and bytes: Django reads JSON and timestamps with text loaders of its own, which the binary
    format would pass by."""
    if cursor.db.vendor == "postgresql":
        import psycopg

        cursor.cursor.format = psycopg.pq.Format.BINARY


# Marker values nobody stores: an id no sequence reaches, a text no code contains.
_INT_MARKERS = iter(range(-7_340_000_001, -7_340_100_000, -1))


def marker_int() -> int:
    return next(_INT_MARKERS)


def marker_text(name: str) -> str:
    return f"\x1fprepared:{name}\x1f"


@dataclass(frozen=True)
class _Compiled:
    sql: str
    params: tuple  # the compiled parameters, markers included
    slots: tuple[tuple[int, str], ...]  # (position in params, name of the value)
    compiler: Any  # Django's SQLCompiler of the marker queryset: converts the rows
    converters: dict  # the compiler's converters of the selected columns, looked up once
    # each column's reader from JSON (federation.json_rows), on PostgreSQL; None: not that way
    json_readers: tuple | None


class PreparedValues:
    """``build(**markers)`` returns a ``values_list`` queryset; ``rows(**values)`` runs it with
    ``values`` in place of the markers: the ORM's rows, without building the query again.

    Each marker must reach the compiled parameters unchanged (an exact lookup, not ``contains``
    or ``in``): compiling refuses a marker it cannot find rather than run another query.
    """

    instances: list[PreparedValues] = []  # every prepared query: the tests walk them all

    def __init__(self, build: Callable[..., QuerySet], **markers: object):
        PreparedValues.instances.append(self)
        self.name = f"{build.__module__}.{build.__qualname__}"
        self._build = build
        self._markers = markers
        self._compiled: dict[tuple[str, str], _Compiled] = {}

    @property
    def parameters(self) -> tuple[str, ...]:
        return tuple(self._markers)

    def queryset(self, **values: object) -> QuerySet:
        """The same query the ORM's way (tests compare the two)."""
        return self._build(**values)

    def rows(self, using: str = "default", **values: object) -> list[tuple]:
        return rows_together((self, values), using=using)[0]

    def _statement(self, connection, using: str, values: dict) -> tuple[_Compiled, list]:
        """The compiled query of `connection`'s vendor and its parameters with `values`."""
        if values.keys() != self._markers.keys():
            raise TypeError(f"{self.name} takes {sorted(self._markers)}, not {sorted(values)}")
        compiled = self._compiled.get((using, connection.vendor))
        if compiled is None:
            compiled = self._compile(using)
        params = list(compiled.params)
        for position, name in compiled.slots:
            params[position] = values[name]
        return compiled, params

    def _compile(self, using: str) -> _Compiled:
        queryset = self._build(**self._markers)
        compiler = queryset.query.get_compiler(using=using)
        sql, params = compiler.as_sql()
        slots = []
        for position, value in enumerate(params):
            for name, marker in self._markers.items():
                if type(value) is type(marker) and value == marker:
                    slots.append((position, name))
        missing = set(self._markers) - {name for _, name in slots}
        if missing:
            raise ValueError(f"prepared query: {sorted(missing)} not a parameter of {sql}")
        selected = [column for column, _, _ in compiler.select[: compiler.col_count]]
        if compiler.has_composite_fields(selected):
            raise ValueError(f"prepared query: composite fields are not supported in {sql}")
        converters = compiler.get_converters(selected)
        readers = None
        if compiler.connection.vendor == "postgresql":
            fields = [column.output_field for column in selected]
            readers = json_rows.readers(fields, compiler.connection.timezone)
        compiled = _Compiled(sql, tuple(params), tuple(slots), compiler, converters, readers)
        self._compiled[(using, compiler.connection.vendor)] = compiled
        return compiled


def rows_together(
    *calls: tuple[PreparedValues, dict[str, object]], using: str = "default"
) -> list[list[tuple]]:
    """The rows of each (prepared query, values), in order. On PostgreSQL the queries go to the
    server together and the answers come back together: one round trip instead of one per
    query, which on the player page cost more than running them. As one statement if every
    column they select is read back from JSON exactly (federation.json_rows), else in psycopg's
    pipeline mode."""
    connection = connections[using]
    statements = [prepared._statement(connection, using, values) for prepared, values in calls]
    if len(calls) > 1 and all(compiled.json_readers is not None for compiled, _ in statements):
        return _rows_in_one_statement(connection, statements)
    with contextlib.ExitStack() as cursors_open:
        cursors = [
            cursors_open.enter_context(cursor)
            for cursor in server_binding_cursors(connection, len(calls))
        ]
        together = contextlib.nullcontext()
        if connection.vendor == "postgresql" and len(calls) > 1:
            together = connection.connection.pipeline()  # the answers come at its end
        with connection.wrap_database_errors, together:
            for cursor, (compiled, params) in zip(cursors, statements, strict=True):
                cursor.execute(compiled.sql, params)
        return [
            _converted(compiled, cursor.fetchall())
            for cursor, (compiled, _) in zip(cursors, statements, strict=True)
        ]


# The one statement of each set of queries sent together (rows_together), by their statements.
_one_statements: dict[tuple[str, ...], str] = {}


def _rows_in_one_statement(connection, statements: list[tuple[_Compiled, list]]) -> list:
    """PostgreSQL: the queries as subqueries of one statement (federation.json_rows)."""
    key = tuple(compiled.sql for compiled, _ in statements)
    sql = _one_statements.get(key)
    if sql is None:
        combined = json_rows.statement([(c.sql, len(c.json_readers)) for c, _ in statements])
        sql = _one_statements[key] = numbered_placeholders(combined)
    params = [value for _, values in statements for value in values]
    with server_binding_cursor(connection, numbered=True) as cursor:
        cursor.execute(sql, params)
        texts = cursor.fetchone()
    return [
        json_rows.rows(text, compiled.json_readers)
        for text, (compiled, _) in zip(texts, statements, strict=True)
    ]


def _converted(compiled: _Compiled, rows: list[tuple]) -> list[tuple]:
    if not compiled.converters:
        return rows
    # What results_iter(tuple_expected=True) does, without finding the converters again.
    return list(map(tuple, compiled.compiler.apply_converters(rows, compiled.converters)))
