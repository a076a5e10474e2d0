"""ICCF rule 2.1a (pure): which FIDE list, and what the run uses in every case."""

from __future__ import annotations

from datetime import date

import pytest

from ratings.systems.iccf import fide_rule
from ratings.systems.iccf.fide_rule import check, fide_list_date_for


@pytest.mark.parametrize(
    ("iccf", "fide"),
    [
        (date(2026, 1, 1), date(2026, 1, 1)),
        (date(2026, 4, 1), date(2026, 4, 1)),
        (date(2026, 3, 31), date(2026, 1, 1)),
        (date(2026, 12, 1), date(2026, 10, 1)),
        (date(2026, 7, 15), date(2026, 7, 1)),
    ],
)
def test_only_quarterly_fide_lists_count(iccf, fide):
    assert fide_list_date_for(iccf) == fide


def _check(**kw):
    base = dict(
        player_id=1,
        declared=2100,
        fide_id="123",
        fide_list=date(2026, 1, 1),
        list_imported=True,
        listed=True,
        official=2100,
    )
    return check(**{**base, **kw})


@pytest.mark.parametrize(
    ("changes", "status", "used"),
    [
        ({}, fide_rule.VERIFIED, 2100),
        ({"official": 2050}, fide_rule.MISMATCH, 2050),
        ({"list_imported": False, "listed": False, "official": None}, fide_rule.NO_LIST, 2100),
        ({"fide_id": "", "listed": False, "official": None}, fide_rule.NO_ID, 2100),
        ({"listed": False, "official": None}, fide_rule.NOT_LISTED, None),
        ({"official": None}, fide_rule.UNRATED, None),
        ({"declared": None, "official": 1990}, fide_rule.MISMATCH, 1990),
    ],
)
def test_what_the_run_uses(changes, status, used):
    result = _check(**changes)
    assert (result.status, result.used) == (status, used)
    assert result.needs_attention == (status != fide_rule.VERIFIED)
