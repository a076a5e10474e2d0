"""The digest of what a run wrote (entries, event ratings, norms): stored on the run and its list,
recomputed from the database rows after a restore (tests/hardening/test_backup_restore.py).

It is the sha256 of the canonical JSON of the sorted rows, floats as their repr. A run's 400,000
event ratings in columns (EventRatingColumns) are formatted straight from the arrays into the
same bytes the row form gives (tests/ratings/test_output_digest.py checks both ways agree).
"""

from __future__ import annotations

import hashlib
import json

import numpy as np

from ratings.engines.core.jsonio import float_texts_once
from ratings.run_rows import EventRatingColumns

_DUMPS = json.JSONEncoder(separators=(",", ":")).encode
_EVENT_ROW = '[%d,%d,"%s","%s",%d]'


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
    digest.update(events_json(outcome.event_ratings).encode())
    digest.update(f',"norms":{_DUMPS(norms)}}}'.encode())
    return digest.hexdigest()


def events_json(rows) -> str:
    """The sorted (event, player, repr(before), repr(after), games) rows as JSON."""
    if not isinstance(rows, EventRatingColumns):
        return _DUMPS(
            sorted((r.event_id, r.player_id, repr(r.before), repr(r.after), r.games) for r in rows)
        )
    # (event, player) is unique in a run: sorting by it sorts the whole rows
    order = np.lexsort((rows.player_id, rows.event_id))
    columns = (
        rows.event_id[order].tolist(),
        rows.player_id[order].tolist(),
        _reprs(rows.before[order]),
        _reprs(rows.after[order]),
        rows.games[order].tolist(),
    )
    return "[" + ",".join(map(_EVENT_ROW.__mod__, zip(*columns, strict=True))) + "]"


def _reprs(values: np.ndarray) -> list[str]:
    """repr of each value, "None" for NaN, each distinct value formatted once."""
    return float_texts_once(values, nan_text="None")
