"""Go grades (RULES §2.1): the one grade type of the site.

The EGF table parser, the EGF engine and runner, the calendar (inactivity) and the player model
all read a grade through ``parse_grade``; the model stores ``str(grade)`` and its database check
is ``GRADE_PATTERN``, which matches exactly those strings.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

FLOOR = 100.0  # bottom value of GoR
MAX_KYU = 30
MAX_DAN = MAX_PRO = 9
RANGE_TEXT = "30k..1k, 1d..9d, 1p..9p"
# The stored (canonical) form: lower case, no leading zero, within the range above.
GRADE_PATTERN = r"^([1-9]|[12][0-9]|30)k$|^[1-9][dp]$"
_GRADE = re.compile(r"^(\d{1,2})([kdp]?)$")


@dataclass(frozen=True)
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

    @property
    def strength(self) -> int:
        """Orders grades by strength (nominal GoR); 1p (= 7d = 2700) ranks just above 7d."""
        return 2 * self.nominal + (self.kind == "p")

    @property
    def is_kyu(self) -> bool:
        return self.kind == "k"

    def __str__(self) -> str:
        return f"{self.number}{self.kind}"


@lru_cache(maxsize=512)
def parse_grade(text: str) -> Grade:
    """``5k``, ``5K``, `` 7d ``, ``1p``; a bare number is kyu (as in EGF tables).

    Raises ValueError naming the text when it is no grade or out of range.
    """
    match = _GRADE.match(text.strip().lower()) if isinstance(text, str) else None
    if match is None:
        raise ValueError(f"{text!r} is not a go grade ({RANGE_TEXT})")
    number, kind = int(match.group(1)), match.group(2) or "k"
    top = MAX_KYU if kind == "k" else MAX_DAN
    if not 1 <= number <= top:
        raise ValueError(f"grade {text!r} is out of range ({RANGE_TEXT})")
    return Grade(number, kind)


def normalise_grade(text: str) -> str:
    """The stored form: '3D' -> '3d', ' 12K ' -> '12k', '5' -> '5k'; ValueError when no grade."""
    return str(parse_grade(text))


def grade_rating(grade: str) -> float:
    """Starting GoR of the grade written ``grade`` (§2.1)."""
    return parse_grade(grade).rating


def stronger_grade(a: str | None, b: str | None) -> str | None:
    """The stronger of two written grades (either may be missing), in the stored form."""
    known = [parse_grade(g) for g in (a, b) if g]
    return str(max(known, key=lambda g: g.strength)) if known else None
