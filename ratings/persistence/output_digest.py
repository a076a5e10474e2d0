"""The digest of what a run wrote (entries, event ratings, norms): stored on the run and its list,
recomputed from the database rows after a restore (tests/hardening/test_backup_restore.py).

It is the sha256 of the canonical JSON of the sorted rows, floats as their repr. A run's 400,000
event ratings in columns (EventRatingColumns) are formatted straight from the arrays into the
same bytes the row form gives (tests/ratings/persistence/test_columnar_writes.py checks both ways agree).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator

import numpy as np
import orjson

from ratings.engines.core.jsonio import float_text_array
from ratings.persistence.run_rows import EventRatingColumns

_DUMPS = json.JSONEncoder(separators=(",", ":")).encode
# Event ratings formatted per step. A run digests them while their COPY goes on in a second
# thread (persistence.event_ratings_written_alongside): one call formatting all 400,000 rows
# held the GIL for most of a second, and the COPY thread could not feed the server meanwhile.
PIECE_ROWS = 16_384


def output_digest(outcome) -> str:
    entries = sorted(
        (
            e.player_id,
            repr(e.rating),
            repr(e.rd),
            e.published_rating,
            e.published_rd,
            e.games,
            e.provisional,
            e.half_rating,
            e.listed,
        )
        for e in outcome.entries
    )
    norms = sorted((n.event_id, n.player_id, n.title) for n in outcome.norms)
    digest = hashlib.sha256()
    # the keys in sorted order, as json.dumps(sort_keys=True) writes them
    digest.update(f'{{"entries":{_DUMPS(entries)},"events":'.encode())
    for piece in events_json_pieces(outcome.event_ratings):
        digest.update(piece)
    digest.update(f',"norms":{_DUMPS(norms)}}}'.encode())
    return digest.hexdigest()


def events_json(rows) -> str:
    """The sorted (event, player, repr(before), repr(after), games) rows as JSON."""
    return b"".join(events_json_pieces(rows)).decode()


def events_json_pieces(rows) -> Iterator[bytes]:
    """events_json's UTF-8 bytes in pieces of at most PIECE_ROWS rows."""
    if not isinstance(rows, EventRatingColumns):
        rows = sorted(
            (r.event_id, r.player_id, repr(r.before), repr(r.after), r.games) for r in rows
        )
        yield _DUMPS(rows).encode()
        return
    # (event, player) is unique in a run: sorting by it sorts the whole rows
    order = np.lexsort((rows.player_id, rows.event_id))
    columns = (
        rows.event_id[order],
        rows.player_id[order],
        float_text_array(rows.before[order], nan_text="None"),
        float_text_array(rows.after[order], nan_text="None"),
        rows.games[order],
    )
    yield b"["
    for start in range(0, len(order), PIECE_ROWS):
        piece = (column[start : start + PIECE_ROWS].tolist() for column in columns)
        # orjson writes [int,int,"text","text",int] rows as compactly as _DUMPS does
        text = orjson.dumps(list(zip(*piece, strict=True)))
        if start:
            yield b","
        yield text[1:-1]
    yield b"]"
