"""A cursor that sends a run's statement and its values apart (PostgreSQL), for the batch
path's few large one-off statements: a run's record writes a period's 3.4 MB of compressed
files as binary parameters (Django's client-side binding would put 6.8 MB of hex into the
statement for the server to parse: 75-95 ms of the run's critical path against 40 ms), and
read_columns reads its joined binary columns as bytes, not hexadecimal text.

Its statements are never prepared: each runs once in a while, planned for its own values."""

from __future__ import annotations

import psycopg
from django.db.backends.postgresql.base import TIMESTAMPTZ_OID, register_tzloader


class _Unprepared(psycopg.Cursor):
    def execute(self, query, params=None, *, prepare=None, binary=None):
        return super().execute(query, params, prepare=False, binary=binary)


def server_binding_cursor(connection, *, binary_results: bool = False):
    """Django's cursor wrapper (query log, error translation) around such a cursor on
    PostgreSQL. `binary_results`: the rows come in PostgreSQL's binary format (bytes as they
    are): only for statements of numbers, text, booleans, dates and bytes."""
    connection.close_if_health_check_failed()
    connection.ensure_connection()
    connection.validate_thread_sharing()
    with connection.wrap_database_errors:
        raw = _Unprepared(connection.connection)
    if binary_results:
        raw.format = psycopg.pq.Format.BINARY
    # As Django's create_cursor: the connection's time zone, if it changed since connecting.
    loader = connection.connection.adapters.get_loader(TIMESTAMPTZ_OID, psycopg.pq.Format.TEXT)
    if connection.timezone != loader.timezone:
        register_tzloader(connection.timezone, raw)
    wrap = connection.make_debug_cursor if connection.queries_logged else connection.make_cursor
    return wrap(raw)
