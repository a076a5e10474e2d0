"""ICCF rule 2.1a (RULES §1.2): an unrated player who declared a FIDE rating starts from it, as
verified by the Ratings Commissioner against the FIDE list valid on the date of the ICCF list being
computed; only FIDE's lists of 1 Jan, 1 Apr, 1 Jul and 1 Oct count. Pure: stdlib only.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

QUARTER_MONTHS = (1, 4, 7, 10)


def fide_list_date_for(iccf_list_date: date) -> date:
    """The quarterly FIDE list valid on the ICCF list's date: the one valid from the same date
    (ICCF lists start quarters too), else from the latest 1 Jan/Apr/Jul/Oct before it."""
    month = max(m for m in QUARTER_MONTHS if m <= iccf_list_date.month)
    return date(iccf_list_date.year, month, 1)


VERIFIED = "verified"
MISMATCH = "mismatch"
NO_LIST = "no FIDE list"
NO_ID = "no FIDE ID"
NOT_LISTED = "not in the FIDE list"
UNRATED = "unrated by FIDE"


@dataclass(frozen=True)
class FideCheck:
    player_id: int
    declared: int | None  # the FIDE rating the player declared
    fide_id: str
    fide_list: date  # the FIDE list it is checked against
    list_imported: bool
    official: int | None  # the rating that list gives (None: unrated or not listed)
    status: str
    used: int | None  # what the run starts him from (None: the ICCF initial rating)

    @property
    def needs_attention(self) -> bool:
        return self.status != VERIFIED


def check(
    *,
    player_id: int,
    declared: int | None,
    fide_id: str,
    fide_list: date,
    list_imported: bool,
    listed: bool,
    official: int | None,
) -> FideCheck:
    """The verified starting value. Where the list can settle it, the list wins (a mismatch uses
    the official value; a FIDE ID the list lacks or rates 0 means no FIDE rating); where nothing
    can be checked (no quarterly list imported, no FIDE ID given) the declaration stands and the
    officer is shown why."""

    def result(status: str, used: int | None) -> FideCheck:
        return FideCheck(
            player_id, declared, fide_id, fide_list, list_imported, official, status, used
        )

    if not list_imported:
        return result(NO_LIST, declared)
    if not fide_id:
        return result(NO_ID, declared)
    if not listed:
        return result(NOT_LISTED, None)
    if official is None:
        return result(UNRATED, None)
    return result(VERIFIED if official == declared else MISMATCH, official)
