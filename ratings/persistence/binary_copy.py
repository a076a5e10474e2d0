"""PostgreSQL's binary COPY format, built from NumPy columns in one pass (pure: no Django).

A run writes 400,000 event ratings; formatting them row by row in Python (psycopg's write_row)
costs seconds. Every field here has a fixed width, so the rows are one packed structured array:
a field count, then per column its length (-1 for NULL) and its big-endian value. A NULL has no
value bytes: they are cut out with a byte mask, which keeps the rows in order.

reference_encode is the same format written row by row with struct (the tests' reference).
"""

from __future__ import annotations

import struct
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np

HEADER = b"PGCOPY\n\xff\r\n\x00" + struct.pack(">ii", 0, 0)  # signature, flags, no extension
TRAILER = struct.pack(">h", -1)

# PostgreSQL type -> the big-endian NumPy type of its binary value
WIRE_TYPES = {
    "bigint": ">i8",
    "integer": ">i4",
    "smallint": ">i2",
    "double precision": ">f8",
    "boolean": "?",
}
JSONB_VERSION = b"\x01"  # jsonb's binary form: a version byte, then the JSON text


@dataclass(frozen=True)
class Column:
    wire: str  # a NumPy type of WIRE_TYPES, or "S<n>" for a constant jsonb value
    values: np.ndarray | int | float | bytes  # one per row, or one for every row
    null: np.ndarray | None = None  # True where the row's value is NULL


def jsonb_constant(text: str) -> Column:
    """The same JSON value in every row (e.g. {} for no details)."""
    value = JSONB_VERSION + text.encode()
    return Column(f"S{len(value)}", value)


def encode(columns: Sequence[Column], rows: int) -> bytes:
    """The whole COPY … FROM STDIN (FORMAT BINARY) stream of `rows` rows."""
    return HEADER + _rows(columns, rows) + TRAILER


def encode_pieces(columns: Sequence[Column], rows: int, piece_rows: int) -> Iterator[bytes]:
    """encode's stream in pieces of `piece_rows` rows (joined, they are encode's bytes): the
    server works on one piece while the next is encoded, instead of waiting for all of them."""
    yield HEADER
    for start in range(0, rows, piece_rows):
        stop = min(rows, start + piece_rows)
        yield _rows([_cut(column, start, stop) for column in columns], stop - start)
    yield TRAILER


def _cut(column: Column, start: int, stop: int) -> Column:
    """The column's rows start..stop (a value for every row stays one value)."""
    values = column.values[start:stop] if isinstance(column.values, np.ndarray) else column.values
    null = column.null[start:stop] if column.null is not None else None
    return Column(column.wire, values, null)


def taken(column: Column, order: np.ndarray) -> Column:
    """The column's rows in `order` (a value for every row stays one value)."""
    values = column.values[order] if isinstance(column.values, np.ndarray) else column.values
    null = column.null[order] if column.null is not None else None
    return Column(column.wire, values, null)


def _rows(columns: Sequence[Column], rows: int) -> bytes:
    """The rows of the stream, without its header and trailer."""
    fields = [("count", ">i2")]
    for i, column in enumerate(columns):
        fields += [(f"length{i}", ">i4"), (f"value{i}", column.wire)]
    table = np.empty(rows, dtype=np.dtype(fields))  # packed: no alignment padding
    table["count"] = len(columns)
    keep = None
    offset = 2
    for i, column in enumerate(columns):
        width = np.dtype(column.wire).itemsize
        table[f"length{i}"] = width
        table[f"value{i}"] = column.values
        if column.null is not None and column.null.any():
            table[f"length{i}"][column.null] = -1
            if keep is None:
                keep = np.ones((rows, table.dtype.itemsize), dtype=bool)
            keep[column.null, offset + 4 : offset + 4 + width] = False
        offset += 4 + width
    packed = table.view(np.uint8).reshape(rows, table.dtype.itemsize)
    body = packed[keep] if keep is not None else packed
    return body.tobytes()


def reference_encode(columns: Sequence[Column], rows: int) -> bytes:
    """encode, row by row with struct: what the tests compare it with."""
    out = [HEADER]
    for row in range(rows):
        out.append(struct.pack(">h", len(columns)))
        for column in columns:
            if column.null is not None and column.null[row]:
                out.append(struct.pack(">i", -1))
                continue
            if column.wire.startswith("S"):
                value = column.values
            else:
                values = column.values
                item = values[row] if isinstance(values, np.ndarray) else values
                code = {">i8": ">q", ">i4": ">i", ">i2": ">h", ">f8": ">d", "?": ">?"}
                value = struct.pack(
                    code[column.wire], item.item() if hasattr(item, "item") else item
                )
            out.append(struct.pack(">i", len(value)) + value)
    out.append(TRAILER)
    return b"".join(out)
