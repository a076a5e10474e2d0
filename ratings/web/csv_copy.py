"""The CSV export written by PostgreSQL itself (COPY … TO STDOUT), byte for byte what
exports.csv_lines writes: the same columns (exports.columns_for), cells neutralised the same way
(a text starting like a formula gets a leading apostrophe), empty cells unquoted, CRLF line ends.

COPY streams the list in the index's order without a Python object per row: a 100,000-row list
in a fraction of the time the row-by-row writer takes. Other databases use csv_lines.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator

from django.db import connection
from django.db.models import Case, F, Q, QuerySet, Value, When
from django.db.models.functions import Concat, NullIf

from ratings.models import RatingEntry
from ratings.selectors.common import SORTS
from ratings.web import exports

# exports.FORMULA_STARTS as a regular expression (PostgreSQL's ~ operator)
FORMULA_PATTERN = "^[" + "".join("\\-" if c == "-" else c for c in exports.FORMULA_STARTS) + "]"

BLOCK_BYTES = 1 << 16

_TEXT = {
    "fid": "player__federation_player_id",
    "surname": "player__surname",
    "given_name": "player__given_name",
    "country": "player__country",
    "club": "player__club",
    "grade": "player__grade",
}
_NUMBER = {
    "rank": "rank",
    "published_rating": "published_rating",
    "published_rd": "published_rd",
    "games": "games",
    "change": "published_change",
}


def _text(field: str):
    """Neutralised like exports.neutralise_formula; '' as NULL, which COPY writes unquoted."""
    guarded = Case(
        When(Q(**{f"{field}__regex": FORMULA_PATTERN}), then=Concat(Value("'"), F(field))),
        default=F(field),
    )
    return NullIf(guarded, Value(""))


def _cell(key: str):
    if key in _TEXT:
        return _text(_TEXT[key])
    if key in _NUMBER:
        return F(_NUMBER[key])
    if key == "flag":
        return Case(
            When(provisional=True, then=Value("P")), When(half_rating=True, then=Value("H"))
        )
    raise ValueError(f"no SQL for export column {key!r}")


def _header(columns: list[exports.ExportColumn]) -> bytes:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\r\n").writerow([c.header for c in columns])
    return buffer.getvalue().encode()


class _CrLf:
    """COPY ends lines with LF; csv_lines with CRLF. A line feed inside a quoted cell stays as it
    is in both, so the quotes are followed across chunks (a doubled quote toggles twice)."""

    def __init__(self):
        self.quoted = False

    def __call__(self, chunk: bytes) -> bytes:
        if not self.quoted and b'"' not in chunk:
            return chunk.replace(b"\n", b"\r\n")
        out = []
        for i, part in enumerate(chunk.split(b'"')):
            if i:
                out.append(b'"')
                self.quoted = not self.quoted
            out.append(part if self.quoted else part.replace(b"\n", b"\r\n"))
        return b"".join(out)


def supported() -> bool:
    return connection.vendor == "postgresql"


def csv_chunks(base: QuerySet[RatingEntry], sort: str, system) -> Iterator[bytes]:
    """The filtered entries ``base`` in ``sort`` order as CSV, in chunks as COPY sends them."""
    columns = exports.columns_for(system)
    rows = base.order_by(*SORTS[sort]).values_list(*(_cell(c.key) for c in columns))
    sql, params = rows.query.sql_with_params()
    yield _header(columns)
    line_ends = _CrLf()
    with (
        connection.cursor() as cursor,
        cursor.cursor.copy(f"COPY ({sql}) TO STDOUT WITH (FORMAT csv)", params) as copy,
    ):
        # COPY sends a message per row: gathered into blocks, or each row would be a write of
        # its own through the server to the socket
        block, size = [], 0
        for chunk in copy:
            block.append(chunk)
            size += len(chunk)
            if size >= BLOCK_BYTES:
                yield line_ends(b"".join(block))
                block, size = [], 0
        if block:
            yield line_ends(b"".join(block))
