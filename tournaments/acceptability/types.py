"""The shared result type of the acceptability rules, and how a list of results is judged.

A rule never raises for a failing event: it returns a ``RuleResult``. Bad *facts* (a float where
points must be exact, an unknown system) raise ``EngineInputError`` like every pure core.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from enum import Enum, StrEnum
from fractions import Fraction
from typing import Any


class Status(StrEnum):
    PASS = "pass"
    WARNING = "warning"  # shown on the panel, never blocks acceptance
    FAIL = "fail"  # blocks acceptance unless a rating officer overrides
    NEEDS_ATTESTATION = "needs_attestation"  # blocks until an official records the attestation
    NOT_APPLICABLE = "not_applicable"


@dataclass(frozen=True)
class RuleResult:
    rule_id: str  # "WFCC-R4", "ICCF-1.3-TIME", "EGF-CLASS", ...
    title: str  # short name of the rule for the panel
    status: Status
    message: str  # plain words naming the numbers: "11 problems; at least 12 are required"
    facts: Mapping[str, Any] = field(default_factory=dict)  # what the rule used (JSON-ready)

    def to_dict(self) -> dict[str, Any]:
        return {
            "rule_id": self.rule_id,
            "title": self.title,
            "status": self.status.value,
            "message": self.message,
            "facts": dict(self.facts),
        }


BLOCKING = frozenset({Status.FAIL, Status.NEEDS_ATTESTATION})


def failing(results: Iterable[RuleResult]) -> list[RuleResult]:
    """The results with status FAIL (what an override must answer for)."""
    return [r for r in results if r.status is Status.FAIL]


def blocking(results: Iterable[RuleResult]) -> list[RuleResult]:
    """The results that keep the event from acceptance: FAIL and unrecorded attestations."""
    return [r for r in results if r.status in BLOCKING]


def is_acceptable(results: Iterable[RuleResult]) -> bool:
    """True when nothing fails and every needed attestation is recorded.

    An unrecorded attestation blocks acceptance: the rules make the official's confirmation
    (R3 quality, R12 sheets, KT, EGF recognition, ...) a condition, not a formality. Warnings
    (R1 announced late but within 7 days' limit, norm conditions unmet, ICCF results rolling
    over to the next list) never block.
    """
    return not blocking(results)


def plural(n: int, word: str, words: str | None = None) -> str:
    """'1 day', '2 days' (or the given irregular plural)."""
    return f"{n} {word if n == 1 else (words or word + 's')}"


def jsonable(value: Any) -> Any:
    """Facts as JSON-ready values: dates ISO, Decimals as strings, Fractions as floats."""
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, Fraction):
        return float(value)
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        items = [jsonable(v) for v in value]
        return sorted(items, key=str) if isinstance(value, set | frozenset) else items
    return value


def result(rule_id: str, title: str, status: Status, message: str, **facts: Any) -> RuleResult:
    """Build a RuleResult with its facts made JSON-ready."""
    return RuleResult(rule_id, title, status, message, jsonable(facts))
