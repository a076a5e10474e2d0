"""Checks a WFCC tournament before rating it; the first problem raises EngineInputError.

Entries are named as in the JSON input (``tournament.solvers[3].rounds[1]``), so the command
line and the Django side report the same place.
"""

from __future__ import annotations

import math
from decimal import Decimal

from ratings.engines.core.errors import EngineInputError
from ratings.engines.wfcc.categories import CHAMPIONSHIPS_O, CHAMPIONSHIPS_W, KT_VALUES, RULES
from ratings.engines.wfcc.types import MAX_POINTS_PER_PROBLEM, Tournament, WfccParams


def _finite(value: object, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise EngineInputError(where, f"must be a number, not {value!r}")
    if not math.isfinite(value):
        raise EngineInputError(where, f"must be finite, not {value!r}")
    return float(value)


def has_two_decimals(value: float) -> bool:
    """R9: points have at most two decimals (judged on the shortest repr, as rounding is)."""
    return (Decimal(repr(float(value))) * 100) % 1 == 0


def validate_params(params: WfccParams) -> None:
    if params.floor is not None:
        _finite(params.floor, "params.floor")


def _check_rules(rules: object, championship: object, where: str) -> None:
    if rules is None:
        if championship is not None:
            raise EngineInputError(f"{where}.championship", "needs the tournament's rules")
        return
    if rules not in RULES:
        raise EngineInputError(f"{where}.rules", f"must be 'W' or 'O', not {rules!r}")
    if championship is None:
        return
    allowed = CHAMPIONSHIPS_W if rules == "W" else CHAMPIONSHIPS_O
    if championship not in allowed:
        raise EngineInputError(
            f"{where}.championship",
            f"must be one of {', '.join(allowed)} under rules {rules}, not {championship!r}",
        )


def validate(tournament: Tournament, params: WfccParams) -> None:
    validate_params(params)
    where = "tournament"
    if not isinstance(tournament.id, str) or not tournament.id:
        raise EngineInputError(f"{where}.id", "must be a non-empty string")
    kt = _finite(tournament.kt, f"{where}.kt")
    if kt not in KT_VALUES:
        allowed = ", ".join(f"{v:g}" for v in KT_VALUES)
        raise EngineInputError(
            f"{where}.kt", f"must be an Annex coefficient ({allowed}), not {kt:g}"
        )
    _check_rules(tournament.rules, tournament.championship, where)
    if tournament.problems is not None:
        if not tournament.problems:
            raise EngineInputError(f"{where}.problems", "must not be empty")
        for r, count in enumerate(tournament.problems):
            if isinstance(count, bool) or not isinstance(count, int) or count < 1:
                raise EngineInputError(
                    f"{where}.problems[{r}]", f"must be a positive integer, not {count!r}"
                )
    if not tournament.solvers:
        raise EngineInputError(f"{where}.solvers", "must not be empty")
    round_count = (
        len(tournament.problems)
        if tournament.problems is not None
        else len(tournament.solvers[0].rounds)
    )
    seen: set[str] = set()
    for i, solver in enumerate(tournament.solvers):
        at = f"{where}.solvers[{i}]"
        if not isinstance(solver.id, str) or not solver.id:
            raise EngineInputError(f"{at}.id", "must be a non-empty string")
        if solver.id in seen:
            raise EngineInputError(f"{at}.id", f"duplicate solver id {solver.id!r}")
        seen.add(solver.id)
        if solver.country is not None and (
            not isinstance(solver.country, str) or not solver.country
        ):
            raise EngineInputError(f"{at}.country", "must be a non-empty string")
        if len(solver.rounds) == 0:
            raise EngineInputError(f"{at}.rounds", "must not be empty")
        if len(solver.rounds) != round_count:
            raise EngineInputError(
                f"{at}.rounds", f"has {len(solver.rounds)} rounds, the tournament {round_count}"
            )
        for r, points in enumerate(solver.rounds):
            _check_round(points, r, tournament.problems, f"{at}.rounds[{r}]")
        if solver.rating is not None:
            _finite(solver.rating, f"{at}.rating")
            if solver.half_ratings:
                raise EngineInputError(
                    f"{at}.half_ratings", "a solver with a full rating has no half-ratings"
                )
        else:
            if len(solver.half_ratings) > 1:
                raise EngineInputError(
                    f"{at}.half_ratings",
                    "two half-ratings make a full rating: give their average as rating",
                )
            for h, half in enumerate(solver.half_ratings):
                _finite(half, f"{at}.half_ratings[{h}]")
        if solver.time is not None and _finite(solver.time, f"{at}.time") < 0:
            raise EngineInputError(f"{at}.time", f"must not be negative, not {solver.time!r}")
    ratings = [s.rating for s in tournament.solvers if s.rating is not None]
    if len(ratings) < 2:
        raise EngineInputError(
            f"{where}.solvers", f"needs at least two solvers with a full rating, has {len(ratings)}"
        )
    if min(ratings) == max(ratings):
        raise EngineInputError(
            f"{where}.solvers", "all full ratings are equal: the regression is undefined"
        )


def _check_round(points: object, r: int, problems: tuple[int, ...] | None, where: str) -> None:
    value = _finite(points, where)
    if value < 0:
        raise EngineInputError(where, f"points must not be negative, not {value:g}")
    if problems is not None and value > MAX_POINTS_PER_PROBLEM * problems[r]:
        raise EngineInputError(
            where,
            f"{value:g} points exceed {MAX_POINTS_PER_PROBLEM} per problem for {problems[r]} problems",
        )
    if not has_two_decimals(value):
        raise EngineInputError(where, f"points have at most two decimals, not {value!r}")
