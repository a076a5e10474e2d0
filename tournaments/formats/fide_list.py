"""FIDE rating lists: the fixed-width TXT and the XML download (read), and a FIDE-style TXT
(write). Pure: stdlib only.

TXT: FIDE has moved and renamed columns over the years, so the columns are taken from the header
line (``ID Number  Name  Fed Sex Tit WTit OTit FOA JUL25 Gms K B-day Flag``): each column runs from
its label to the next label. The rating column is the first one labelled like a rating (``JUL25``,
``SRtng``, ``Rtng``...). ``0`` or nothing means unrated.

XML (``<playerslist><player><fideid>…</fideid><name>…</name><rating>…</rating>…``, 856 MB for the
whole world): read with ``iterparse``, each ``<player>`` cleared when read, so memory stays flat.
Rows are not checked for repeated IDs here (that would hold every ID in memory): the importer
finds them in the database. Neither form names its own date; ``valid_from_of_name`` reads it from FIDE's file names
(``standard_jul25frl.txt``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import date
from typing import BinaryIO
from xml.etree.ElementTree import ParseError, iterparse

from tournaments.formats.player_lists import MONTHS, ListProblem, ListRow, decode_line

_RATING_LABEL = re.compile(r"^(?:[A-Za-z]{3}[0-9]{2}|SRtng|RRtng|BRtng|Rtng|Rating)$")
_GAMES_LABEL = re.compile(r"^(?:Gms|SGm|RGm|BGm|Gm|Games)$")
_LABELS = {
    "id": re.compile(r"^(?:ID Number|ID|FIDE ID|ID_Number)$"),
    "name": re.compile(r"^Name$"),
    "fed": re.compile(r"^(?:Fed|Federation)$"),
    "title": re.compile(r"^Tit$"),
    "birth": re.compile(r"^(?:B-day|Bday|Born|Birthday)$"),
}
_YEAR = re.compile(r"^[0-9]{4}$")
_ID = re.compile(r"^[0-9]{1,15}$")
_NAME_OF_FILE = re.compile(r"(?<![a-z])(" + "|".join(MONTHS) + r")([0-9]{2})(?![0-9])", re.I)


@dataclass(frozen=True)
class Column:
    label: str
    start: int
    end: int | None  # None: to the end of the line


def header_columns(header: str) -> list[Column]:
    """Every label of the header line and its span (``ID Number`` is one label)."""
    spots = [(m.start(), m.group()) for m in re.finditer(r"ID Number|FIDE ID|\S+", header)]
    return [
        Column(label, start, spots[i + 1][0] if i + 1 < len(spots) else None)
        for i, (start, label) in enumerate(spots)
    ]


def _layout(columns: list[Column]) -> dict[str, Column]:
    found: dict[str, Column] = {}
    for column in columns:
        for key, pattern in _LABELS.items():
            if key not in found and pattern.match(column.label):
                found[key] = column
        if "rating" not in found and _RATING_LABEL.match(column.label):
            found["rating"] = column
        elif "games" not in found and _GAMES_LABEL.match(column.label):
            found["games"] = column
    return found


def split_name(name: str) -> tuple[str, str]:
    """'Carlsen, Magnus' -> ('Carlsen', 'Magnus'); a name without a comma is all surname."""
    surname, _, given = name.partition(",")
    return surname.strip(), given.strip()


def _number(text: str) -> int | None:
    """FIDE's numbers: blank or 0 = none."""
    text = text.strip()
    return int(text) if text.isascii() and text.isdigit() and int(text) else None


def _row(line: int, fields: dict[str, str]) -> ListRow | ListProblem:
    raw = " | ".join(v for v in fields.values() if v)
    fide_id = fields.get("id", "").strip()
    if not _ID.match(fide_id):
        return ListProblem(line, raw, f"FIDE ID {fide_id!r} is not a number")
    surname, given = split_name(fields.get("name", ""))
    if not surname:
        return ListProblem(line, raw, f"FIDE ID {fide_id} has no name")
    rating_text = fields.get("rating", "").strip()
    if rating_text and not (rating_text.isascii() and rating_text.isdigit()):
        return ListProblem(line, raw, f"rating {rating_text!r} of FIDE ID {fide_id} is no number")
    rating = _number(rating_text)
    if rating is not None and not 0 < rating < 4000:
        return ListProblem(line, raw, f"rating {rating} of FIDE ID {fide_id} is out of range")
    birth = fields.get("birth", "").strip()
    return ListRow(
        line=line,
        player_id=str(int(fide_id)),
        surname=surname,
        given_name=given,
        country=fields.get("fed", "").strip().upper(),
        rating=rating,
        games=_number(fields.get("games", "")),
        birth_year=int(birth) if _YEAR.match(birth) and int(birth) else None,
        title=fields.get("title", "").strip(),
    )


def read_txt(lines: Iterable[bytes]) -> Iterator[ListRow | ListProblem]:
    layout: dict[str, Column] | None = None
    for number, raw in enumerate(lines, start=1):
        text = decode_line(raw.rstrip(b"\r\n"))
        if not text.strip():
            continue
        if layout is None:
            layout = _layout(header_columns(text))
            missing = {"id", "name", "rating"} - set(layout)
            if missing:
                yield ListProblem(
                    number,
                    text,
                    "the first line is no FIDE header: it needs the columns ID Number, Name and "
                    f"a rating column; missing {', '.join(sorted(missing))}",
                )
                return
            continue
        yield _row(number, {key: text[c.start : c.end] for key, c in layout.items()})


_XML_TAGS = {
    "fideid": "id",
    "name": "name",
    "country": "fed",
    "rating": "rating",
    "games": "games",
    "birthday": "birth",
    "title": "title",
}
_REFUSED_XML = (b"<!DOCTYPE", b"<!ENTITY")


def read_xml(stream: BinaryIO) -> Iterator[ListRow | ListProblem]:
    """``<player>`` elements in constant memory; problems are numbered by the player element
    (the 1st, 2nd, ... ``<player>`` of the file), since a parser cannot cheaply give lines."""
    head = stream.read(4096)
    if any(marker in head for marker in _REFUSED_XML):
        yield ListProblem(0, "", "the XML declares a DOCTYPE or entities; a FIDE list has none")
        return
    ordinal = 0
    root = None
    try:
        for event, element in iterparse(_Chained(head, stream), events=("start", "end")):
            if root is None:
                root = element
                continue
            if event != "end" or element.tag != "player":
                continue
            ordinal += 1
            fields = {
                _XML_TAGS[child.tag]: child.text or ""
                for child in element
                if child.tag in _XML_TAGS
            }
            element.clear()
            root.clear()  # drop the cleared element too: memory stays flat
            yield _row(ordinal, fields)
    except ParseError as error:
        yield ListProblem(error.position[0], "", f"the XML is not well-formed: {error}")


class _Chained:
    """A read()-able that first returns ``head``, then the rest of ``stream``."""

    def __init__(self, head: bytes, stream: BinaryIO) -> None:
        self._head, self._stream = head, stream

    def read(self, size: int = -1) -> bytes:
        if self._head:
            data, self._head = self._head, b""
            return data
        return self._stream.read(size)


def valid_from_of_name(name: str) -> date | None:
    """FIDE's file names carry the list's month: ``standard_jul25frl.txt`` -> 2025-07-01."""
    found = _NAME_OF_FILE.search(name)
    if not found:
        return None
    return date(2000 + int(found[2]), MONTHS.index(found[1].lower()) + 1, 1)


# ------------------------------------------------------------------------------------- writing

_WIDTHS = (("ID Number", 15), ("Name", 61), ("Fed", 4), ("Tit", 5))


def write_txt(rows: Iterable[ListRow], *, list_date: date) -> Iterator[str]:
    """FIDE-style fixed width: ID Number, Name ('Surname, Given'), Fed, Tit, the list's month
    (e.g. JUL25) as the rating column, Gms, B-day. ``read_txt`` reads it back."""
    label = f"{MONTHS[list_date.month - 1].upper()}{list_date.year % 100:02d}"
    header = "".join(text.ljust(width) for text, width in _WIDTHS)
    yield f"{header}{label:<6}Gms   B-day\n"
    for row in rows:
        name = f"{row.surname}, {row.given_name}" if row.given_name else row.surname
        cells = (row.player_id, name[:60], row.country, row.title)
        line = "".join(str(v).ljust(w) for v, (_, w) in zip(cells, _WIDTHS, strict=True))
        line += f"{row.rating or 0:<6}{row.games or 0:<6}{row.birth_year or '':<4}"
        yield line.rstrip() + "\n"
