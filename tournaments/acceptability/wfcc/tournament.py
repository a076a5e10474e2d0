"""The WFCC rules about the tournament itself: announcement (R1), rated field (R2), rounds and
days (R8), documentation (R11), solving sheets (R12)."""

from __future__ import annotations

from collections import Counter
from datetime import date, timedelta

from ratings.engines.core.months import add_months
from tournaments.acceptability.types import RuleResult, Status, plural, result
from tournaments.acceptability.wfcc.facts import (
    ANNOUNCE_HARD_DAYS,
    ANNOUNCE_MONTHS,
    ATTEST_R12,
    DOC_DAYS,
    DOC_DAYS_MULTI,
    MIN_FULL_RATED,
    WfccEventFacts,
)
from tournaments.acceptability.wfcc.verdicts import attested, dated_deadline


def r1_announcement(f: WfccEventFacts, today: date) -> RuleResult:
    rid, title = "WFCC-R1", "Announced to the WFCC representative in time"
    hard = f.start - timedelta(days=ANNOUNCE_HARD_DAYS)
    soft = add_months(f.start, -ANNOUNCE_MONTHS)
    missing = dated_deadline(
        rid,
        title,
        "the announcement",
        f.announced_on,
        hard,
        today,
        relation=f"{ANNOUNCE_HARD_DAYS} days before the start on {f.start}",
    )
    if missing:
        return missing
    days = (f.start - f.announced_on).days
    facts = dict(announced_on=f.announced_on, start=f.start, days_before=days, two_months=soft)
    if f.announced_on > hard:
        return result(
            rid,
            title,
            Status.FAIL,
            f"announced {plural(days, 'day')} before the start on {f.start}; "
            f"at least {ANNOUNCE_HARD_DAYS} are required",
            **facts,
        )
    if f.announced_on > soft:
        return result(
            rid,
            title,
            Status.WARNING,
            f"announced {plural(days, 'day')} before the start on {f.start}, after {soft}; "
            f"the rules ask for at least two months",
            **facts,
        )
    return result(
        rid,
        title,
        Status.PASS,
        f"announced {plural(days, 'day')} before the start on {f.start}",
        **facts,
    )


def r2_full_rated(f: WfccEventFacts) -> RuleResult:
    n = len(f.full_ratings())
    ok = n >= MIN_FULL_RATED
    return result(
        "WFCC-R2",
        "Solvers with a full rating",
        Status.PASS if ok else Status.FAIL,
        f"{n} solvers with a full rating"
        + ("" if ok else f"; at least {MIN_FULL_RATED} are required"),
        full_rated=n,
        solvers=len(f.solvers),
    )


def r8_rounds(f: WfccEventFacts) -> RuleResult:
    """Rounds and days: dated within the event, each with problems and recorded scores (RMAS).

    Also checks that every score names a known problem and solver, since RMAS and the engine's
    totals are built from them.
    """
    problems: list[str] = []
    numbers = [r.number for r in f.rounds]
    if not f.rounds:
        problems.append("no rounds recorded")
    dupes = sorted(n for n, c in Counter(numbers).items() if c > 1)
    if dupes:
        problems.append(f"round numbers used twice: {dupes}")
    for r in f.rounds:
        if not f.start <= r.held_on <= f.end:
            problems.append(f"round {r.number} on {r.held_on} is outside {f.start}..{f.end}")
    declared = set(numbers)
    orphan = sorted({p.round for p in f.problems} - declared)
    if orphan:
        problems.append(f"problems in undeclared rounds {orphan}")
    no_problems = sorted(declared - {p.round for p in f.problems})
    if no_problems:
        problems.append(f"rounds without problems {no_problems}")
    no_scores = sorted(declared - {s.round for s in f.scores})
    if no_scores:
        problems.append(f"rounds without recorded scores {no_scores}")
    known_problems = {(p.round, p.number) for p in f.problems}
    stray = sorted({(s.round, s.problem_number) for s in f.scores} - known_problems)
    if stray:
        problems.append(f"scores for unknown problems {[f'{r}.{n}' for r, n in stray]}")
    known_solvers = {s.id for s in f.solvers}
    strangers = sorted({str(s.solver_id) for s in f.scores if s.solver_id not in known_solvers})
    if strangers:
        problems.append(f"scores for unknown solvers {strangers}")
    days = len({r.held_on for r in f.rounds})
    facts = dict(rounds=sorted(declared), days=days)
    if problems:
        return result(
            "WFCC-R8", "Rounds and days", Status.FAIL, "; ".join(problems), issues=problems, **facts
        )
    return result(
        "WFCC-R8",
        "Rounds and days",
        Status.PASS,
        f"{plural(len(f.rounds), 'round')} on {plural(days, 'day')}, each with problems and per-round scores",
        **facts,
    )


def r11_documentation(f: WfccEventFacts, today: date) -> RuleResult:
    rid, title = "WFCC-R11", "Documentation sent in time"
    allowed = DOC_DAYS_MULTI if f.multi_location else DOC_DAYS
    deadline = f.end + timedelta(days=allowed)
    kind = "multi-location tournament" if f.multi_location else "tournament"
    relation = f"{allowed} days after the end on {f.end} for a {kind}"
    missing = dated_deadline(
        rid, title, "the documentation", f.documentation_sent_on, deadline, today, relation=relation
    )
    if missing:
        return missing
    days = (f.documentation_sent_on - f.end).days
    facts = dict(sent_on=f.documentation_sent_on, end=f.end, days_after=days, allowed=allowed)
    if f.documentation_sent_on > deadline:
        return result(
            rid,
            title,
            Status.FAIL,
            f"documentation sent {plural(days, 'day')} after the end; at most {allowed} are allowed "
            f"for a {kind}",
            **facts,
        )
    return result(
        rid,
        title,
        Status.PASS,
        f"documentation sent {plural(days, 'day')} after the end (at most {allowed} for a {kind})",
        **facts,
    )


def r12_sheets(f: WfccEventFacts) -> RuleResult:
    return attested(
        "WFCC-R12",
        "Solving sheets kept 4 weeks",
        ATTEST_R12,
        f.attestations,
        "the tournament director keeps the solving sheets for at least 4 weeks",
    )
