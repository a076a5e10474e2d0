"""Acceptability rules as pure functions (RULES.md §6): event facts and ``today`` in, results out.

Public API for the Django side::

    from tournaments.acceptability import check_event, is_acceptable, failing, blocking
    results = check_event("wfcc", WfccEventFacts(...), today)   # list[RuleResult]

One module per rating system, named by the system's code (``wfcc``, ``iccf``, ``egf``,
``playchess``), holds its frozen facts dataclasses, its rule functions (``check``), the facts type
they take (``FACTS_TYPE``) and what an official can attest (``ATTESTATIONS``); ``rules_of(code)``
finds it. ``types`` holds ``RuleResult``/``Status`` and the verdicts.
"""

from __future__ import annotations

import importlib
from datetime import date
from types import ModuleType

from ratings.engines import SYSTEMS
from ratings.engines.core.errors import EngineInputError
from tournaments.acceptability.types import (
    RuleResult,
    Status,
    blocking,
    failing,
    is_acceptable,
)


def rules_of(system: str) -> ModuleType:
    """The rules module of ``system``: ``tournaments/acceptability/<code>.py`` (or a package)."""
    if system not in SYSTEMS:
        raise EngineInputError("system", f"unknown rating system {system!r}")
    return importlib.import_module(f"{__name__}.{system}")


# Per system code, read from the systems' modules (for the report, the admin and the demo).
FACTS_TYPES: dict[str, type] = {code: rules_of(code).FACTS_TYPE for code in SYSTEMS}
# What an official can attest, per system: key -> what he confirms. The selector passes the
# recorded keys in the facts' ``attestations``; a missing key gives NEEDS_ATTESTATION.
ATTESTATIONS: dict[str, dict[str, str]] = {code: rules_of(code).ATTESTATIONS for code in SYSTEMS}


def check_event(system: str, facts: object, today: date) -> list[RuleResult]:
    """Every rule of ``system`` applied to ``facts``, in the rulebook's order."""
    rules = rules_of(system)
    if not isinstance(facts, rules.FACTS_TYPE):
        raise EngineInputError(
            "facts", f"{system} needs {rules.FACTS_TYPE.__name__}, not {type(facts).__name__}"
        )
    return rules.check(facts, today)


__all__ = [
    "ATTESTATIONS",
    "FACTS_TYPES",
    "RuleResult",
    "Status",
    "blocking",
    "check_event",
    "failing",
    "is_acceptable",
    "rules_of",
]
