"""The time control an EGF results table states: ``CM[...]`` names it, ``TM[...]`` gives TA (pure).

OpenGotha writes ``CM[Standard byo-yomi]`` (or ``Canadian byo-yomi``, ``Fischer``, ``Sudden
death``) and ``TM[82]``, the adjusted time TA in whole minutes (RULES §2.7, §6.2). Some tables
spell the numbers out in the comment (``60 min + 30 s byo-yomi``, ``90 min, 25 stones / 10
min``, ``Fischer 60 min + 30 s``); those are read too. What the table does not say stays None
and is listed in ``missing``: with only TA known, the basic time and the overtime cannot be
told apart, so the importer names them for the official instead of inventing them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tournaments.formats.egf import Header

SYSTEM_WORDS = (  # first match wins: "Canadian byo-yomi" is Canadian, not standard
    ("canadian", "canadian"),
    ("fischer", "fischer"),
    ("sudden", "sudden_death"),
    ("absolute", "sudden_death"),
    ("no byo", "sudden_death"),
    ("byo", "byoyomi"),
    ("japanese", "byoyomi"),
)
_HOURS = re.compile(r"(\d{1,2}(?:[.,]5)?)\s*h(?:ours?|rs?)?\b", re.IGNORECASE)
_MINUTES = re.compile(r"(\d{1,3})\s*(?:min(?:utes?)?|m|')(?![a-z])", re.IGNORECASE)
_SECONDS = re.compile(r"(\d{1,3})\s*(?:s|sec(?:onds?)?|\")(?![a-z])", re.IGNORECASE)
_PERIODS = re.compile(r"(\d{1,2})\s*[x×]\s*(\d{1,3})\s*(?:s|sec)", re.IGNORECASE)
_CANADIAN = re.compile(
    r"(\d{1,3})\s*(?:stones|moves)\s*(?:in|/|per)\s*(\d{1,3})\s*(?:min|m)", re.IGNORECASE
)
LABELS = {
    "basic_minutes": "basic time",
    "overtime_seconds": "byo-yomi period (seconds)",
    "overtime_moves": "stones per Canadian period",
    "fischer_bonus_seconds": "Fischer bonus (seconds)",
    "system": "time system",
}


@dataclass(frozen=True)
class TableTimeControl:
    system: str | None  # byoyomi, canadian, fischer, sudden_death (the acceptability names)
    basic_minutes: int | None
    overtime_seconds: int | None  # standard: seconds per move; Canadian: seconds per period
    overtime_moves: int | None  # Canadian: stones per period
    fischer_bonus_seconds: int | None
    adjusted_minutes: int | None  # TM[...] as written
    missing: tuple[str, ...]  # field names the table does not give

    @property
    def missing_labels(self) -> list[str]:
        return [LABELS[name] for name in self.missing]


def _needed(system: str | None) -> tuple[str, ...]:
    return {
        None: ("system", "basic_minutes"),
        "sudden_death": ("basic_minutes",),
        "byoyomi": ("basic_minutes", "overtime_seconds"),
        "canadian": ("basic_minutes", "overtime_seconds", "overtime_moves"),
        "fischer": ("basic_minutes", "fischer_bonus_seconds"),
    }[system]


def _basic_minutes(text: str) -> int | None:
    hours = _HOURS.search(text)
    if hours:
        return round(float(hours.group(1).replace(",", ".")) * 60)
    minutes = _MINUTES.search(text)
    return int(minutes.group(1)) if minutes else None


def read_time_control(header: Header) -> TableTimeControl:
    comment = header.comment or ""
    lowered = comment.casefold()
    system = next((name for word, name in SYSTEM_WORDS if word in lowered), None)
    values: dict[str, int | None] = dict.fromkeys(
        ("basic_minutes", "overtime_seconds", "overtime_moves", "fischer_bonus_seconds")
    )
    canadian = _CANADIAN.search(comment)
    if canadian:
        values["overtime_moves"] = int(canadian.group(1))
        values["overtime_seconds"] = int(canadian.group(2)) * 60
        comment = comment[: canadian.start()] + comment[canadian.end() :]
        system = system or "canadian"
    values["basic_minutes"] = _basic_minutes(comment)
    periods = _PERIODS.search(comment)
    seconds = _SECONDS.search(comment)
    per_move = int(periods.group(2)) if periods else (int(seconds.group(1)) if seconds else None)
    if system == "byoyomi":
        values["overtime_seconds"] = per_move
    elif system == "fischer":
        values["fischer_bonus_seconds"] = per_move
    if system == "sudden_death" and values["basic_minutes"] is None:
        values["basic_minutes"] = header.adjusted_time  # sudden death: TA is the basic time
    missing = tuple(name for name in _needed(system) if name != "system" and values[name] is None)
    if system is None:
        missing = ("system", *missing)
    return TableTimeControl(
        system=system, adjusted_minutes=header.adjusted_time, missing=missing, **values
    )
