"""PostgreSQL's binary COPY format, built from NumPy columns in one pass (pure: no Django).

A run writes 400,000 event ratings; formatting them row by row in Python (psycopg's write_row)
costs seconds. Every field here has a fixed width, so the rows are one packed structured array:
a field count, then per column its length (-1 for NULL) and its big-endian value. A NULL has no
value bytes: they are cut out with a byte mask, which keeps the rows in order.

reference_encode is the same format written row by row with struct (the tests' reference).
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
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
    return HEADER + body.tobytes() + TRAILER


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
