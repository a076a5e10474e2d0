"""The rows a rating run produces, as plain typed data (no Django): what the runners return and
the writers (ratings.persistence.writers) and the digest (ratings.persistence.output_digest) take."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass
class EntryRow:
    player_id: int
    rating: float
    published_rating: int
    rd: float | None = None
    published_rd: int | None = None
    games: int = 0
    total_games: int = 0
    provisional: bool = False
    half_rating: bool = False
    listed: bool = True
    state: dict = field(default_factory=dict)


@dataclass
class EventRatingRow:
    event_id: int
    player_id: int
    before: float | None
    after: float
    games: int
    before_rd: float | None = None
    after_rd: float | None = None
    score: float | None = None
    details: dict = field(default_factory=dict)


@dataclass
class EventRatingColumns:
    """A run's event ratings as columns, one row per (event, player) in that order (the form
    a run of 400,000 of them is interpreted and written in). NaN stands for no value (a player
    without a rating before the period); iterating gives EventRatingRow with None there."""

    event_id: np.ndarray  # int64
    player_id: np.ndarray  # int64
    before: np.ndarray  # float64
    after: np.ndarray
    games: np.ndarray  # int64
    before_rd: np.ndarray
    after_rd: np.ndarray
    score: np.ndarray

    def __len__(self) -> int:
        return len(self.event_id)

    def __iter__(self):
        columns = (
            self.event_id.tolist(),
            self.player_id.tolist(),
            none_for_nan(self.before),
            self.after.tolist(),
            self.games.tolist(),
            none_for_nan(self.before_rd),
            none_for_nan(self.after_rd),
            none_for_nan(self.score),
        )
        for values in zip(*columns, strict=True):
            yield EventRatingRow(*values)


def none_for_nan(values: np.ndarray) -> list:
    return [None if value != value else value for value in values.tolist()]


@dataclass
class NormRow:
    event_id: int
    player_id: int
    title: str
    at_championship: bool
