"""The data of an EGF results table: what ``parse_table`` returns and ``write_table`` writes."""

from __future__ import annotations

from dataclasses import dataclass


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
