"""Plain data of the PlayChess engine (RULES §3): what goes in and out."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from ratings.engines.core.rounding import half_up_int

# Plain data


@dataclass(frozen=True, slots=True)
class KTable:
    """k = r·g as data (RULES §3.3, [P][S]): piecewise-linear nodes (x, value), flat outside.

    The defaults are the ICCF/IECG table: r = 20 up to 2000, 70 − Ro/40 between, 10 from 2400;
    g = 1.25 up to 30 games, 1.4 − N/200 between, 1 from 80 games.
    """

    r_nodes: tuple[tuple[float, float], ...] = ((2000.0, 20.0), (2400.0, 10.0))
    g_nodes: tuple[tuple[float, float], ...] = ((30.0, 1.25), (80.0, 1.0))


@dataclass(frozen=True, slots=True)
class Params:
    entry_rating: float = 1500.0  # PLAYCHESS_DEFAULT_ENTRY_RATING (§3.2)
    k_table: KTable = KTable()  # PLAYCHESS_K_TABLE (§3.3)
    cutoff: float = 400.0  # the 400-point cut-off (official)
    established_games: int = 10  # established from this many finished rated games (official)


DEFAULT_PARAMS = Params()


@dataclass(frozen=True, slots=True)
class PriorGame:
    """One earlier provisional game as stored: the clamped opponent rating used, and the points."""

    opponent_rating: float
    result: float


@dataclass(frozen=True, slots=True)
class Player:
    """A player before the batch.

    rating None = unrated (enters at Params.entry_rating); a rating with games == 0 is a declared
    entry rating. A provisional player with games > 0 brings his earlier provisional games either
    as totals (score = points, opponents = Σ opponent ratings used) or as history.
    """

    id: str
    rating: float | None = None
    games: int = 0
    score: float | None = None
    opponents: float | None = None
    history: tuple[PriorGame, ...] | None = None


@dataclass(frozen=True, slots=True)
class Game:
    white: str
    black: str
    result: float  # White's points: 1, 0.5, 0


@dataclass(frozen=True, slots=True)
class PlayerResult:
    id: str
    rating: float | None  # unrounded; None = still unrated (no game, no declared rating)
    games: int
    provisional: bool
    score: float | None = None  # provisional only: totals over all provisional games so far
    opponents: float | None = None

    @property
    def published_rating(self) -> int | None:
        return None if self.rating is None else half_up_int(self.rating)


class GameResult(NamedTuple):
    """Per game: the opponent rating each side's calculation used (clamped), and how it was rated.

    *_change is the game's dR for a side rated as established, None for a provisional side (its
    rating is recomputed from all games, there is no per-game change). A NamedTuple rather than a
    dataclass: a batch has 100,000s of these and tuples are built several times faster.
    """

    white_opponent_rating: float
    black_opponent_rating: float
    white_provisional: bool
    black_provisional: bool
    white_change: float | None
    black_change: float | None


@dataclass(frozen=True, slots=True)
class BatchResult:
    players: tuple[PlayerResult, ...]
    games: tuple[GameResult, ...]


# Explanation ("explain my change", what-if calculator)


@dataclass(frozen=True, slots=True)
class ProvisionalGame:
    game: int  # index into the batch's games
    opponent: str
    opponent_rating: float  # the opponent's pre-batch rating
    opponent_rating_used: float  # clamped to the player's pre-batch rating ± cutoff
    result: float


@dataclass(frozen=True, slots=True)
class ProvisionalPart:
    rating_reference: float  # R_ref: the player's rating before the batch (clamp centre)
    games: int  # N: all provisional games so far, including this batch's
    score: float  # points over those games
    opponents: float  # Σ opponent ratings used over those games
    rc: float
    p: float
    f: float
    dp: float
    rating: float  # Rp = Rc + D(p)·F
    steps: tuple[ProvisionalGame, ...]


@dataclass(frozen=True, slots=True)
class EstablishedGame:
    game: int
    opponent: str
    opponent_rating: float
    opponent_rating_used: float  # clamped to Ro ± cutoff
    result: float
    r: float
    g: float
    k: float
    d: float  # clamp(Ro − R_opp, ±cutoff)
    we: float
    dr: float


@dataclass(frozen=True, slots=True)
class EstablishedPart:
    rating_before: float  # Ro (after the 10th game if the batch was split)
    games_before: int  # N for g
    r: float
    g: float
    k: float
    rating: float  # Rn = Ro + Σ dR
    steps: tuple[EstablishedGame, ...]


@dataclass(frozen=True, slots=True)
class Explanation:
    player: str
    rating_before: float | None
    games_before: int
    provisional: ProvisionalPart | None
    established: EstablishedPart | None
    result: PlayerResult
