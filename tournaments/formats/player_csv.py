"""A federation's own player list as CSV (UTF-8, comma or semicolon): read. Pure: stdlib only.

The first line names the columns (any order, any case): ``id`` and ``surname`` are required;
``given_name``, ``country``, ``club``, ``grade``, ``rating``, ``games``, ``birth_year`` are read
when present; other columns are ignored.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable, Iterator

from tournaments.formats.player_lists import ListProblem, ListRow, decode_line

_ALIASES = {
    "id": "id",
    "pin": "id",
    "federation_id": "id",
    "surname": "surname",
    "last_name": "surname",
    "given_name": "given_name",
    "first_name": "given_name",
    "country": "country",
    "club": "club",
    "grade": "grade",
    "rating": "rating",
    "games": "games",
    "birth_year": "birth_year",
}
_INT = re.compile(r"^-?[0-9]{1,6}$")


def read_csv(lines: Iterable[bytes]) -> Iterator[ListRow | ListProblem]:
    texts = (decode_line(raw).lstrip("\ufeff").rstrip("\r\n") for raw in lines)
    header_line = next(texts, None)
    if header_line is None:
        yield ListProblem(1, "", "the file is empty")
        return
    delimiter = ";" if header_line.count(";") > header_line.count(",") else ","
    names = [
        _ALIASES.get(n.strip().lower().replace(" ", "_")) for n in header_line.split(delimiter)
    ]
    if "id" not in names or "surname" not in names:
        yield ListProblem(1, header_line, "the header needs the columns id and surname")
        return
    seen: dict[str, int] = {}
    for number, cells in enumerate(csv.reader(texts, delimiter=delimiter), start=2):
        if not any(c.strip() for c in cells):
            continue
        fields = {n: c.strip() for n, c in zip(names, cells, strict=False) if n}
        text = delimiter.join(cells)
        numbers = {}
        bad = [
            key
            for key in ("rating", "games", "birth_year")
            if fields.get(key) and not _INT.match(fields[key])
        ]
        if bad:
            yield ListProblem(number, text, f"{', '.join(bad)} must be whole numbers")
            continue
        for key in ("rating", "games", "birth_year"):
            numbers[key] = int(fields[key]) if fields.get(key) else None
        if not fields.get("id") or not fields.get("surname"):
            yield ListProblem(number, text, "id and surname are required")
            continue
        if fields["id"] in seen:
            yield ListProblem(
                number,
                text,
                f"id {fields['id']} is listed twice (first on line {seen[fields['id']]})",
            )
            continue
        seen[fields["id"]] = number
        yield ListRow(
            line=number,
            player_id=fields["id"],
            surname=fields["surname"],
            given_name=fields.get("given_name", ""),
            country=fields.get("country", "").upper(),
            club=fields.get("club", ""),
            grade=fields.get("grade", "").lower(),
            rating=numbers["rating"],
            games=numbers["games"],
            birth_year=numbers["birth_year"],
        )
