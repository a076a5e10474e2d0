"""Acceptability rules as pure functions (RULES.md §6): event facts and ``today`` in, results out.

Public API for the Django side::

    from tournaments.acceptability import check_event, is_acceptable, failing, blocking
    results = check_event("wfcc", WfccEventFacts(...), today)   # list[RuleResult]

One module per federation (``wfcc``, ``iccf``, ``egf``, ``playchess``) holds its frozen facts
dataclasses and its rule functions; ``types`` holds ``RuleResult``/``Status`` and the verdicts.
"""

from __future__ import annotations

from datetime import date

from ratings.engines.core.errors import EngineInputError
from tournaments.acceptability import egf, iccf, playchess, wfcc
from tournaments.acceptability.types import (
    RuleResult,
    Status,
    blocking,
    failing,
    is_acceptable,
)

FACTS_TYPES = {
    "wfcc": wfcc.WfccEventFacts,
    "iccf": iccf.IccfEventFacts,
    "egf": egf.EgfEventFacts,
    "playchess": playchess.PlaychessEventFacts,
}
# What an official can attest, per system: key -> what he confirms. The selector passes the
# recorded keys in the facts' ``attestations``; a missing key gives NEEDS_ATTESTATION.
# (ICCF's webserver confirmation is the ``administered_on_webserver`` flag instead.)
ATTESTATIONS: dict[str, dict[str, str]] = {
    "wfcc": {
        wfcc.ATTEST_R3Q: "problems show a clear theme, good quality and difficulty, different styles",
        wfcc.ATTEST_R12: "the tournament director keeps the solving sheets for at least 4 weeks",
        wfcc.ATTEST_KT: "the representative confirmed the tournament category and KT",
    },
    "egf": {egf.ATTEST_RECOGNIZED: "recognized EGF classified event (class conditions met)"},
    "iccf": {},
    "playchess": {},
}
_CHECKS = {"wfcc": wfcc.check, "iccf": iccf.check, "egf": egf.check, "playchess": playchess.check}


def check_event(system: str, facts: object, today: date) -> list[RuleResult]:
    """Every rule of ``system`` applied to ``facts``, in the rulebook's order."""
    if system not in _CHECKS:
        raise EngineInputError("system", f"unknown rating system {system!r}")
    expected = FACTS_TYPES[system]
    if not isinstance(facts, expected):
        raise EngineInputError(
            "facts", f"{system} needs {expected.__name__}, not {type(facts).__name__}"
        )
    return _CHECKS[system](facts, today)


__all__ = [
    "ATTESTATIONS",
    "FACTS_TYPES",
    "RuleResult",
    "Status",
    "blocking",
    "check_event",
    "failing",
    "is_acceptable",
]
