"""The command line's typed reading of an ICCF input: the JSON text decoded straight into
structs of the contract's usual shape (msgspec), twice as fast as a dict per entry.

It takes a document only when every entry has the usual shape and types; anything else (an
unknown key, a null where a number goes, a rated player without his RD, nesting too deep for
the decoder) gives None, and the dict reading decides what the document means or what is wrong
with it. Where both read a document, they read the same values
(tests/engines/test_iccf_typed_json.py).
"""

from __future__ import annotations

import msgspec
from msgspec import UNSET, Struct, UnsetType

from ratings.engines.iccf.types import Columns

# gc=False: structs of strings and numbers cannot form cycles, and 200,000 of them tracked by
# the cycle collector would cost time for nothing.


class _Player(Struct, forbid_unknown_fields=True, gc=False):
    id: str
    # UNSET, not None: the dict reading tells a missing rating from a null one
    rating: float | UnsetType = UNSET
    rd: float | UnsetType = UNSET
    unrated: bool = False
    fide: float | None = None


class _Game(Struct, forbid_unknown_fields=True, gc=False):
    white: str
    black: str
    result: float
    white_start: float | None = None
    black_start: float | None = None


class _Substitution(Struct, forbid_unknown_fields=True, gc=False):
    game: int
    side: str
    replaces: str


class TypedInput(Struct, forbid_unknown_fields=True, gc=False):
    players: list[_Player]
    games: list[_Game]
    # its text, which the contract reads as the dict reading reads it (jsonio.loads)
    params: msgspec.Raw = msgspec.Raw(b"null")
    substitutions: list[_Substitution] | None = None


_DECODER = msgspec.json.Decoder(TypedInput)


def decode(raw: bytes | memoryview) -> TypedInput | None:
    """The document as structs, or None when it is not of the usual shape (or types).

    Its numbers are the dict reading's: msgspec rounds a decimal text to the nearest float as
    float(json.loads(text)) does, whatever its length. An integer that only the strict reader
    would keep or refuse (beyond 64 bits) is out of every bound of these fields, so the bulk
    checks send such a document to the dict reading; the params are read by it anyway."""
    try:
        return _DECODER.decode(raw)
    except (msgspec.DecodeError, UnicodeDecodeError, RecursionError):
        return None


def columns(document: TypedInput) -> Columns | None:
    """The columns the dict reading would make of the same document (contract's
    _columns_from_json), or None where it would read the players entry by entry: a rated
    player needs his rating and RD, an unrated one has neither."""
    players = document.players
    rating = [p.rating for p in players]
    rd = [p.rd for p in players]
    for player, r, d in zip(players, rating, rd, strict=True):
        if (r is not UNSET or d is not UNSET) if player.unrated else (r is UNSET or d is UNSET):
            return None
    games = document.games
    return Columns(
        ids=[p.id for p in players],
        rating=[None if r is UNSET else r for r in rating],
        rd=[None if d is UNSET else d for d in rd],
        fide=[p.fide if p.unrated else None for p in players],
        white=[g.white for g in games],
        black=[g.black for g in games],
        result=[g.result for g in games],
        white_start=[g.white_start for g in games],
        black_start=[g.black_start for g in games],
    )


def substitutions(document: TypedInput) -> tuple[list[int], list[str], list[str]]:
    """The substitutions' games, sides and players replaced, as three columns."""
    subs = document.substitutions or ()
    return [s.game for s in subs], [s.side for s in subs], [s.replaces for s in subs]
