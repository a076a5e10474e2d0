"""JSON in and out for ``python -m ratings.engines wfcc INPUT.json`` (types only; the rules are
checked by ``wfcc.validate`` on the dataclasses, for the Django side as well).

input:  {"params": {"floor": 0},                                               (optional)
         "tournament": {"id": "ECSC-2026", "kt": 4, "multi_location": false,
                        "problems": [6, 6, 6],          (optional: problems per round, bounds points)
                        "solvers": [{"id": "s1", "country": "SRB", "rating": 2612.0,
                                     "rounds": [28.5, 30, 21.25], "time": 410},
                                    {"id": "s2", "half_ratings": [2310.5], "rounds": [...]}]}}
"""

from __future__ import annotations

from typing import Any

from ratings.engines.core.errors import EngineInputError
from ratings.engines.core.jsonio import require_id, require_list, require_number, require_object
from ratings.engines.wfcc.rate import rate_tournament
from ratings.engines.wfcc.types import Solver, Tournament, TournamentResult, WfccParams


def run_json(data: dict) -> dict:
    """The JSON contract of ``python -m ratings.engines wfcc``; the shapes are above."""
    params = params_from_json(data)
    return result_to_json(rate_tournament(tournament_from_json(data), params))


_TOP_KEYS = {"params", "tournament"}
_PARAM_KEYS = {"floor"}
_TOURNAMENT_KEYS = {"id", "kt", "multi_location", "problems", "solvers", "rules", "championship"}
_SOLVER_KEYS = {"id", "country", "rating", "half_ratings", "rounds", "time"}


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


def params_from_json(data: Any) -> WfccParams:
    data = require_object(data, "input")
    _only(data, _TOP_KEYS, "input")
    raw = data.get("params")
    if raw is None:
        return WfccParams()
    raw = require_object(raw, "params")
    _only(raw, _PARAM_KEYS, "params")
    if "floor" not in raw:
        return WfccParams()
    return WfccParams(floor=_optional_number(raw, "floor", "params"))


def tournament_from_json(data: Any) -> Tournament:
    data = require_object(data, "input")
    _only(data, _TOP_KEYS, "input")
    where = "tournament"
    raw = require_object(_required(data, "tournament", "input"), where)
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
    halves = require_list(raw.get("half_ratings") or [], f"{where}.half_ratings")
    return Solver(
        id=require_id(_required(raw, "id", where), f"{where}.id"),
        rounds=tuple(require_number(v, f"{where}.rounds[{r}]") for r, v in enumerate(rounds)),
        rating=_optional_number(raw, "rating", where),
        half_ratings=tuple(
            require_number(v, f"{where}.half_ratings[{h}]") for h, v in enumerate(halves)
        ),
        country=country,
        time=_optional_number(raw, "time", where),
    )


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
    return {"tournament": tournament, "solvers": solvers}
