"""The JSON contract's input of a period held as columns (what a rating run builds from the
database): the same document without a dict per game.

A run's period has 200,000 games. Built as dicts, the input costs a dict per game, then the
engine reads the dicts back into columns and the run's record writes them as JSON. Held as
columns, the input goes to the core's arrays directly (``period_arrays``, the same bulk checks
as ``rate.bulk_arrays``) and writes the canonical JSON text itself (``canonical_bytes``), byte
for byte ``provenance.canonical_bytes`` of ``to_json()``: the stored input, its digest and a
replay are what they were (tests/ratings/engines/iccf/test_input_columns.py).

NaN stands for an absent value: a player's rating and RD when he is unrated (a rated player's
NaN RD is written null, as a dict with ``"rd": None`` is), his FIDE rating when he has none or
is rated, a game's start ratings when its tournament has none.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from json.encoder import encode_basestring_ascii

import numpy as np

from ratings.engines.core import jsonio
from ratings.engines.iccf.rate import RATING_BOUNDS, RD_CEILING
from ratings.engines.iccf.types import PeriodArrays

_CANONICAL = {"sort_keys": True, "separators": (",", ":"), "allow_nan": False}


@dataclass(frozen=True, eq=False)
class InputColumns:
    """A period's input document as columns: players by index, games by their players' index."""

    params: dict
    ids: tuple[str, ...]  # the players, in the input's order
    unrated: np.ndarray  # bool per player
    rating: np.ndarray  # per player; NaN when unrated
    rd: np.ndarray
    fide: np.ndarray  # per player; NaN for none (and for a rated player)
    white: np.ndarray  # per game: the index of White in ids
    black: np.ndarray
    result: np.ndarray  # White's score
    white_start: np.ndarray  # per game; NaN where the tournament gives no start ratings
    black_start: np.ndarray
    substitutions: list[dict]  # as in the contract: game index, side, replaced player's id

    def to_json(self) -> dict:
        """The input as the JSON contract's dicts (what the runner built before columns)."""
        return {
            "params": self.params,
            "players": [self._player(i) for i in range(len(self.ids))],
            "games": [self._game(i) for i in range(len(self.white))],
            "substitutions": self.substitutions,
        }

    def _player(self, i: int) -> dict:
        if self.unrated[i]:
            fide = float(self.fide[i])
            return {"id": self.ids[i], "unrated": True} | ({} if fide != fide else {"fide": fide})
        rd = float(self.rd[i])
        return {"id": self.ids[i], "rating": float(self.rating[i]), "rd": None if rd != rd else rd}

    def _game(self, i: int) -> dict:
        game = {
            "white": self.ids[self.white[i]],
            "black": self.ids[self.black[i]],
            "result": float(self.result[i]),
        }
        for side, starts in (("white_start", self.white_start), ("black_start", self.black_start)):
            start = float(starts[i])
            if start == start:
                game[side] = start
        return game

    def canonical_bytes(self) -> bytes:
        """``json.dumps(self.to_json(), sort_keys=True, separators=(",", ":"),
        allow_nan=False)``, encoded: written column by column, a format per row."""
        names = list(map(encode_basestring_ascii, self.ids))
        parts = [
            '{"games":[',
            ",".join(self._game_texts(names)),
            '],"params":',
            json.dumps(self.params, **_CANONICAL),
            ',"players":[',
            ",".join(self._player_texts(names)),
            '],"substitutions":',
            json.dumps(self.substitutions, **_CANONICAL),
            "}",
        ]
        return "".join(parts).encode()

    def _game_texts(self, names: list[str]) -> list[str]:
        named = np.array(names, dtype=object)
        has_white, has_black = ~np.isnan(self.white_start), ~np.isnan(self.black_start)
        columns = {
            "black": named[self.black],
            "black_start": _texts_where(self.black_start, has_black),
            "result": _texts_where(self.result, np.ones(len(self.result), dtype=bool)),
            "white": named[self.white],
            "white_start": _texts_where(self.white_start, has_white),
        }
        texts = np.empty(len(self.white), dtype=object)
        # one format per kind of game (a runner gives both start ratings or neither)
        for kind, (white_given, black_given) in _GAME_KINDS.items():
            rows = np.flatnonzero((has_white == white_given) & (has_black == black_given))
            for start in range(0, len(rows), PIECE_ROWS):
                piece = rows[start : start + PIECE_ROWS]
                values = [columns[key][piece].tolist() for key in _KEYS_OF[kind]]
                texts[piece] = list(map(kind.__mod__, zip(*values, strict=True)))
        return texts.tolist()

    def _player_texts(self, names: list[str]) -> list[str]:
        rated = ~self.unrated
        rating = _texts_where(self.rating, rated)
        rd_given = rated & ~np.isnan(self.rd)
        rd = _texts_where(self.rd, rd_given)
        has_fide = self.unrated & ~np.isnan(self.fide)
        fide = _texts_where(self.fide, has_fide)
        texts = []
        for i, (name, is_rated, given, has) in enumerate(
            zip(names, rated.tolist(), rd_given.tolist(), has_fide.tolist(), strict=True)
        ):
            if is_rated:
                texts.append(_RATED % (name, rating[i], rd[i] if given else "null"))
            elif has:
                texts.append(_UNRATED_FIDE % (fide[i], name))
            else:
                texts.append(_UNRATED % name)
        return texts

    def period_arrays(self) -> PeriodArrays | None:
        """The core's arrays, or None where ``rate.bulk_arrays`` of the same document would
        refuse (the dict reading then decides what the document means or names what is
        wrong): ids unique and not empty, values within their bounds, a rated player with a
        rating and an RD, results 0, ½ or 1, nobody playing himself."""
        rated = ~self.unrated
        if len(set(self.ids)) != len(self.ids) or "" in self.ids:
            return None
        if not (
            _within(self.rating[rated], RATING_BOUNDS, required=True)
            and _within(self.rd[rated], (1e-300, RD_CEILING), required=True)
            and _within(self.fide[self.unrated], RATING_BOUNDS)
            and _within(self.result, (0.0, 1.0), required=True)
            and _within(self.white_start, RATING_BOUNDS)
            and _within(self.black_start, RATING_BOUNDS)
            and (self.white != self.black).all()
            and np.isin(self.result, (0.0, 0.5, 1.0)).all()
        ):
            return None
        white = self.white.astype(np.intp)
        black = self.black.astype(np.intp)
        return PeriodArrays(
            ids=tuple(self.ids),
            rating=np.where(rated, self.rating, np.nan),
            rd=np.where(rated, self.rd, np.nan),
            fide=np.where(self.unrated, self.fide, np.nan),
            white=white,
            black=black,
            result=self.result.astype(np.float64),
            white_start=self.white_start.astype(np.float64),
            black_start=self.black_start.astype(np.float64),
            white_original=white.copy(),
            black_original=black.copy(),
        )


# Games formatted per step: a run stores its input while its event ratings' COPY goes on in a
# second thread, which one formatting call over a period's 200,000 games would keep waiting for
# the GIL (ratings.persistence.writers.event_ratings_written_alongside).
PIECE_ROWS = 16_384

# a game's text for each combination of start ratings given (White's, Black's), keys sorted
_GAME_KINDS = {
    '{"black":%s,"result":%s,"white":%s}': (False, False),
    '{"black":%s,"black_start":%s,"result":%s,"white":%s,"white_start":%s}': (True, True),
    '{"black":%s,"black_start":%s,"result":%s,"white":%s}': (False, True),
    '{"black":%s,"result":%s,"white":%s,"white_start":%s}': (True, False),
}
_KEYS_OF = {kind: re.findall(r'"(\w+)":%s', kind) for kind in _GAME_KINDS}
_RATED = '{"id":%s,"rating":%s,"rd":%s}'
_UNRATED_FIDE = '{"fide":%s,"id":%s,"unrated":true}'
_UNRATED = '{"id":%s,"unrated":true}'


def _texts_where(values: np.ndarray, present: np.ndarray) -> np.ndarray:
    """dumps of the present values, in place (None elsewhere); json.dumps refuses NaN and
    infinities here (allow_nan=False)."""
    texts = np.full(len(values), None, dtype=object)
    if present.any():
        given = values[present]
        if not np.isfinite(given).all():
            raise ValueError("Out of range float values are not JSON compliant")
        texts[present] = jsonio.float_text_array(given)
    return texts


def _within(values: np.ndarray, bounds: tuple[float, float], *, required: bool = False) -> bool:
    """Every value within bounds (NaN, an absent value, allowed unless ``required``)."""
    low, high = bounds
    given = values if required else values[~np.isnan(values)]
    return bool(((given >= low) & (given <= high)).all())
