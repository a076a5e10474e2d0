"""JSON in and out for ``python -m ratings.engines wfcc INPUT.json``: what a run rates, a
period's tournaments in order with the half-ratings carried from the previous list (types only
here; the rules are checked by ``wfcc.validate`` on the dataclasses, for the Django side too).

input:  {"params": {"floor": 0},                                               (optional)
         "half_ratings": {"s2": [2310.5]},       (optional: of solvers without a full rating)
         "tournaments": [{"id": "ECSC-2026", "kt": 4, "multi_location": false,
                          "problems": [6, 6, 6],  (optional: problems per round, bounds points)
                          "rules": "W", "championship": "ECSC",     (optional: category hint)
                          "solvers": [{"id": "s1", "country": "SRB", "rating": 2612.0,
                                       "rounds": [28.5, 30, 21.25], "time": 410},
                                      {"id": "s2", "rounds": [...]}]}, ...]}
output: {"tournaments": [{"id", "kt", "slope", "intercept", ..., "norm_conditions",
                          "category"?, "solvers": [{"id", "place", "result", ...}]}, ...],
         "not_rated": [{"id", "reason"}]}     (tournaments the formulas cannot rate, §4.1 [P])
"""

from __future__ import annotations

from typing import Any

from ratings.engines.core.errors import EngineInputError
from ratings.engines.core.jsonio import require_id, require_list, require_number, require_object
from ratings.engines.wfcc.rate import rate_quarter
from ratings.engines.wfcc.types import (
    QuarterResult,
    Solver,
    Tournament,
    TournamentResult,
    WfccParams,
)


def run_json(data: dict) -> dict:
    """The JSON contract of ``python -m ratings.engines wfcc``; the shapes are above."""
    tournaments, half_ratings, params = quarter_from_json(data)
    return quarter_to_json(rate_quarter(tournaments, half_ratings, params))


_TOP_KEYS = {"params", "half_ratings", "tournaments"}
_PARAM_KEYS = {"floor"}
_TOURNAMENT_KEYS = {"id", "kt", "multi_location", "problems", "solvers", "rules", "championship"}
_SOLVER_KEYS = {"id", "country", "rating", "rounds", "time"}


def _only(obj: dict, allowed: set[str], where: str) -> None:
    unknown = sorted(set(obj) - allowed)
    if unknown:
        raise EngineInputError(f"{where}.{unknown[0]}", "unknown entry")


def _required(obj: dict, key: str, where: str) -> Any:
    if key not in obj:
        raise EngineInputError(f"{where}.{key}", "missing")
    return obj[key]


def _optional_number(obj: dict, key: str, where: str) -> float | None:
    value = obj.get(key)
    return None if value is None else require_number(value, f"{where}.{key}")


def quarter_from_json(
    data: Any,
) -> tuple[tuple[Tournament, ...], dict[str, tuple[float, ...]], WfccParams]:
    """The tournaments, the carried half-ratings and the params of an input."""
    data = require_object(data, "input")
    _only(data, _TOP_KEYS, "input")
    raw = require_list(_required(data, "tournaments", "input"), "tournaments")
    tournaments = tuple(_tournament(t, f"tournaments[{i}]") for i, t in enumerate(raw))
    return tournaments, _half_ratings(data.get("half_ratings")), _params(data.get("params"))


def _params(raw: Any) -> WfccParams:
    if raw is None:
        return WfccParams()
    raw = require_object(raw, "params")
    _only(raw, _PARAM_KEYS, "params")
    if "floor" not in raw:
        return WfccParams()
    return WfccParams(floor=_optional_number(raw, "floor", "params"))


def _half_ratings(raw: Any) -> dict[str, tuple[float, ...]]:
    if raw is None:
        return {}
    raw = require_object(raw, "half_ratings")
    return {
        require_id(sid, f"half_ratings.{sid}"): tuple(
            require_number(v, f"half_ratings.{sid}[{h}]")
            for h, v in enumerate(require_list(values, f"half_ratings.{sid}"))
        )
        for sid, values in raw.items()
    }


def _tournament(raw: Any, where: str) -> Tournament:
    raw = require_object(raw, where)
    _only(raw, _TOURNAMENT_KEYS, where)
    tid = require_id(_required(raw, "id", where), f"{where}.id")
    kt = require_number(_required(raw, "kt", where), f"{where}.kt")
    multi = _required(raw, "multi_location", where)
    if not isinstance(multi, bool):
        raise EngineInputError(f"{where}.multi_location", f"must be true or false, not {multi!r}")
    problems = None
    if raw.get("problems") is not None:
        problems = tuple(
            _problem_count(v, f"{where}.problems[{r}]")
            for r, v in enumerate(require_list(raw["problems"], f"{where}.problems"))
        )
    raw_solvers = require_list(_required(raw, "solvers", where), f"{where}.solvers")
    solvers = tuple(_solver(s, f"{where}.solvers[{i}]") for i, s in enumerate(raw_solvers))
    return Tournament(
        id=tid,
        kt=kt,
        solvers=solvers,
        multi_location=multi,
        problems=problems,
        rules=raw.get("rules"),
        championship=raw.get("championship"),
    )


def tournament_to_json(tournament: Tournament) -> dict:
    """A tournament in the input shape (what a run stores); absent values are left out."""
    data: dict[str, Any] = {
        "id": tournament.id,
        "kt": tournament.kt,
        "multi_location": tournament.multi_location,
    }
    for key in ("problems", "rules", "championship"):
        value = getattr(tournament, key)
        if value is not None:
            data[key] = list(value) if key == "problems" else value
    data["solvers"] = [
        {
            "id": s.id,
            **({"country": s.country} if s.country is not None else {}),
            **({"rating": s.rating} if s.rating is not None else {}),
            "rounds": list(s.rounds),
            **({"time": s.time} if s.time is not None else {}),
        }
        for s in tournament.solvers
    ]
    return data


def _problem_count(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise EngineInputError(where, f"must be a whole number of problems, not {value!r}")
    return value


def _solver(raw: Any, where: str) -> Solver:
    raw = require_object(raw, where)
    _only(raw, _SOLVER_KEYS, where)
    country = raw.get("country")
    if country is not None and not isinstance(country, str):
        raise EngineInputError(f"{where}.country", f"must be a string, not {country!r}")
    rounds = require_list(_required(raw, "rounds", where), f"{where}.rounds")
    return Solver(
        id=require_id(_required(raw, "id", where), f"{where}.id"),
        rounds=tuple(require_number(v, f"{where}.rounds[{r}]") for r, v in enumerate(rounds)),
        rating=_optional_number(raw, "rating", where),
        country=country,
        time=_optional_number(raw, "time", where),
    )


def quarter_to_json(quarter: QuarterResult) -> dict:
    return {
        "tournaments": [result_to_json(t) for t in quarter.tournaments],
        "not_rated": [{"id": n.id, "reason": n.reason} for n in quarter.not_rated],
    }


def result_to_json(result: TournamentResult) -> dict:
    line, cond = result.line, result.norm_conditions
    tournament = {
        "id": result.id,
        "kt": result.kt,
        "slope": line.slope,
        "intercept": line.intercept,
        "correlation": line.correlation,
        "sorted": line.sorted,
        "corrected": line.corrected,
        "rmas": line.rmas,
        "regression_slope": line.regression_slope,
        "regression_intercept": line.regression_intercept,
        "rated_solvers": line.rated_solvers,
        "average_rating": line.average_rating,
        "average_result": line.average_result,
        "max_rating": line.max_rating,
        "norm_conditions": {
            "N1": cond.n1,
            "countries": cond.countries,
            "N2": cond.n2,
            "qualified": cond.qualified,
            "N3": cond.n3,
        },
    }
    if result.category is not None:
        tournament["category"] = result.category
    solvers = []
    for s in result.solvers:
        entry: dict[str, Any] = {"id": s.id, "place": s.place, "result": s.result}
        if s.expected is not None:
            entry["expected"] = s.expected
            entry["change"] = s.change
        if s.half_ratings is not None:
            entry["half_ratings"] = list(s.half_ratings)
        if s.rating is not None:
            entry["rating"] = s.rating
        entry["performance"] = s.performance
        entry["published_rating"] = s.published_rating
        entry["norms"] = list(s.norms)
        if s.floored:
            entry["floored"] = True
        solvers.append(entry)
    tournament["solvers"] = solvers
    return tournament
