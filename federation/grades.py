"""Go grades as players declare them: 30k..1k, 1d..9d, 1p..9p (pure, shared by forms and seeds)."""

import re

GRADE_PATTERN = r"^([1-9]|[12][0-9]|30)k$|^[1-9][dp]$"
_GRADE_RE = re.compile(GRADE_PATTERN)


def normalise_grade(text: str) -> str:
    """'3D' -> '3d', ' 12K ' -> '12k'; raises ValueError naming the text when it is no grade."""
    grade = text.strip().lower()
    if not _GRADE_RE.match(grade):
        raise ValueError(f"{text!r} is not a go grade (30k..1k, 1d..9d, 1p..9p)")
    return grade
