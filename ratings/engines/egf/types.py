"""Plain data of the EGF GoR engine (RULES §2): what goes in and out, and the columnar form."""

from __future__ import annotations

import gc
from collections.abc import Sequence
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np

EPSILON = 0.016  # official (RULES §2.2, setting EGF_EPSILON)


@dataclass(frozen=True)
class Params:
    epsilon: float = EPSILON
    weight_before_cap: bool = False  # setting EGF_WEIGHT_BEFORE_CAP (§2.3): cap, then weight


DEFAULT_PARAMS = Params()


@dataclass(frozen=True)
class PlayerEntry:
    """A player of one tournament. ``rating``: his GoR before it, if the caller knows it;
    ``highest_grade``: the highest grade he professed before (earlier runs), if any. The engine
    decides the reset (§2.1) from them."""

    id: str
    grade: str
    rating: float | None = None
    highest_grade: str | None = None  # highest grade professed before the history (a fact)


@dataclass(frozen=True)
class Game:
    """One played, rated game. ``result`` is White's score (1, 0.5, 0); Black receives ``handicap``."""

    white: str
    black: str
    result: float
    handicap: int = 0


@dataclass(frozen=True)
class Tournament:
    id: str
    tournament_class: str  # A, B, C or D
    date: str | None
    players: tuple[PlayerEntry, ...]
    games: tuple[Game, ...]


@dataclass(frozen=True)
class PlayerChange:
    """``start`` tells where ``before`` came from: given, carried, grade (new player) or reset."""

    id: str
    before: float
    after: float
    games: int
    start: str


@dataclass(frozen=True)
class TournamentChange:
    id: str
    players: tuple[PlayerChange, ...]


@dataclass(frozen=True)
class GameExplanation:
    opponent: str
    colour: str  # "w" or "b"
    handicap: int  # stones received by Black
    score: float  # the player's own result: 1, 0.5, 0
    rating: float  # own pre-tournament rating
    opponent_rating: float
    adjusted: float  # own rating shifted by the handicap he received
    opponent_adjusted: float
    a: float
    con: float
    expected: float  # SE
    change: float  # dR = con (score - SE), before the class weight


@dataclass(frozen=True)
class PlayerExplanation:
    id: str
    before: float
    class_weight: float
    games: tuple[GameExplanation, ...]
    sum_of_changes: float  # sum of dR over the games
    # §2.3, by default cap then weight: capped = max(sum, -100), weighted = weight x capped;
    # with weight_before_cap: weighted = weight x sum, capped = max(weighted, -100)
    weighted: float
    capped: float
    change: float  # the change applied: the later of the two steps
    weight_before_cap: bool
    after: float  # after the floor


@dataclass(frozen=True)
class HistoryArrays:
    """A history as flat columns, the shape a database query yields without per-row objects.

    Tournament t owns entries ``entry_offsets[t]:entry_offsets[t + 1]`` and games
    ``game_offsets[t]:game_offsets[t + 1]``. Players are numbers into ``player_ids``.
    ``entry_rating`` is NaN where the caller gives no pre-tournament rating.
    """

    tournament_ids: Sequence[str]
    tournament_classes: Sequence[str]
    player_ids: Sequence[str]
    entry_offsets: np.ndarray
    entry_player: np.ndarray
    entry_grade: Sequence[str]
    entry_rating: np.ndarray
    game_offsets: np.ndarray
    game_white: np.ndarray
    game_black: np.ndarray
    game_result: np.ndarray
    game_handicap: np.ndarray
    entry_highest_grade: Sequence[str | None] | None = None  # None: nothing stated


@dataclass(frozen=True)
class RatedHistory:
    """The result per entry (one player at one tournament), in the input's entry order."""

    arrays: HistoryArrays
    before: np.ndarray
    after: np.ndarray
    games: np.ndarray
    start: np.ndarray  # "given", "carried", "grade" or "reset"

    def changes(self) -> tuple[TournamentChange, ...]:
        with _gc_paused():
            return self._changes()

    def _changes(self) -> tuple[TournamentChange, ...]:
        a = self.arrays
        ids = [a.player_ids[p] for p in a.entry_player.tolist()]
        before, after = self.before.tolist(), self.after.tolist()
        games, start = self.games.tolist(), self.start.tolist()
        offsets = a.entry_offsets.tolist()
        return tuple(
            TournamentChange(
                id=tid,
                players=tuple(
                    map(
                        PlayerChange,
                        ids[offsets[t] : offsets[t + 1]],
                        before[offsets[t] : offsets[t + 1]],
                        after[offsets[t] : offsets[t + 1]],
                        games[offsets[t] : offsets[t + 1]],
                        start[offsets[t] : offsets[t + 1]],
                    )
                ),
            )
            for t, tid in enumerate(a.tournament_ids)
        )


@contextmanager
def _gc_paused():
    """Building hundreds of thousands of small acyclic result objects would otherwise trigger
    repeated full collections over the caller's (large) input; nothing cyclic is created."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
