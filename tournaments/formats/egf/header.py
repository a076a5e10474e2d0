"""The header tags of a results table (``; CL[A]``, ``; DT[...]``, ...) in its comments."""

from __future__ import annotations

import re
from datetime import date

from tournaments.formats.egf.types import Header, Issue

_TAG = re.compile(r"\b([A-Z]{2})\[([^\]]*)\]")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_KOMI = re.compile(r"^-?[0-9]{1,3}(?:[.,][0-9]{1,2})?$")


def _is_date(text: str) -> bool:
    if not _DATE.match(text):
        return False
    try:
        date.fromisoformat(text)
    except ValueError:
        return False
    return True


def read_header(lines: list[tuple[int, str]], errors: list[Issue], warnings: list[Issue]):
    values: dict[str, tuple[int, str]] = {}
    for number, comment in lines:
        for tag, value in _TAG.findall(comment):
            if tag in values:
                warnings.append(Issue(number, f"{tag}[{value}]", f"second {tag} tag ignored"))
            else:
                values[tag] = (number, value.strip())
    fields: dict = {}

    def bad(tag: str, message: str) -> None:
        number, value = values[tag]
        errors.append(Issue(number, f"{tag}[{value}]", message))

    if "CL" in values:
        value = values["CL"][1].upper()
        if value in ("A", "B", "C", "D"):
            fields["tournament_class"] = value
        else:
            bad("CL", "class must be A, B, C or D")
    if "EV" in values:
        fields["name"] = values["EV"][1]
    if "PC" in values:
        place = values["PC"][1]
        country, _, city = place.partition(",") if "," in place else ("", "", place)
        fields.update(place=place, country=country.strip() or None, city=city.strip() or None)
    if "DT" in values:
        dates = [d.strip() for d in values["DT"][1].split(",")]
        if len(dates) in (1, 2) and all(map(_is_date, dates)) and dates[0] <= dates[-1]:
            fields.update(start_date=dates[0], end_date=dates[-1])
        else:
            bad("DT", "dates must be YYYY-MM-DD[,YYYY-MM-DD], start before end")
    if "HA" in values:
        match = re.fullmatch(r"[hH]?([0-9]{1,2})", values["HA"][1])
        if match:
            fields["handicap_reduction"] = int(match.group(1))
        else:
            bad("HA", "handicap reduction must be hN")
    if "KM" in values:
        # float() alone would take "nan", "inf" and "1e999".
        if _KOMI.match(values["KM"][1]):
            fields["komi"] = float(values["KM"][1].replace(",", "."))
        else:
            bad("KM", "komi must be a number such as 6.5 or 0.5")
    if "TM" in values:
        if re.fullmatch(r"[0-9]{1,5}", values["TM"][1]):
            fields["adjusted_time"] = int(values["TM"][1])
        else:
            bad("TM", "adjusted time must be whole minutes")
    if "CM" in values:
        fields["comment"] = values["CM"][1]
    if "TC" in values:
        fields["egd_code"] = values["TC"][1]
    return Header(**fields)
