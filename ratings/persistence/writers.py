"""Bulk writers for the rows of a rating run: COPY on PostgreSQL, batched INSERTs elsewhere."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Protocol

import numpy as np
from django.db import connection
from django.db.models.sql import InsertQuery, UpdateQuery

from ratings.models import (
    EventRating,
    LiveEventRating,
    LiveRun,
    RatingEntry,
    RatingList,
    RatingRun,
    RunRecord,
    SolvingNorm,
)
from ratings.persistence import binary_copy
from ratings.persistence.run_rows import EntryRow, EventRatingColumns, EventRatingRow, NormRow
from ratings.persistence.server_binding import server_binding_cursor

BATCH = 5000
COPY_PIECE_ROWS = 1 << 15  # ~3 MB of event ratings: the server starts on them at once
_DUMPS = json.JSONEncoder(separators=(",", ":")).encode


# The column types psycopg writes in PostgreSQL's binary COPY format by name (no type modifier
# such as varchar's length). JSON goes as the JSON text callers give (_json_writer).
BINARY_COPY_TYPES = {"bigint", "integer", "smallint", "double precision", "boolean", "jsonb"}


def bulk_insert(model, columns: list[str], rows: Iterable[tuple]) -> None:
    """One COPY on PostgreSQL (tens of times faster than INSERT for 100,000s of rows). When
    every column has a type of BINARY_COPY_TYPES, in the binary format: no number is written
    as text for the server to parse back (a period's 20,000 entries into a temporary table:
    0.23 s to 0.12 s)."""
    if connection.vendor == "postgresql":
        table = model._meta.db_table
        types = binary_copy_types(model, columns)
        statement = f"COPY {table} ({', '.join(columns)}) FROM STDIN"
        with (
            connection.cursor() as cursor,
            cursor.cursor.copy(statement + (" (FORMAT BINARY)" if types else "")) as copy,
        ):
            if types:
                from psycopg.types.json import set_json_dumps

                set_json_dumps(_as_given, context=cursor.cursor)  # already JSON text
                copy.set_types(types)
            for row in rows:
                copy.write_row(row)
        return
    model.objects.bulk_create(
        (model(**dict(zip(columns, row, strict=True))) for row in rows), batch_size=BATCH
    )


def binary_copy_types(model, columns: list[str]) -> list[str] | None:
    """The database types of `model`'s `columns` if all of them are BINARY_COPY_TYPES."""
    types = [column_type(model, column) for column in columns]
    return types if set(types) <= BINARY_COPY_TYPES else None


def column_type(model, column: str) -> str:
    """The database type of `model`'s column named `column` (a key's column ends in _id, as
    some plain columns do too)."""
    field = next(f for f in model._meta.concrete_fields if f.column == column)
    return field.db_type(connection)


def _as_given(text: str) -> str:
    return text


def ranked(entries: Sequence[EntryRow]) -> dict[int, int]:
    """Ranks 1..n of the listed entries: by published rating, then unrounded, then player id."""
    order = sorted(
        (e for e in entries if e.listed),
        key=lambda e: (-e.published_rating, -e.rating, e.player_id),
    )
    return {e.player_id: rank for rank, e in enumerate(order, start=1)}


def _json_writer():
    """How this database takes a JSON value: text for COPY on PostgreSQL, the value elsewhere.
    Asked once per write (not per row: 400,000 rows), empty objects written without encoding."""
    if connection.vendor != "postgresql":
        return lambda value: value
    return lambda value: _DUMPS(value) if value else "{}"


class Previous(Protocol):
    """A player's entry on the list a new one is compared with (RatingList.previous): a run's
    runner read it as the run's base (ratings.systems.common.BaseEntry)."""

    @property
    def rating(self) -> float: ...

    @property
    def published_rating(self) -> int: ...


ENTRY_COLUMNS = [
    "rating_list_id",
    "player_id",
    "rating",
    "rd",
    "published_rating",
    "published_rd",
    "games",
    "total_games",
    "provisional",
    "half_rating",
    "listed",
    "rank",
    "state",
    "previous_rating",
    "change",
    "published_change",
]


def write_entries(
    rating_list: RatingList, entries: Sequence[EntryRow], previous: Mapping[int, Previous]
) -> None:
    """The entries with their ranks and changes against `previous`: `change` unrounded,
    `published_change` the difference of the published integers (what readers see)."""
    write_entry_rows(rating_list, entry_rows(entries, previous))


def entry_rows(entries: Sequence[EntryRow], previous: Mapping[int, Previous]) -> list[tuple]:
    """The entries as rows of ENTRY_COLUMNS but the list's id, which a run learns only once it
    has the connection back: it builds these while its event ratings are copied."""
    ranks = ranked(entries)
    as_json = _json_writer()
    return [
        (
            e.player_id,
            e.rating,
            e.rd,
            e.published_rating,
            e.published_rd,
            e.games,
            e.total_games,
            e.provisional,
            e.half_rating,
            e.listed,
            ranks.get(e.player_id),
            as_json(e.state),
            *_changes(e, previous.get(e.player_id)),
        )
        for e in entries
    ]


def write_entry_rows(rating_list: RatingList, rows: Sequence[tuple]) -> None:
    """Rows of entry_rows() written as the list's entries."""
    list_id = rating_list.pk
    bulk_insert(RatingEntry, ENTRY_COLUMNS, ((list_id, *row) for row in rows))


def _changes(entry: EntryRow, before: Previous | None) -> tuple:
    """(previous_rating, change, published_change) of an entry."""
    if before is None:
        return None, None, None
    return (
        before.rating,
        entry.rating - before.rating,
        entry.published_rating - before.published_rating,
    )


def _copy_binary(
    raw_connection,
    table: str,
    columns: dict[str, binary_copy.Column],
    rows: int,
    order: np.ndarray | None = None,
) -> None:
    """One binary COPY of NumPy columns, no per-row Python at all, on a psycopg connection
    itself (not Django's per-thread wrapper), so that a second thread can do it
    (event_ratings_written_alongside). `order`, if given, is the order to write the rows in."""
    if order is not None:
        columns = {name: binary_copy.taken(column, order) for name, column in columns.items()}
    names = ", ".join(columns)
    with (
        raw_connection.cursor() as cursor,
        cursor.copy(f"COPY {table} ({names}) FROM STDIN (FORMAT BINARY)") as copy,
    ):
        for piece in binary_copy.encode_pieces(list(columns.values()), rows, COPY_PIECE_ROWS):
            copy.write(piece)


def wire_column(model, name: str, values, null: np.ndarray | None = None) -> binary_copy.Column:
    """A column of `model` in binary COPY form, its wire type read from the field's database
    type (a bigint key, an integer count, a double rating)."""
    return binary_copy.Column(binary_copy.WIRE_TYPES[column_type(model, name)], values, null)


def key_order(model, rows: EventRatingColumns) -> np.ndarray | None:
    """The permutation that puts `rows`, which come in (event, player) order, in the order of
    `model`'s key (its run or live run the same in every row); None if they are in it already.
    Written in the key's order, each key goes into the index beside the one before instead of
    anywhere in it."""
    key = [field.attname for field in model._meta.pk.fields]
    if key.index("player_id") > key.index("event_id"):
        return None
    return np.argsort(rows.player_id, kind="stable")  # stable: each player's events in order


def _copy_in_key_order(
    raw_connection, model, columns: dict[str, binary_copy.Column], rows: EventRatingColumns
) -> None:
    """_copy_binary of event ratings, sorted into the key's order on the copying thread."""
    order = key_order(model, rows)
    _copy_binary(raw_connection, model._meta.db_table, columns, len(rows), order)


def _event_rating_columns(model, owner: str, owner_id: int, rows: EventRatingColumns) -> dict:
    """The binary COPY columns of event ratings of a run or live run (`owner` its column)."""

    def column(name: str, values: np.ndarray, nullable: bool = False) -> binary_copy.Column:
        return wire_column(model, name, values, np.isnan(values) if nullable else None)

    return {
        owner: column(owner, owner_id),
        "event_id": column("event_id", rows.event_id),
        "player_id": column("player_id", rows.player_id),
        "before": column("before", rows.before, nullable=True),
        "after": column("after", rows.after),
        "before_rd": column("before_rd", rows.before_rd, nullable=True),
        "after_rd": column("after_rd", rows.after_rd, nullable=True),
        "games": column("games", rows.games),
        "score": column("score", rows.score, nullable=True),
        "details": binary_copy.jsonb_constant("{}"),
    }


def _copied_in_binary(rows: Sequence[EventRatingRow] | EventRatingColumns) -> bool:
    """Event ratings in columns go to PostgreSQL by binary COPY; rows, or SQLite, by INSERT."""
    return isinstance(rows, EventRatingColumns) and connection.vendor == "postgresql"


def _event_ratings_of(owner: RatingRun | LiveRun) -> tuple[type, str]:
    """The event ratings' model of a run or live run, and its column naming the owner."""
    if isinstance(owner, LiveRun):
        return LiveEventRating, "live_run_id"
    return EventRating, "run_id"


@contextmanager
def event_ratings_written_alongside(
    owner: RatingRun | LiveRun, rows: Sequence[EventRatingRow] | EventRatingColumns
) -> Iterator[None]:
    """Write the event ratings of a run (or live run) while the body runs; leaving waits for
    them and raises their error. A period's 400,000 rows keep PostgreSQL busy for seconds (the
    key, the event's index and the guards), time this process would spend waiting: on
    PostgreSQL the binary COPY goes on a second thread over the same connection (psycopg
    connections are thread-safe, Django's wrapper is per thread) while the body encodes,
    compresses and digests the run's files. The body must not query meanwhile (it would wait
    for the COPY). Elsewhere, and for rows: after the body, by the row writer."""
    model, column = _event_ratings_of(owner)
    if not _copied_in_binary(rows):
        yield
        _write_event_rating_rows(model, column, owner.pk, rows)
        return
    connection.ensure_connection()
    # here: reading field types needs Django's wrapper
    columns = _event_rating_columns(model, column, owner.pk, rows)
    # leaving the executor waits for the COPY even when the body failed, so the transaction is
    # never rolled back under it
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="event-ratings-copy") as pool:
        copying = pool.submit(_copy_in_key_order, connection.connection, model, columns, rows)
        yield
        copying.result()


EVENT_RATING_FIELDS = [
    "event_id",
    "player_id",
    "before",
    "after",
    "before_rd",
    "after_rd",
    "games",
    "score",
    "details",
]


def _write_event_rating_rows(model, owner: str, owner_id: int, rows) -> None:
    """Event ratings of a run or live run (`owner` its column) row by row: COPY of text rows
    on PostgreSQL, batched INSERTs elsewhere."""
    as_json = _json_writer()
    bulk_insert(
        model,
        [owner, *EVENT_RATING_FIELDS],
        (
            (
                owner_id,
                r.event_id,
                r.player_id,
                r.before,
                r.after,
                r.before_rd,
                r.after_rd,
                r.games,
                r.score,
                as_json(r.details),
            )
            for r in rows
        ),
    )


def write_record(record: RunRecord) -> None:
    """INSERT the run's record (its engine input, output and labels). On PostgreSQL the values
    go apart from the statement, the bytes as binary: Django's client-side binding would write
    a period's 3.4 MB of compressed files into the statement as 6.8 MB of hex for the server to
    parse (75-95 ms of the run's critical path against 40 ms). Like bulk_create, it sends no
    save signals: nothing listens for a record's."""
    if connection.vendor != "postgresql":
        record.save(force_insert=True)
        return
    record.refuse_if_stored()
    query = InsertQuery(RunRecord)
    query.insert_values(RunRecord._meta.local_concrete_fields, [record])
    with server_binding_cursor(connection) as cursor:
        for sql, params in query.get_compiler(connection=connection).as_sql():
            cursor.execute(sql, params)
    record._state.adding = False
    record._state.db = connection.alias


def write_live_input(live: LiveRun, stored: bytes, digest: str) -> None:
    """Set a live run's stored input (compressed canonical bytes) and its digest. On PostgreSQL
    the bytes go apart from the statement, as a run's record's do (write_record): an ICCF
    period's 3 MB would otherwise go into the statement as hex."""
    live.engine_input, live.input_digest = stored, digest
    if connection.vendor != "postgresql":
        live.save(update_fields=["engine_input", "input_digest"])
        return
    query = UpdateQuery(LiveRun)
    query.add_update_values({"engine_input": stored, "input_digest": digest})
    query.add_filter("pk", live.pk)
    with server_binding_cursor(connection) as cursor:
        cursor.execute(*query.get_compiler(connection=connection).as_sql())


def write_norms(run: RatingRun, rows: Sequence[NormRow]) -> None:
    SolvingNorm.objects.bulk_create(
        SolvingNorm(
            run=run,
            event_id=r.event_id,
            player_id=r.player_id,
            title=r.title,
            at_championship=r.at_championship,
        )
        for r in rows
    )
