"""WFCC solving tournaments: acceptability R1-R12, the KT category proposal and norms N1-N3.

RULES.md §6.3 (R1-R12), §4.4 (KT), §4.5 (N1-N3). Plain facts in, ``RuleResult`` list out.

Attestation keys (recorded by an official; the selector puts them in ``attestations``):
``WFCC-R3Q`` problem quality/theme/difficulty/styles, ``WFCC-R12`` sheets kept 4 weeks,
``WFCC-KT`` the representative confirmed the tournament coefficient.

Dates that the representative records (announcement, fairy announcement, documentation
received) are the "+ [A]" part of R1, R10, R11: while a date is missing and its deadline has not
passed the rule NEEDS_ATTESTATION; once the deadline has passed it FAILs.

One module per theme: ``facts`` (what the rules read, the rulebook's numbers), ``tournament``
(R1, R2, R8, R11, R12), ``problems`` (R3-R7, R9, R10), ``category`` (KT), ``norms`` (N1-N3);
``verdicts`` holds the shapes of verdict they share.
"""

from __future__ import annotations

from datetime import date

from tournaments.acceptability.types import RuleResult
from tournaments.acceptability.wfcc.category import kt_rule, propose_category
from tournaments.acceptability.wfcc.facts import (
    ATTEST_KT,
    ATTEST_R3Q,
    ATTEST_R12,
    GROUPS,
    ProblemFacts,
    RoundFacts,
    ScoreFacts,
    SolverFacts,
    WfccEventFacts,
)
from tournaments.acceptability.wfcc.norms import (
    n1_rated_countries,
    n2_strong_participants,
    n3_single_location,
    norm_levels_by_rating,
    norms_possible,
)
from tournaments.acceptability.wfcc.problems import (
    r3_publication,
    r3_quality,
    r4_problem_count,
    r5_groups_known,
    r6_groups_represented,
    r7_per_group,
    r9_points,
    r10_fairy,
)
from tournaments.acceptability.wfcc.tournament import (
    r1_announcement,
    r2_full_rated,
    r8_rounds,
    r11_documentation,
    r12_sheets,
)


def check(f: WfccEventFacts, today: date) -> list[RuleResult]:
    return [
        r1_announcement(f, today),
        r2_full_rated(f),
        r3_publication(f),
        r3_quality(f),
        r4_problem_count(f),
        r5_groups_known(f),
        r6_groups_represented(f),
        r7_per_group(f),
        r8_rounds(f),
        r9_points(f),
        r10_fairy(f, today),
        r11_documentation(f, today),
        r12_sheets(f),
        kt_rule(f),
        n1_rated_countries(f),
        n2_strong_participants(f),
        n3_single_location(f),
    ]


# What the dispatch (tournaments.acceptability) reads: the facts this package's rules take, and
# what an official can attest (key -> what he confirms; a missing key gives NEEDS_ATTESTATION).
FACTS_TYPE = WfccEventFacts
ATTESTATIONS: dict[str, str] = {
    ATTEST_R3Q: "problems show a clear theme, good quality and difficulty, different styles",
    ATTEST_R12: "the tournament director keeps the solving sheets for at least 4 weeks",
    ATTEST_KT: "the representative confirmed the tournament category and KT",
}

__all__ = [
    "ATTESTATIONS",
    "ATTEST_KT",
    "FACTS_TYPE",
    "GROUPS",
    "ProblemFacts",
    "RoundFacts",
    "ScoreFacts",
    "SolverFacts",
    "WfccEventFacts",
    "check",
    "kt_rule",
    "n1_rated_countries",
    "n2_strong_participants",
    "n3_single_location",
    "norm_levels_by_rating",
    "norms_possible",
    "propose_category",
    "r1_announcement",
    "r2_full_rated",
    "r3_publication",
    "r3_quality",
    "r4_problem_count",
    "r5_groups_known",
    "r6_groups_represented",
    "r7_per_group",
    "r8_rounds",
    "r9_points",
    "r10_fairy",
    "r11_documentation",
    "r12_sheets",
]
