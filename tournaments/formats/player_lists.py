"""What every player-list reader yields (EGD world list, FIDE TXT/XML, CSV). Pure: stdlib only.

A reader is a generator over the file's lines (or elements) yielding, in file order:
``ListRow`` for each player, ``ListProblem`` for each line it cannot read (its line number and
text), and ``ListMeta`` facts it finds (the list's date, the count the file prints). Generators
keep a 1,000,000-row FIDE list in constant memory; callers that want it all use ``collect``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date

from tournaments.formats.egf import Issue


@dataclass(frozen=True)
class ListRow:
    line: int
    player_id: str  # EGD PIN, FIDE ID, the federation's id
    surname: str
    given_name: str = ""
    country: str = ""  # as the file writes it; the importer maps it to ISO 3166
    club: str = ""
    grade: str = ""  # go grade as written, e.g. "3d"
    rating: int | None = None  # None: unrated (FIDE writes 0 or nothing)
    tournaments: int | None = None  # EGD: number of tournaments
    games: int | None = None  # FIDE: games in the rating period
    birth_year: int | None = None
    title: str = ""
    last_appearance: str = ""  # EGD: the code of the player's last tournament, e.g. T180602E


# A line a reader cannot use: its number, its text and what is wrong (as in results tables).
ListProblem = Issue


@dataclass(frozen=True)
class ListMeta:
    valid_from: date | None = None
    declared_count: int | None = None


@dataclass
class CollectedList:
    rows: list[ListRow] = field(default_factory=list)
    problems: list[ListProblem] = field(default_factory=list)
    valid_from: date | None = None
    declared_count: int | None = None


def collect(items: Iterable[ListRow | ListProblem | ListMeta]) -> CollectedList:
    out = CollectedList()
    for item in items:
        if isinstance(item, ListRow):
            out.rows.append(item)
        elif isinstance(item, ListProblem):
            out.problems.append(item)
        else:
            out.valid_from = item.valid_from or out.valid_from
            if item.declared_count is not None:
                out.declared_count = item.declared_count
    return out


def decode_line(raw: bytes) -> str:
    """UTF-8 where the bytes are UTF-8, else Latin-1: the EGD list mixes both line by line."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
