"""The WFCC solvers' rating list as fixed-width text (write). Pure: stdlib only.

One solver a line: rank, name, country, rating, tournaments rated, and ``H`` for a half-rating
(a solver with only one of the two tournaments a full rating needs, RULES §4.2).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import date


@dataclass(frozen=True)
class SolverLine:
    rank: int | None
    surname: str
    given_name: str
    country: str
    rating: int
    tournaments: int
    half_rating: bool


def write_solvers(rows: Iterable[SolverLine], *, list_date: date, title: str) -> Iterator[str]:
    yield f"{title}\nValid from {list_date.isoformat()}\n\n"
    yield f"{'Rank':>5}  {'Name':<40} {'Ctry':<4} {'Rating':>6} {'Tnmts':>5}  Half\n"
    for row in rows:
        name = f"{row.surname}, {row.given_name}" if row.given_name else row.surname
        rank = "" if row.rank is None else row.rank
        flag = "H" if row.half_rating else ""
        yield (
            f"{rank:>5}  {name[:40]:<40} {row.country:<4} {row.rating:>6} "
            f"{row.tournaments:>5}  {flag}".rstrip()
            + "\n"
        )
