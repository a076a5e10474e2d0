"""``parse_table``: a whole results table read, every problem reported (line number and offending
text), never only the first."""

from __future__ import annotations

import re
from collections import Counter

from ratings.engines.core.grades import RANGE_TEXT, parse_grade
from tournaments.formats.egf.encoding import decode
from tournaments.formats.egf.entries import ENTRY_SHAPE, Line, is_certain_entry, read_entry
from tournaments.formats.egf.header import read_header
from tournaments.formats.egf.pairing import pair_games
from tournaments.formats.egf.types import Issue, ParsedTable, Player, TableError

# ASCII digits, bounded: str.isdigit() accepts "²" (int() then fails) and int() refuses more than
# 4300 digits; a longer number is simply not a place or a PIN.
_RANK = re.compile(r"^([0-9]{1,2})([kKdDpP]?)$")
_EXTENSION = re.compile(r"\.h(\d+)$", re.IGNORECASE)
_COUNTRY = re.compile(r"^[A-Za-z]{2}$")
_CRITERION = re.compile(r"^-?\d+(?:[.,]\d+)?\??$")
_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1b\x7f]")
_PLACE = re.compile(r"^[0-9]{1,6}$")
_PIN = re.compile(r"^[0-9]{1,20}$")  # EGD PINs have 8 digits; the site stores up to 20


def _split_player(line: Line, rounds: int, ordinal: int, errors: list[Issue]) -> Player | None:
    head = line.tokens[: len(line.tokens) - rounds]
    oversized = [t for t in head if ENTRY_SHAPE.match(t) and read_entry(t) is None]
    if oversized:
        errors.append(Issue(line.number, oversized[0], "a round entry with an impossible number"))
        return None
    place = None
    if head and _PLACE.match(head[0]):
        place = int(head[0])
        head = head[1:]
    rank_at = next((i for i, t in enumerate(head) if i > 0 and _RANK.match(t)), None)
    if rank_at is None:
        errors.append(
            Issue(line.number, line.text.strip(), "no name followed by a grade (5k, 2d, 1p)")
        )
        return None
    try:
        grade = parse_grade(head[rank_at])
    except ValueError:
        errors.append(Issue(line.number, head[rank_at], f"grade out of range ({RANGE_TEXT})"))
        return None
    names = [part.replace("_", " ") for part in head[:rank_at]]
    rest = head[rank_at + 1 :]
    country = club = None
    if rest and _COUNTRY.match(rest[0]):
        country, rest = rest[0].upper(), rest[1:]
    if rest and not _CRITERION.match(rest[0]):
        club, rest = rest[0], rest[1:]
    return Player(
        line=line.number,
        ordinal=ordinal,
        place=place,
        surname=names[0],
        first_name=" ".join(names[1:]),
        grade=str(grade),
        country=country,
        club=club,
        criteria=tuple(rest),
        pin=line.pin,
    )


def parse_table(
    text: str | bytes,
    *,
    filename: str | None = None,
    default_reduction: int | None = None,
) -> ParsedTable:
    """Parses a results table; ``.errors`` lists every problem (the table is unusable if any)."""
    errors: list[Issue] = []
    warnings: list[Issue] = []
    comments: list[tuple[int, str]] = []
    lines: list[Line] = []
    for number, raw in enumerate(decode(text).splitlines(), start=1):
        control = _CONTROL.search(raw)
        if control:  # NUL and friends: no table has them, and PostgreSQL text cannot hold NUL
            errors.append(Issue(number, "", f"control character U+{ord(control.group()):04X}"))
            continue
        body, semicolon, comment = raw.partition(";")
        if semicolon:
            comments.append((number, comment))
        body, bar, pin = body.partition("|")
        pin = pin.strip() or None
        tokens = body.split()
        if not tokens:
            if bar:
                errors.append(Issue(number, raw.strip(), "a PIN without a player"))
            continue
        if pin is not None and not _PIN.match(pin):
            errors.append(Issue(number, f"|{pin}", "EGD PIN must be digits (at most 20)"))
            pin = None
        lines.append(Line(number, body, tokens, pin))
    header = read_header(comments, errors, warnings)
    if not lines and not errors:
        errors.append(Issue(0, "", "no player lines"))

    # Round entries: the trailing run of entry-like tokens; the count is the longest "certain" run.
    certain = 0
    for line in lines:
        run = 0
        while run < len(line.tokens) and read_entry(line.tokens[-1 - run]) is not None:
            run += 1
        line.run = run
        sure = run
        while sure > 0 and not is_certain_entry(line.tokens[-sure]):
            sure -= 1
        certain = max(certain, sure)
    rounds = certain
    by_ordinal: list[Player | None] = []  # None: a broken line (its pairings are skipped)
    for ordinal, line in enumerate(lines, start=1):
        player = None
        if line.run < rounds:
            offending = line.tokens[-1 - line.run] if line.run < len(line.tokens) else line.text
            errors.append(
                Issue(
                    line.number,
                    offending,
                    f"not a round entry; every player line needs {rounds} round entries",
                )
            )
        else:
            player = _split_player(line, rounds, ordinal, errors)
        if player is not None:
            line.entries = [read_entry(t) for t in line.tokens[len(line.tokens) - rounds :]]
        by_ordinal.append(player)
    players = [p for p in by_ordinal if p is not None]

    _check_pins(players, errors)
    reduction = header.handicap_reduction
    if reduction is None and filename:
        match = _EXTENSION.search(filename)
        reduction = int(match.group(1)) if match else None
    if reduction is None:
        reduction = default_reduction
    games, free = pair_games(lines, by_ordinal, rounds, reduction, errors, warnings)
    errors.sort(key=lambda issue: issue.line)
    return ParsedTable(
        header, tuple(players), tuple(games), tuple(free), rounds, tuple(warnings), tuple(errors)
    )


def _check_pins(players: list[Player], errors: list[Issue]) -> None:
    counts = Counter(p.pin for p in players if p.pin)
    for player in players:
        if player.pin and counts[player.pin] > 1:
            errors.append(Issue(player.line, f"|{player.pin}", "PIN appears on more than one line"))


def parse_table_or_raise(text: str | bytes, **options) -> ParsedTable:
    table = parse_table(text, **options)
    if table.errors:
        raise TableError(list(table.errors))
    return table
