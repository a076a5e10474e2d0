"""EGF results tables (``.h9``, ``.h2``, ... as OpenGotha writes and the EGD stores them), RULES §2.6-2.8.

``parse_table`` reads a whole table and reports every problem it finds (line number and offending
text), never only the first; ``write_table`` writes a table back; ``engine_input`` turns a clean
table into the JSON shape of ``python -m ratings.engines egf``. Pure: standard library and the
shared go-grade type (``ratings.engines.core.grades``).

``python -m tournaments.formats.egf FILE`` prints that JSON (plus ``warnings``); errors -> exit 2.
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from ratings.engines.core.grades import RANGE_TEXT, parse_grade

EVEN_REDUCTION_FROM = 9  # setting EGF_EVEN_REDUCTION_FROM: reduction >= 9 means even games
IMPLICIT_HANDICAP_MAX = 9  # setting EGF_IMPLICIT_HANDICAP_MAX

# ASCII digits, bounded: str.isdigit() accepts "²" (int() then fails) and int() refuses more than
# 4300 digits; a longer number is simply not a round entry, a place or a tag value.
_PLAYED = re.compile(r"^([0-9]{1,6})([+\-=?])(?:([/!])([bwBW?])?([0-9]{1,4})?)?$")
_FREE = re.compile(r"^0([+\-=])(0)?$")
_RANK = re.compile(r"^([0-9]{1,2})([kKdDpP]?)$")
_TAG = re.compile(r"\b([A-Z]{2})\[([^\]]*)\]")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_EXTENSION = re.compile(r"\.h(\d+)$", re.IGNORECASE)
_COUNTRY = re.compile(r"^[A-Za-z]{2}$")
_CRITERION = re.compile(r"^-?\d+(?:[.,]\d+)?\??$")
_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1b\x7f]")
_PLACE = re.compile(r"^[0-9]{1,6}$")
_ENTRY_SHAPE = re.compile(r"^[0-9]+[+\-=?](?:[/!][bwBW?]?[0-9]*)?$")  # any size of number
_PIN = re.compile(r"^[0-9]{1,20}$")  # EGD PINs have 8 digits; the site stores up to 20
_KOMI = re.compile(r"^-?[0-9]{1,3}(?:[.,][0-9]{1,2})?$")


# ------------------------------------------------------------------------------------- data types


@dataclass(frozen=True)
class Issue:
    """An error or warning: the file line (1-based; 0 = the file as a whole) and its text."""

    line: int
    text: str
    message: str

    def __str__(self) -> str:
        offending = f" [{self.text}]" if self.text else ""
        return f"line {self.line}: {self.message}{offending}"


class TableError(ValueError):
    """Raised by ``parse_table_or_raise``: carries every error of the table."""

    def __init__(self, errors: list[Issue]) -> None:
        super().__init__("\n".join(map(str, errors)))
        self.errors = errors


@dataclass(frozen=True)
class Header:
    tournament_class: str | None = None  # CL: A, B, C, D
    name: str | None = None  # EV
    place: str | None = None  # PC as written, e.g. ",Olsztyn" or "PL,Olsztyn"
    country: str | None = None  # PC before the comma
    city: str | None = None  # PC after the comma
    start_date: str | None = None  # DT, ISO
    end_date: str | None = None
    handicap_reduction: int | None = None  # HA[hN]
    komi: float | None = None  # KM
    adjusted_time: int | None = None  # TM: TA in minutes
    comment: str | None = None  # CM
    egd_code: str | None = None  # TC


@dataclass(frozen=True)
class Player:
    line: int
    ordinal: int  # 1-based position among player lines: what opponent numbers refer to
    place: int | None  # printed place; None on tied rows
    surname: str
    first_name: str
    grade: str  # normalised: 7d, 30k, 1p
    country: str | None
    club: str | None
    criteria: tuple[str, ...]
    pin: str | None


@dataclass(frozen=True)
class TableGame:
    """One pairing. Scores are per side so that both-win / both-lose stay representable;
    ``None`` = unknown result. ``colours_known`` is False when neither colour was written and
    the grades do not decide it (then ``white`` is simply the earlier line)."""

    round: int  # 1-based
    white: int  # ordinal
    black: int  # ordinal
    white_score: float | None
    black_score: float | None
    handicap: int  # stones received by Black
    by_default: bool  # "!": not played
    rated: bool
    colours_known: bool = True
    explicit: bool = True  # the entries carried "/c[h]" (otherwise handicap from grades)

    @property
    def result(self) -> float | None:
        """White's result (1, 0.5, 0) for a normal decided game, else None."""
        if self.white_score is None or self.white_score + self.black_score != 1.0:
            return None
        return self.white_score


@dataclass(frozen=True)
class FreeRound:
    ordinal: int
    round: int
    symbol: str  # "+" free win, "-" free round, "=" half point


@dataclass(frozen=True)
class ParsedTable:
    header: Header
    players: tuple[Player, ...]
    games: tuple[TableGame, ...]
    free_rounds: tuple[FreeRound, ...]
    rounds: int
    warnings: tuple[Issue, ...]
    errors: tuple[Issue, ...]

    @property
    def ok(self) -> bool:
        return not self.errors


@dataclass(frozen=True)
class _Entry:
    """One round entry as written."""

    token: str
    opponent: int  # 0 for a free round
    symbol: str
    separator: str | None = None
    colour: str | None = None  # "b", "w", "?" or None
    stones: int | None = None


@dataclass
class _Line:
    number: int
    text: str
    tokens: list[str]
    pin: str | None
    run: int = 0  # trailing tokens that look like round entries
    entries: list[_Entry] = field(default_factory=list)


# ---------------------------------------------------------------------------------------- reading


_BOMS = (  # longest first: the UTF-32 LE mark starts with the UTF-16 LE one
    (b"\xff\xfe\x00\x00", "utf-32-le"),
    (b"\x00\x00\xfe\xff", "utf-32-be"),
    (b"\xef\xbb\xbf", "utf-8"),
    (b"\xff\xfe", "utf-16-le"),
    (b"\xfe\xff", "utf-16-be"),
)


def _utf16_without_bom(data: bytes) -> str | None:
    """UTF-16 saved without a byte-order mark (some Windows editors): ASCII text then has a NUL
    in every other byte; which half tells the byte order."""
    sample = data[:4096]
    if len(sample) < 4 or len(data) % 2:
        return None
    even, odd = sample[0::2].count(0), sample[1::2].count(0)
    half = len(sample) // 2
    if odd > 0.9 * half and even == 0:
        return "utf-16-le"
    if even > 0.9 * half and odd == 0:
        return "utf-16-be"
    return None


def decode(data: str | bytes) -> str:
    """[P] By byte-order mark (UTF-8, UTF-16, UTF-32), UTF-16 without one, UTF-8, else
    ISO-8859-15 (what OpenGotha writes). Undecodable UTF-16/32 bytes become U+FFFD."""
    if isinstance(data, str):
        return data
    for mark, encoding in _BOMS:
        if data.startswith(mark):
            return data[len(mark) :].decode(encoding, "replace")
    encoding = _utf16_without_bom(data)
    if encoding:
        return data.decode(encoding, "replace")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("iso8859_15")


def _entry(token: str) -> _Entry | None:
    free = _FREE.match(token)
    if free:
        return _Entry(token, 0, free.group(1))
    played = _PLAYED.match(token)
    if not played:
        return None
    opponent, symbol, separator, colour, stones = played.groups()
    return _Entry(
        token,
        int(opponent),
        symbol,
        separator,
        colour.lower() if colour else None,
        int(stones) if stones is not None else None,
    )


def _is_certain_entry(token: str) -> bool:
    """``39?`` may also be a placement criterion (an SOS marked '?'); everything else is not."""
    return _entry(token) is not None and not re.fullmatch(r"\d+\?", token)


def _is_date(text: str) -> bool:
    if not _DATE.match(text):
        return False
    try:
        date.fromisoformat(text)
    except ValueError:
        return False
    return True


def _read_header(lines: list[tuple[int, str]], errors: list[Issue], warnings: list[Issue]):
    values: dict[str, tuple[int, str]] = {}
    for number, comment in lines:
        for tag, value in _TAG.findall(comment):
            if tag in values:
                warnings.append(Issue(number, f"{tag}[{value}]", f"second {tag} tag ignored"))
            else:
                values[tag] = (number, value.strip())
    fields: dict = {}

    def bad(tag: str, message: str) -> None:
        number, value = values[tag]
        errors.append(Issue(number, f"{tag}[{value}]", message))

    if "CL" in values:
        value = values["CL"][1].upper()
        if value in ("A", "B", "C", "D"):
            fields["tournament_class"] = value
        else:
            bad("CL", "class must be A, B, C or D")
    if "EV" in values:
        fields["name"] = values["EV"][1]
    if "PC" in values:
        place = values["PC"][1]
        country, _, city = place.partition(",") if "," in place else ("", "", place)
        fields.update(place=place, country=country.strip() or None, city=city.strip() or None)
    if "DT" in values:
        dates = [d.strip() for d in values["DT"][1].split(",")]
        if len(dates) in (1, 2) and all(map(_is_date, dates)) and dates[0] <= dates[-1]:
            fields.update(start_date=dates[0], end_date=dates[-1])
        else:
            bad("DT", "dates must be YYYY-MM-DD[,YYYY-MM-DD], start before end")
    if "HA" in values:
        match = re.fullmatch(r"[hH]?([0-9]{1,2})", values["HA"][1])
        if match:
            fields["handicap_reduction"] = int(match.group(1))
        else:
            bad("HA", "handicap reduction must be hN")
    if "KM" in values:
        # float() alone would take "nan", "inf" and "1e999".
        if _KOMI.match(values["KM"][1]):
            fields["komi"] = float(values["KM"][1].replace(",", "."))
        else:
            bad("KM", "komi must be a number such as 6.5 or 0.5")
    if "TM" in values:
        if re.fullmatch(r"[0-9]{1,5}", values["TM"][1]):
            fields["adjusted_time"] = int(values["TM"][1])
        else:
            bad("TM", "adjusted time must be whole minutes")
    if "CM" in values:
        fields["comment"] = values["CM"][1]
    if "TC" in values:
        fields["egd_code"] = values["TC"][1]
    return Header(**fields)


def _split_player(line: _Line, rounds: int, ordinal: int, errors: list[Issue]) -> Player | None:
    head = line.tokens[: len(line.tokens) - rounds]
    oversized = [t for t in head if _ENTRY_SHAPE.match(t) and _entry(t) is None]
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
    lines: list[_Line] = []
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
        lines.append(_Line(number, body, tokens, pin))
    header = _read_header(comments, errors, warnings)
    if not lines and not errors:
        errors.append(Issue(0, "", "no player lines"))

    # Round entries: the trailing run of entry-like tokens; the count is the longest "certain" run.
    certain = 0
    for line in lines:
        run = 0
        while run < len(line.tokens) and _entry(line.tokens[-1 - run]) is not None:
            run += 1
        line.run = run
        sure = run
        while sure > 0 and not _is_certain_entry(line.tokens[-sure]):
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
            line.entries = [_entry(t) for t in line.tokens[len(line.tokens) - rounds :]]
        by_ordinal.append(player)
    players = [p for p in by_ordinal if p is not None]

    _check_pins(players, errors)
    reduction = header.handicap_reduction
    if reduction is None and filename:
        match = _EXTENSION.search(filename)
        reduction = int(match.group(1)) if match else None
    if reduction is None:
        reduction = default_reduction
    games, free = _pair(lines, by_ordinal, rounds, reduction, errors, warnings)
    errors.sort(key=lambda issue: issue.line)
    return ParsedTable(
        header, tuple(players), tuple(games), tuple(free), rounds, tuple(warnings), tuple(errors)
    )


def _check_pins(players: list[Player], errors: list[Issue]) -> None:
    counts = Counter(p.pin for p in players if p.pin)
    for player in players:
        if player.pin and counts[player.pin] > 1:
            errors.append(Issue(player.line, f"|{player.pin}", "PIN appears on more than one line"))


_OPPOSITE = {"+": "-", "-": "+", "=": "=", "?": "?"}
_SCORE = {"+": 1.0, "-": 0.0, "=": 0.5}


def _pair(lines, players, rounds, reduction, errors, warnings):
    """Matches both sides of every pairing, reports mismatches, builds the games."""
    games: list[TableGame] = []
    free: list[FreeRound] = []
    n = len(lines)
    missing_reduction_reported = False
    for r in range(rounds):
        for i, line in enumerate(lines, start=1):
            if not line.entries:
                continue  # a broken line, already reported
            entry = line.entries[r]
            where = f"round {r + 1}: "
            if entry.opponent == 0:
                free.append(FreeRound(i, r + 1, entry.symbol))
                continue
            if entry.opponent > n or entry.opponent == i:
                what = (
                    "no such player line" if entry.opponent > n else "a player cannot play himself"
                )
                errors.append(Issue(line.number, entry.token, where + what))
                continue
            other = lines[entry.opponent - 1]
            if not other.entries:
                continue  # the opponent's line is broken: nothing to compare with
            back = other.entries[r]
            if back.opponent != i:
                errors.append(
                    Issue(
                        line.number,
                        entry.token,
                        f"{where}line {other.number} (player {entry.opponent}) has "
                        f"{back.token!r}, not player {i}",
                    )
                )
                continue
            if entry.opponent < i:
                continue  # the pair was handled from the other side
            problem = _mismatch(entry, back)
            if problem:
                errors.append(
                    Issue(
                        line.number,
                        entry.token,
                        f"{where}{problem}: line {other.number} (player {entry.opponent}) "
                        f"has {back.token!r}",
                    )
                )
                continue
            game = _game(r + 1, i, entry, entry.opponent, back, players, reduction)
            if game is None:
                if not missing_reduction_reported:
                    errors.append(
                        Issue(
                            line.number,
                            entry.token,
                            "handicap not written and no reduction known (no HA[hN] tag, "
                            "no .hN file name): give the reduction",
                        )
                    )
                    missing_reduction_reported = True
                continue
            note = _warning(entry, back)
            if note:
                warnings.append(
                    Issue(
                        line.number,
                        entry.token,
                        f"{where}{note} (with line {other.number}): not rated",
                    )
                )
            games.append(game)
    return games, free


def _mismatch(entry: _Entry, back: _Entry) -> str | None:
    both_win_or_lose = entry.symbol == back.symbol and entry.symbol in "+-"
    if back.symbol != _OPPOSITE[entry.symbol] and not both_win_or_lose:
        return "results do not agree"
    if entry.separator != back.separator:
        return "one side by default ('!'), the other not"
    colours = (entry.colour, back.colour)
    if colours not in ((None, None), ("?", "?"), ("b", "w"), ("w", "b")):
        return "colours do not agree"
    if (entry.stones or 0) != (back.stones or 0):
        return "handicap stones do not agree"
    return None


def _warning(entry: _Entry, back: _Entry) -> str | None:
    if entry.separator == "!":
        return "game by default"
    if entry.symbol == "?":
        return "result unknown"
    if entry.symbol == back.symbol == "+":
        return "both players won"
    if entry.symbol == back.symbol == "-":
        return "both players lost"
    if entry.colour == "?":
        return "colours unknown"
    return None


def _game(round_, i, entry, j, back, players, reduction) -> TableGame | None:
    scores = (_SCORE.get(entry.symbol), _SCORE.get(back.symbol))
    colours_known = True
    explicit = entry.separator is not None
    if entry.colour in ("b", "w"):
        stones = entry.stones or 0
        white_is_i = entry.colour == "w"
    elif entry.colour == "?":
        stones, white_is_i, colours_known = entry.stones or 0, True, False
    else:
        # No colour written: handicap from the grades (explicit stones would still win).
        steps_i = parse_grade(players[i - 1].grade).steps
        steps_j = parse_grade(players[j - 1].grade).steps
        if entry.stones is not None:
            stones = entry.stones
        elif entry.separator == "!":
            stones = 0  # not played, not rated: no reduction needed
        elif reduction is None:
            return None
        elif reduction >= EVEN_REDUCTION_FROM:
            stones = 0
        else:
            stones = min(max(abs(steps_i - steps_j) - reduction, 0), IMPLICIT_HANDICAP_MAX)
        # With stones, Black is the weaker grade; an even game written without colours keeps
        # them unknown (White = the earlier line; colours do not matter to an even game's rating).
        colours_known = stones > 0
        white_is_i = steps_i >= steps_j if colours_known else True
    rated = (
        entry.separator != "!"
        and None not in scores
        and scores[0] + scores[1] == 1.0
        and (colours_known or stones == 0)
        and entry.colour != "?"
    )
    white, black = (i, j) if white_is_i else (j, i)
    white_score, black_score = scores if white_is_i else scores[::-1]
    return TableGame(
        round=round_,
        white=white,
        black=black,
        white_score=white_score,
        black_score=black_score,
        handicap=stones,
        by_default=entry.separator == "!",
        rated=rated,
        colours_known=colours_known,
        explicit=explicit,
    )


def parse_table_or_raise(text: str | bytes, **options) -> ParsedTable:
    table = parse_table(text, **options)
    if table.errors:
        raise TableError(list(table.errors))
    return table


# ---------------------------------------------------------------------------------------- writing


def _result_token(game: TableGame, ordinal: int) -> str:
    white = game.white == ordinal
    opponent = game.black if white else game.white
    score = game.white_score if white else game.black_score
    symbol = {1.0: "+", 0.0: "-", 0.5: "="}.get(score, "?")
    if not game.explicit:
        return f"{opponent}{symbol}"
    separator = "!" if game.by_default else "/"
    colour = ("w" if white else "b") if game.colours_known else "?"
    return f"{opponent}{symbol}{separator}{colour}{game.handicap}"


def write_table(table: ParsedTable, *, generator: str = "federation-ratings") -> str:
    """The table as text, in OpenGotha's layout (one line per player, ordinals in line order)."""
    h = table.header
    out = []
    tags = [
        ("CL", h.tournament_class),
        ("EV", h.name),
        ("PC", h.place),
        (
            "DT",
            h.start_date and ",".join(dict.fromkeys([h.start_date, h.end_date or h.start_date])),
        ),
        ("HA", None if h.handicap_reduction is None else f"h{h.handicap_reduction}"),
        ("KM", None if h.komi is None else f"{h.komi:g}"),
        ("TM", h.adjusted_time),
        ("CM", h.comment),
        ("TC", h.egd_code),
    ]
    out += [f"; {tag}[{value}]" for tag, value in tags if value is not None]
    out.append(f"; Generated by {generator}")
    cells: dict[tuple[int, int], str] = {}
    for game in table.games:
        for ordinal in (game.white, game.black):
            cells[ordinal, game.round] = _result_token(game, ordinal)
    for item in table.free_rounds:
        cells[item.ordinal, item.round] = f"0{item.symbol}"
    for p in table.players:
        name = f"{p.surname.replace(' ', '_')} {p.first_name.replace(' ', '_')}".strip()
        parts = [
            f"{p.place if p.place is not None else '':>4}",
            f"{name:<30}",
            f"{p.grade.upper():>3}",
            p.country or "XX",
            f"{p.club or 'xxxx':>4}",
            *p.criteria,
            *(f"{cells.get((p.ordinal, r), '0-'):>8}" for r in range(1, table.rounds + 1)),
        ]
        line = " ".join(parts)
        out.append(f"{line} |{p.pin}" if p.pin else line)
    return "\n".join(out) + "\n"


# ------------------------------------------------------------------------------ the engine's input


def player_ids(table: ParsedTable) -> list[str]:
    """PINs where present, else line ordinals as strings."""
    return [p.pin or str(p.ordinal) for p in table.players]


def engine_input(table: ParsedTable, *, tournament_id: str | None = None) -> dict:
    """One tournament in the JSON shape of ``python -m ratings.engines egf``: rated games only."""
    ids = player_ids(table)
    if len(set(ids)) != len(ids):
        raise TableError([Issue(0, "", "a PIN equals another player's line ordinal")])
    h = table.header
    if h.tournament_class is None:
        raise TableError([Issue(0, "", "no CL[A|B|C|D] tag: the tournament class is unknown")])
    tournament: dict = {
        "id": tournament_id or h.egd_code or h.name or "T",
        "class": h.tournament_class,
    }
    if h.end_date:
        tournament["date"] = h.end_date
    tournament["players"] = [
        {"id": pid, "grade": p.grade} for pid, p in zip(ids, table.players, strict=True)
    ]
    tournament["games"] = [
        {
            "white": ids[g.white - 1],
            "black": ids[g.black - 1],
            "result": g.result,
            "handicap": g.handicap,
        }
        for g in table.games
        if g.rated
    ]
    return {"tournaments": [tournament], "warnings": [str(w) for w in table.warnings]}


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m tournaments.formats.egf FILE", file=sys.stderr)
        return 2
    path = Path(args[0])
    try:
        data = path.read_bytes()
    except OSError as exc:
        print(f"line 0: {path}: {exc.strerror or 'cannot be read'}", file=sys.stderr)
        return 2
    try:
        table = parse_table_or_raise(data, filename=path.name)
        output = engine_input(table, tournament_id=table.header.egd_code or path.stem)
    except TableError as exc:
        for issue in exc.errors:
            print(str(issue).replace("\n", " "), file=sys.stderr)
        return 2
    sys.stdout.write(json.dumps(output, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
