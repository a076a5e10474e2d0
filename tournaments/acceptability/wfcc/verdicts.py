"""The shapes of verdict the WFCC rules share: a recorded date with a deadline, an attestation."""

from __future__ import annotations

from datetime import date

from tournaments.acceptability.types import RuleResult, Status, result


def dated_deadline(
    rule_id: str,
    title: str,
    what: str,
    on: date | None,
    deadline: date,
    today: date,
    *,
    relation: str,
) -> RuleResult | None:
    """The common "date + [A]" part: None when the date is present (the caller judges it)."""
    if on is not None:
        return None
    if today <= deadline:
        return result(
            rule_id,
            title,
            Status.NEEDS_ATTESTATION,
            f"{what} not yet recorded; it is due by {deadline} ({relation})",
            deadline=deadline,
            today=today,
        )
    return result(
        rule_id,
        title,
        Status.FAIL,
        f"{what} not recorded and the deadline {deadline} ({relation}) has passed",
        deadline=deadline,
        today=today,
    )


def attested(rule_id: str, title: str, key: str, f_attest: frozenset[str], what: str):
    if key in f_attest:
        return result(rule_id, title, Status.PASS, f"attested: {what}", attestation=key)
    return result(
        rule_id,
        title,
        Status.NEEDS_ATTESTATION,
        f"an official must attest that {what}",
        attestation=key,
    )
