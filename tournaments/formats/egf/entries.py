"""One round entry of a player line (``12+/w2``, ``0-``) as written, and the line it sits on."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

# ASCII digits, bounded: str.isdigit() accepts "²" (int() then fails) and int() refuses more than
# 4300 digits; a longer number is simply not a round entry.
_PLAYED = re.compile(r"^([0-9]{1,6})([+\-=?])(?:([/!])([bwBW?])?([0-9]{1,4})?)?$")
_FREE = re.compile(r"^0([+\-=])(0)?$")
ENTRY_SHAPE = re.compile(r"^[0-9]+[+\-=?](?:[/!][bwBW?]?[0-9]*)?$")  # any size of number


@dataclass(frozen=True)
class Entry:
    """One round entry as written."""

    token: str
    opponent: int  # 0 for a free round
    symbol: str
    separator: str | None = None
    colour: str | None = None  # "b", "w", "?" or None
    stones: int | None = None


@dataclass
class Line:
    number: int
    text: str
    tokens: list[str]
    pin: str | None
    run: int = 0  # trailing tokens that look like round entries
    entries: list[Entry] = field(default_factory=list)


def read_entry(token: str) -> Entry | None:
    free = _FREE.match(token)
    if free:
        return Entry(token, 0, free.group(1))
    played = _PLAYED.match(token)
    if not played:
        return None
    opponent, symbol, separator, colour, stones = played.groups()
    return Entry(
        token,
        int(opponent),
        symbol,
        separator,
        colour.lower() if colour else None,
        int(stones) if stones is not None else None,
    )


def is_certain_entry(token: str) -> bool:
    """``39?`` may also be a placement criterion (an SOS marked '?'); everything else is not."""
    return read_entry(token) is not None and not re.fullmatch(r"\d+\?", token)
