"""Go grades (RULES §2.1): kyu, dan and professional, their GoR values and their steps."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

FLOOR = 100.0  # bottom value of GoR
_GRADE = re.compile(r"^(\d{1,2})([kdp]?)$")


@dataclass(frozen=True, order=True)
class Grade:
    """A professed grade. ``kind`` is ``k`` (kyu), ``d`` (dan) or ``p`` (professional)."""

    number: int
    kind: str

    @property
    def nominal(self) -> int:
        """The grade's GoR before the floor: 1d = 2100, 100 per grade, 1p = 2700, 30 per pro grade."""
        if self.kind == "k":
            return 2100 - 100 * self.number
        if self.kind == "d":
            return 2000 + 100 * self.number
        return 2670 + 30 * self.number

    @property
    def rating(self) -> float:
        """Starting GoR of a new (or reset) player: weaker than 20k starts at the floor."""
        return max(float(self.nominal), FLOOR)

    @property
    def steps(self) -> int:
        """Grade steps for implicit handicaps (§2.8): kyu k -> -k, dan d -> d - 1, pro as 7d."""
        if self.kind == "k":
            return -self.number
        if self.kind == "d":
            return self.number - 1
        return 6

    def __str__(self) -> str:
        return f"{self.number}{self.kind}"


@lru_cache(maxsize=512)
def parse_grade(text: str) -> Grade:
    """``5k``, ``5K``, ``7d``, ``1p``; a bare number is kyu. Raises ValueError when malformed."""
    match = _GRADE.match(text.strip().lower()) if isinstance(text, str) else None
    if match is None:
        raise ValueError(f"grade must look like 5k, 2d or 1p, not {text!r}")
    number, kind = int(match.group(1)), match.group(2) or "k"
    if number < 1 or (kind != "k" and number > 9):
        raise ValueError(f"grade {text!r} is out of range (1-99 kyu, 1-9 dan, 1-9 pro)")
    return Grade(number, kind)


def grade_rating(grade: str) -> float:
    return parse_grade(grade).rating
