"""Plain data of the ICCF engine (RULES §1): what goes in and out, and the array form."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True)
class Params:
    alpha0: float = 0.0  # white advantage (§1.7); 0 = official ICCF
    alpha1: float = 0.0
    rd_cap: float | None = 120.0  # None = Appendix 1 text, no cap (§1.2)
    c: float = 25.0  # RD inflation per period


@dataclass(frozen=True)
class Player:
    """Values carried from the end of the previous period; ``rating=None`` = unrated.

    ``fide`` is the declared FIDE rating of an unrated player (ignored for rated players).
    """

    id: str
    rating: float | None = None
    rd: float | None = None
    fide: float | None = None


@dataclass(frozen=True)
class Game:
    """One rated game; ``result`` is White's score. ``*_start``: start rating in the tournament."""

    white: str
    black: str
    result: float
    white_start: float | None = None
    black_start: float | None = None


@dataclass(frozen=True)
class Substitution:
    """Rule 6: the player named on ``side`` of ``games[game]`` played instead of ``replaces``."""

    game: int
    side: str
    replaces: str


@dataclass(frozen=True)
class PlayerResult:
    """End of period; ``rating is None`` = still unrated (played nothing)."""

    id: str
    rating: float | None
    rd: float | None
    published_rating: int | None
    published_rd: int | None
    games: int

    @property
    def unrated(self) -> bool:
        return self.rating is None


@dataclass(frozen=True)
class GameExplanation:
    """One game as it entered the player's update (RULES §1.3 names)."""

    game: int
    colour: str
    y: float
    played_by: str  # who sat at the board (a substitute, when rule 6 gave the game to this player)
    opponent: str  # whose rating and RD were used (rule 6: the higher-rated of original/substitute)
    opponent_played_by: str
    opponent_rating: float  # after rule 1.4
    opponent_rd: float
    pw_minus: float
    pw_plus: float
    pd_minus: float
    pd_plus: float
    pl_minus: float
    pl_plus: float
    p: float
    w1_minus: float
    w1_plus: float
    w2_minus: float
    w2_plus: float
    d1: float
    d2: float


@dataclass(frozen=True)
class SubstituteDecision:
    """Rule 6 test of one substituted side: D1 of the game for the substitute alone."""

    game: int
    side: str
    substitute: str
    replaces: str
    d1: float
    counted_for: str


@dataclass(frozen=True)
class PlayerExplanation:
    id: str
    start_rating: float
    start_rd: float
    mu: float
    sigma: float
    games: tuple[GameExplanation, ...]
    substitute_decisions: tuple[SubstituteDecision, ...]  # rule 6 tests involving this player
    sum_d1: float
    sum_d2: float
    sigma_prime: float | None  # None: unrated and played nothing
    mu_prime: float | None
    rating: float | None
    rd: float | None
    published_rating: int | None
    published_rd: int | None


@dataclass(frozen=True)
class Columns:
    """A period as plain columns, before any check: what both the dataclasses and the JSON
    contract are turned into on their way to arrays."""

    ids: list[Any]
    rating: list[Any]
    rd: list[Any]
    fide: list[Any]  # None for a rated player (§1.1: his FIDE rating is not used)
    white: list[Any]
    black: list[Any]
    result: list[Any]
    white_start: list[Any]
    black_start: list[Any]


@dataclass(frozen=True, eq=False)
class PeriodArrays:
    """A validated period as arrays. NaN = absent (unrated, no FIDE rating, no start rating).

    ``*_original`` is the player a substitute replaced, or the named player himself.
    """

    ids: tuple[str, ...]
    rating: np.ndarray
    rd: np.ndarray
    fide: np.ndarray
    white: np.ndarray
    black: np.ndarray
    result: np.ndarray
    white_start: np.ndarray
    black_start: np.ndarray
    white_original: np.ndarray
    black_original: np.ndarray


@dataclass(frozen=True, eq=False)
class PeriodOutcome:
    """End of period per player index; ``rated`` False = stays unrated (values NaN)."""

    rating: np.ndarray
    rd: np.ndarray
    games: np.ndarray
    rated: np.ndarray
    start_rating: np.ndarray
    start_rd: np.ndarray
    white_counted: np.ndarray  # index of the player each game side counted for (rule 6)
    black_counted: np.ndarray
