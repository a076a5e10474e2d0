from __future__ import annotations

import json
from datetime import date, timedelta
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.engines.core.errors import EngineInputError
from ratings.engines.core.months import add_months
from tournaments.acceptability import blocking, check_event, failing, is_acceptable
from tournaments.acceptability.dates import quarter_start
from tournaments.acceptability.playchess import PlaychessEventFacts
from tournaments.acceptability.types import RuleResult, Status, result


def r(status):
    return RuleResult("X-1", "x", status, "m")


def test_verdicts():
    passing = [r(Status.PASS), r(Status.WARNING), r(Status.NOT_APPLICABLE)]
    assert is_acceptable(passing) and failing(passing) == [] and blocking(passing) == []
    pending = passing + [r(Status.NEEDS_ATTESTATION)]
    assert not is_acceptable(pending)  # an unrecorded attestation blocks acceptance
    assert failing(pending) == [] and blocking(pending) == [r(Status.NEEDS_ATTESTATION)]
    failed = pending + [r(Status.FAIL)]
    assert failing(failed) == [r(Status.FAIL)] and not is_acceptable(failed)


def test_facts_are_json_ready():
    res = result(
        "X-1", "x", Status.PASS, "m", on=date(2026, 1, 2), pts=Decimal("2.50"),
        ta=Fraction(3, 2), tags={"b", "a"},
    )  # fmt: skip
    assert res.to_dict() == {
        "rule_id": "X-1",
        "title": "x",
        "status": "pass",
        "message": "m",
        "facts": {"on": "2026-01-02", "pts": "2.50", "ta": 1.5, "tags": ["a", "b"]},
    }
    json.dumps(res.to_dict())
    assert Status.NEEDS_ATTESTATION == "needs_attestation"


def test_dispatch_rejects_unknown_system_and_wrong_facts():
    with pytest.raises(EngineInputError):
        check_event("fide", PlaychessEventFacts(), date(2026, 1, 1))
    with pytest.raises(EngineInputError) as err:
        check_event("wfcc", PlaychessEventFacts(), date(2026, 1, 1))
    assert err.value.where == "facts"


@pytest.mark.parametrize(
    ("day", "months", "expected"),
    [
        (date(2026, 5, 16), -2, date(2026, 3, 16)),
        (date(2026, 4, 30), -2, date(2026, 2, 28)),
        (date(2028, 4, 30), -2, date(2028, 2, 29)),
        (date(2026, 1, 31), -2, date(2025, 11, 30)),
        (date(2026, 11, 15), 3, date(2027, 2, 15)),
    ],
)
def test_add_months(day, months, expected):
    assert add_months(day, months) == expected


@settings(max_examples=100, deadline=None)
@given(st.dates(min_value=date(1900, 1, 1), max_value=date(2200, 1, 1)), st.integers(-30, 30))
def test_add_months_keeps_the_day_when_it_exists(day, months):
    moved = add_months(day, months)
    assert (moved.year * 12 + moved.month) - (day.year * 12 + day.month) == months
    # the same day, or the month's last day when the month is shorter
    assert moved.day == day.day or (moved.day < day.day and (moved + timedelta(days=1)).day == 1)
    if day.day <= 28:
        assert moved.day == day.day and add_months(moved, -months) == day
    q = quarter_start(day)
    assert q.day == 1 and q.month in (1, 4, 7, 10) and q <= day < add_months(q, 3)


def test_every_attestation_key_is_one_a_rule_asks_for():
    from tests.tournaments.acceptability.wfcc_factory import TODAY, passing_event
    from tournaments.acceptability import ATTESTATIONS

    asked = {
        r.facts.get("attestation")
        for r in check_event("wfcc", passing_event(attestations=frozenset()), TODAY)
        if r.status is Status.NEEDS_ATTESTATION
    }
    assert asked == set(ATTESTATIONS["wfcc"])
