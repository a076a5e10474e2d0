"""The EGD world list ("allworld" page): read and write. Pure: stdlib only.

The page is HTML around a fixed-width ``<pre>`` table, one player a line:

     PIN  Name (Surname Given, spaces as _)  Co  Club  Grade  P&D   GoR  NT  Last appearance
 10537560  Aaij Rene                             NL  Gron    4d   --   2380    95  T180602E

The EGD pads columns by bytes while names are Latin-1 or UTF-8 line by line, so a row is read by
its shape from both ends (PIN first; country, club, grade, P&D, GoR, NT, last appearance last)
rather than by byte offsets. The list's date is printed as ``(01 Jul 2018)`` near the top and its
own count as ``Number of players: N`` at the end.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from datetime import date

from tournaments.formats.player_lists import (
    MONTHS,
    ListMeta,
    ListProblem,
    ListRow,
    decode_line,
)

_ROW = re.compile(
    r"^\s*(?P<pin>[0-9]{1,20})\s+(?P<name>\S.*?)\s+(?P<country>[A-Za-z?]{2})\s+(?P<club>\S+)"
    r"\s+(?P<grade>[0-9]{1,2}[kdpKDP])\s+(?P<pd>--|[0-9]{1,2}[kdpKDP])\s+(?P<gor>-?[0-9]{1,5})"
    r"\s+(?P<nt>[0-9]{1,6})(?:\s+(?P<last>[A-Za-z][0-9]{6}\S*))?\s*$"
)
_LOOKS_LIKE_ROW = re.compile(r"^\s*[0-9]{3,}\s")
_DATE = re.compile(r"^\s*\((\d{1,2}) ([A-Za-z]{3}) (\d{4})\)\s*$")
_COUNT = re.compile(r"^\s*Number of players:\s*([0-9]+)\s*$")
_NO_CLUB = re.compile(r"^x+$", re.IGNORECASE)  # the EGD's placeholder for "no club"
_LAST_DATE = re.compile(r"^[A-Za-z]([0-9]{2})([0-9]{2})([0-9]{2})")


def name_part(text: str) -> str:
    """EGD writes spaces inside a name as ``_``; a part of underscores only is its placeholder
    for an unknown name and is kept as written."""
    spaced = text.replace("_", " ").strip()
    return spaced or text


def egd_name_part(text: str) -> str:
    return text.replace(" ", "_") if text.strip() else text


def read_world_list(lines: Iterable[bytes]) -> Iterator[ListRow | ListProblem | ListMeta]:
    seen: dict[str, int] = {}
    for number, raw in enumerate(lines, start=1):
        text = decode_line(raw.rstrip(b"\r\n"))
        row = _ROW.match(text)
        if row is None:
            yield from _other_line(number, text)
            continue
        pin = str(int(row["pin"]))
        if pin in seen:
            yield ListProblem(
                number, text, f"PIN {pin} is listed twice (first on line {seen[pin]})"
            )
            continue
        seen[pin] = number
        surname, _, given = row["name"].partition(" ")
        yield ListRow(
            line=number,
            player_id=pin,
            surname=name_part(surname),
            given_name=name_part(given.strip()) if given.strip() else "",
            country=row["country"].upper(),
            club="" if _NO_CLUB.match(row["club"]) else row["club"],
            grade=row["grade"].lower(),
            rating=int(row["gor"]),
            tournaments=int(row["nt"]),
            last_appearance=row["last"] or "",
        )


def _other_line(number: int, text: str) -> Iterator[ListProblem | ListMeta]:
    if found := _DATE.match(text):
        month = found[2].lower()
        if month in MONTHS:
            try:
                yield ListMeta(
                    valid_from=date(int(found[3]), MONTHS.index(month) + 1, int(found[1]))
                )
                return
            except ValueError:
                pass
        yield ListProblem(number, text, "the list's date is no calendar date")
    elif found := _COUNT.match(text):
        yield ListMeta(declared_count=int(found[1]))
    elif _LOOKS_LIKE_ROW.match(text):
        yield ListProblem(
            number,
            text,
            "not a player row: expected PIN, name, country, club, grade, P&D, GoR, "
            "number of tournaments",
        )


def last_appearance_date(code: str) -> date | None:
    """``T180602E`` -> 2018-06-02 (years 50-99 are 19xx); None when the code has no date."""
    found = _LAST_DATE.match(code or "")
    if not found:
        return None
    year = int(found[1])
    try:
        return date(1900 + year if year >= 50 else 2000 + year, int(found[2]), int(found[3]))
    except ValueError:
        return None


def write_world_list(rows: Iterable[ListRow], *, list_date: date, title: str) -> Iterator[str]:
    """An EGD-style world list of ``rows`` (in the order given) that ``read_world_list`` reads
    back field for field."""
    yield (
        f"<html>\n<title>{_escape(title)}</title>\n<body>\n<center>\n<h1>{_escape(title)}</h1>\n"
        f"<hr>\n({list_date.day:02d} {MONTHS[list_date.month - 1].title()} {list_date.year})\n"
        "<hr>\n</center>\n\n<pre>\n<b>\n"
        "                                                                                    Last\n"
        "   PIN          Name                              Club     Grade P&D    GoR    NT "
        "appearance\n</b>\n"
    )
    count = 0
    for row in rows:
        count += 1
        name = egd_name_part(row.surname)
        if row.given_name:
            name += " " + egd_name_part(row.given_name)
        yield (
            f" {row.player_id:>8}  {name:<37} {row.country or 'XX':2}  {row.club or 'xxx':<4}  "
            f"{row.grade:>4}  {'--':>3}  {row.rating if row.rating is not None else 0:>5}  "
            f"{row.tournaments or 0:>4}  {row.last_appearance}".rstrip()
            + "\n"
        )
    yield f"\nNumber of players: {count}\n</pre>\n</body>\n</html>\n"


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
