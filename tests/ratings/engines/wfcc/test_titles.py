"""Title proposals from norms and the best rating (RULES §4.6, T1–T4)."""

from __future__ import annotations

import pytest

from ratings.engines.core.errors import EngineInputError
from ratings.engines.wfcc.titles import NormRecord, propose_title

GM_AT_WCSC = NormRecord("GM", at_wcsc_or_ecsc=True)
GM = NormRecord("GM")
IM = NormRecord("IM")
FM = NormRecord("FM")


@pytest.mark.parametrize(
    ("norms", "rating", "title"),
    [
        # T1: 3 GM norms, one at the WCSC/ECSC, and 2550.
        ([GM_AT_WCSC, GM, GM], 2550, "GM"),
        ([GM_AT_WCSC, GM, GM], 2549.5, "GM"),  # published as 2550 (half-up)
        ([GM_AT_WCSC, GM, GM], 2549.49, "IM"),  # 2549: GM rating missed, IM reached
        ([GM, GM, GM], 2600, "IM"),  # none at a WCSC/ECSC
        ([GM_AT_WCSC, GM], 2600, "IM"),  # two norms only
        ([GM_AT_WCSC, GM, IM], 2600, "IM"),  # the IM norm does not count for GM
        # T2: 2 norms (IM or higher) and 2450.
        ([IM, IM], 2450, "IM"),
        ([IM, IM], 2449, "FM"),
        ([GM, IM], 2450, "IM"),
        ([IM, FM], 2500, "FM"),  # an FM norm does not count for IM
        # T3: 2 norms (FM or higher) and 2350.
        ([FM, FM], 2350, "FM"),
        ([FM, IM], 2350, "FM"),
        ([FM, FM], 2349.49, None),
        ([FM], 2700, None),
        ([], 2700, None),
    ],
)
def test_title_thresholds(norms, rating, title):
    assert propose_title(norms, rating).title == title


def test_reasons_in_words():
    granted = propose_title([GM_AT_WCSC, GM, GM], 2561.2)
    assert granted.title == "GM"
    assert "Grandmaster" in granted.reason and "2561" in granted.reason
    assert "1 at the WCSC or ECSC" in granted.reason
    refused = propose_title([FM], 2301)
    assert refused.title is None
    assert "FM needs 2 FM norms (has 1) and rating 2350 (best 2301)" in refused.reason
    assert "a norm at the WCSC or ECSC (has none)" in refused.reason


def test_a_held_title_is_not_proposed_again():
    assert propose_title([IM, IM], 2500, held="IM").title is None
    assert propose_title([IM, IM], 2500, held="FM").title == "IM"
    assert propose_title([GM_AT_WCSC, GM, GM], 2600, held="IM").title == "GM"
    top = propose_title([GM_AT_WCSC, GM, GM], 2600, held="GM")
    assert top.title is None and "already holds GM" in top.reason


def test_bad_levels_are_rejected():
    with pytest.raises(EngineInputError, match=r"norms\[1\]\.level"):
        propose_title([GM, NormRecord("CM")], 2600)
    with pytest.raises(EngineInputError, match="held"):
        propose_title([], 2600, held="WGM")
