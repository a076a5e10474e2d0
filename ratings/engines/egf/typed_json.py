"""The command line's typed reading of an EGF history: the JSON text decoded straight into
structs of the contract's usual shape (msgspec), without a dict per player entry or game.

It takes a document only when every entry has the usual keys and types and no number could
read differently by the strict reader (a run of 19 digits anywhere: jsonio.loads sends such a
text there). Anything else (an unknown key, a null where a number goes, a float handicap, a
number out of range, nesting too deep for the decoder) gives None, and the dict reading decides
what the document means or what is wrong with it. Where both read a document, they give the
same arrays (tests/engines/test_egf_typed_json.py).
"""

from __future__ import annotations

from itertools import chain

import msgspec
from msgspec import Struct

from ratings.engines.core import jsonio
from ratings.engines.egf.columns import ContractColumns

# gc=False: structs of strings and numbers cannot form cycles, and millions of them tracked by
# the cycle collector would cost time for nothing. Unknown keys are the dict reading's to judge
# (it ignores them, but their values may be numbers it refuses), so they are refused here.


class _Player(Struct, forbid_unknown_fields=True, gc=False):
    id: str
    grade: str
    rating: float | None = None
    highest_grade: str | None = None


class _Game(Struct, forbid_unknown_fields=True, gc=False):
    white: str
    black: str
    result: float
    handicap: int = 0


class _Tournament(Struct, forbid_unknown_fields=True, gc=False):
    id: str
    tournament_class: str = msgspec.field(name="class")
    players: list[_Player]
    games: list[_Game]
    date: str | None = None


class TypedInput(Struct, forbid_unknown_fields=True, gc=False):
    tournaments: list[_Tournament]
    # its text, which the contract reads as the dict reading reads it (jsonio.loads)
    params: msgspec.Raw = msgspec.Raw(b"null")


_DECODER = msgspec.json.Decoder(TypedInput)


def decode(raw: bytes | memoryview) -> TypedInput | None:
    """The document as structs, or None when it is not of the usual shape (or types), or when
    a number in it might be read otherwise by the strict reader.

    msgspec rounds a decimal text to the nearest float as float(json.loads(text)) does; an
    integer of 19 digits or more, which the strict reader keeps exactly or refuses, never
    reaches it (jsonio.has_long_digits, the dict reading's own switch)."""
    if jsonio.has_long_digits(raw):
        return None
    try:
        return _DECODER.decode(raw)
    except (msgspec.DecodeError, UnicodeDecodeError, RecursionError):
        return None


def contract_columns(document: TypedInput) -> ContractColumns:
    """The values the dict reading would take from the same document (columns.arrays_from_json),
    in the same order."""
    tournaments = document.tournaments
    players = list(chain.from_iterable(t.players for t in tournaments))
    games = list(chain.from_iterable(t.games for t in tournaments))
    return ContractColumns(
        tournament_ids=[t.id for t in tournaments],
        classes=[t.tournament_class for t in tournaments],
        entry_counts=[len(t.players) for t in tournaments],
        game_counts=[len(t.games) for t in tournaments],
        entry_ids=[p.id for p in players],
        grades=[p.grade for p in players],
        ratings=[p.rating for p in players],
        highest=[p.highest_grade for p in players],
        whites=[g.white for g in games],
        blacks=[g.black for g in games],
        results=[g.result for g in games],
        stones=[g.handicap for g in games],
    )
