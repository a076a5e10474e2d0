"""The WFCC rules about the problems: publication (R3) and selection (R3Q), count (R4), groups
(R5-R7), points (R9), fairy elements announced (R10)."""

from __future__ import annotations

from collections import Counter
from datetime import date
from decimal import Decimal

from ratings.engines.core.months import add_months
from tournaments.acceptability.types import RuleResult, Status, plural, result
from tournaments.acceptability.wfcc.facts import (
    ANNOUNCE_MONTHS,
    ATTEST_R3Q,
    FULL_POINTS,
    GROUPS,
    MAX_PER_GROUP,
    MIN_GROUPS,
    MIN_PROBLEMS,
    ORIGINAL_AFTER_YEARS,
    WfccEventFacts,
)
from tournaments.acceptability.wfcc.verdicts import attested, dated_deadline


def r3_publication(f: WfccEventFacts) -> RuleResult:
    year = f.start.year
    too_recent = [
        p
        for p in f.problems
        if not p.original and year - p.first_published_year <= ORIGINAL_AFTER_YEARS
    ]
    labels = [f"{p.round}.{p.number} ({p.first_published_year})" for p in too_recent]
    facts = dict(tournament_year=year, too_recent=labels, problems=len(f.problems))
    if too_recent:
        return result(
            "WFCC-R3",
            "Problems original or published more than 5 years before",
            Status.FAIL,
            f"{plural(len(too_recent), 'problem')} first published {ORIGINAL_AFTER_YEARS} or fewer "
            f"calendar years before {year}: {', '.join(labels)}; they must be originals or "
            f"published in {year - ORIGINAL_AFTER_YEARS - 1} or earlier",
            **facts,
        )
    return result(
        "WFCC-R3",
        "Problems original or published more than 5 years before",
        Status.PASS,
        f"all {len(f.problems)} problems are originals or published in "
        f"{year - ORIGINAL_AFTER_YEARS - 1} or earlier",
        **facts,
    )


def r3_quality(f: WfccEventFacts) -> RuleResult:
    return attested(
        "WFCC-R3Q",
        "Problem selection: theme, quality, difficulty, styles",
        ATTEST_R3Q,
        f.attestations,
        "the problems show a clear theme, good quality and difficulty, and different styles",
    )


def r4_problem_count(f: WfccEventFacts) -> RuleResult:
    n = len(f.problems)
    ok = n >= MIN_PROBLEMS
    return result(
        "WFCC-R4",
        "Number of problems",
        Status.PASS if ok else Status.FAIL,
        f"{n} problems" + ("" if ok else f"; at least {MIN_PROBLEMS} are required"),
        problems=n,
    )


def r5_groups_known(f: WfccEventFacts) -> RuleResult:
    bad = [f"{p.round}.{p.number} ({p.group})" for p in f.problems if p.group not in GROUPS]
    if bad:
        return result(
            "WFCC-R5",
            "Problems from the seven groups",
            Status.FAIL,
            f"{plural(len(bad), 'problem')} outside the seven groups: {', '.join(bad)}; "
            f"allowed: {', '.join(GROUPS)}",
            outside=bad,
        )
    return result(
        "WFCC-R5",
        "Problems from the seven groups",
        Status.PASS,
        f"all {len(f.problems)} problems belong to the seven groups",
        outside=[],
    )


def _group_counts(f: WfccEventFacts) -> Counter[str]:
    return Counter(p.group for p in f.problems if p.group in GROUPS)


def r6_groups_represented(f: WfccEventFacts) -> RuleResult:
    counts = _group_counts(f)
    n = len(counts)
    ok = n >= MIN_GROUPS
    return result(
        "WFCC-R6",
        "Groups represented",
        Status.PASS if ok else Status.FAIL,
        f"{n} groups represented ({', '.join(g for g in GROUPS if g in counts) or 'none'})"
        + ("" if ok else f"; at least {MIN_GROUPS} are required"),
        groups=dict(counts),
    )


def _group_plural(group: str) -> str:
    return "fairy problems" if group == "fairy" else group + "s"


def r7_per_group(f: WfccEventFacts) -> RuleResult:
    counts = _group_counts(f)
    over = {g: n for g, n in counts.items() if n > MAX_PER_GROUP}
    if over:
        worst = "; ".join(f"{n} {_group_plural(g)}" for g, n in sorted(over.items()))
        return result(
            "WFCC-R7",
            "At most 3 problems per group",
            Status.FAIL,
            f"{worst}; at most {MAX_PER_GROUP} problems per group are allowed",
            groups=dict(counts),
        )
    most = max(counts.values(), default=0)
    return result(
        "WFCC-R7",
        "At most 3 problems per group",
        Status.PASS,
        f"at most {most} problems in any group",
        groups=dict(counts),
    )


def _two_decimals(x: Decimal) -> bool:
    return x == x.quantize(Decimal("0.01"))


def r9_points(f: WfccEventFacts) -> RuleResult:
    bad_max = [
        f"{p.round}.{p.number} worth {p.max_points}"
        for p in f.problems
        if p.max_points != FULL_POINTS
    ]
    bad_scores = [
        f"{s.points} for solver {s.solver_id} on {s.round}.{s.problem_number}"
        for s in f.scores
        if not (0 <= s.points <= FULL_POINTS and _two_decimals(s.points))
    ]
    issues = []
    if bad_max:
        issues.append(f"a full solution must score 5 points: {', '.join(bad_max)}")
    if bad_scores:
        shown = ", ".join(bad_scores[:5]) + (" ..." if len(bad_scores) > 5 else "")
        issues.append(
            f"{plural(len(bad_scores), 'score')} outside 0..5 points or with more than two decimals: {shown}"
        )
    facts = dict(bad_problems=bad_max, bad_scores=bad_scores[:20], scores=len(f.scores))
    if issues:
        return result("WFCC-R9", "Points per problem", Status.FAIL, "; ".join(issues), **facts)
    return result(
        "WFCC-R9",
        "Points per problem",
        Status.PASS,
        f"every problem scores 5 points; all {len(f.scores)} scores in 0..5 with at most two "
        "decimals",
        **facts,
    )


def r10_fairy(f: WfccEventFacts, today: date) -> RuleResult:
    rid, title = "WFCC-R10", "Fairy elements announced two months before"
    fairy = [f"{p.round}.{p.number}" for p in f.problems if p.group == "fairy"]
    if not fairy:
        return result(rid, title, Status.NOT_APPLICABLE, "no fairy problems", fairy=[])
    deadline = add_months(f.start, -ANNOUNCE_MONTHS)
    missing = dated_deadline(
        rid,
        title,
        "the announcement of the fairy elements",
        f.fairy_announced_on,
        deadline,
        today,
        relation=f"two months before the start on {f.start}",
    )
    if missing:
        return missing
    facts = dict(fairy=fairy, fairy_announced_on=f.fairy_announced_on, deadline=deadline)
    if f.fairy_announced_on > deadline:
        return result(
            rid,
            title,
            Status.FAIL,
            f"fairy elements announced on {f.fairy_announced_on}, after {deadline} "
            f"(two months before the start on {f.start})",
            **facts,
        )
    return result(
        rid,
        title,
        Status.PASS,
        f"fairy elements announced on {f.fairy_announced_on}, by {deadline}",
        **facts,
    )
