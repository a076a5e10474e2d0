"""Each published list in its federation's own file format, besides CSV/XLSX/TXT/JSON:

- EGF: an EGD-style world list (every entry of the list, as the EGD lists everyone, in name
  order), which ``import_list --format egd`` reads back with no change;
- ICCF and PlayChess: a FIDE-style fixed-width TXT (listed entries by rank);
- WFCC: the solvers' list (name, country, rating, tournaments, half-rating flag).

The writers are the pure ones in tournaments/formats; this module reads the rows for them. Which
format a federation's lists get is its system's ``native_export`` (ratings.systems).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date

from django.db.models import F
from django.utils.translation import gettext_lazy as _

from ratings.models import RatingEntry, RatingList
from tournaments.formats import egd_list, fide_list
from tournaments.formats.player_lists import ListRow
from tournaments.formats.solvers_list import SolverLine, write_solvers

# ISO 3166 back to what the EGD writes (the reverse of federation.countries.ALIASES).
EGD_COUNTRIES = {"GB": "UK"}


_VALUES = (
    "rank",
    "published_rating",
    "games",
    "total_games",
    "half_rating",
    "state",
    "player__federation_player_id",
    "player__surname",
    "player__given_name",
    "player__country",
    "player__club",
    "player__grade",
)


def _title(rating_list: RatingList) -> str:
    return f"{rating_list.federation.name} {rating_list.period.code}"


def _ranked(rating_list: RatingList) -> Iterator[dict]:
    """The listed entries by rank (the rating lists' own order)."""
    entries = RatingEntry.objects.filter(rating_list=rating_list, listed=True)
    ordered = entries.order_by(F("rank").asc(nulls_last=True), "player_id")
    return ordered.values(*_VALUES).iterator(chunk_size=2000)


def egd_world_list(rating_list: RatingList) -> Iterator[str]:
    """Every entry (the EGD lists everyone) in name order, as the EGD's all-world list."""
    entries = RatingEntry.objects.filter(rating_list=rating_list).order_by(
        "player__surname", "player__given_name", "player_id"
    )
    return egd_list.write_world_list(
        (_egd_row(v) for v in entries.values(*_VALUES).iterator(chunk_size=2000)),
        list_date=rating_list.period.valid_from,
        title=_title(rating_list),
    )


def solvers_list(rating_list: RatingList) -> Iterator[str]:
    return write_solvers(
        (
            SolverLine(
                v["rank"],
                v["player__surname"],
                v["player__given_name"],
                v["player__country"],
                v["published_rating"],
                v["total_games"] or v["games"],
                v["half_rating"],
            )
            for v in _ranked(rating_list)
        ),
        list_date=rating_list.period.valid_from,
        title=_title(rating_list),
    )


def fide_style_txt(rating_list: RatingList) -> Iterator[str]:
    return fide_list.write_txt(
        (
            ListRow(
                line=0,
                player_id=v["player__federation_player_id"],
                surname=v["player__surname"],
                given_name=v["player__given_name"],
                country=v["player__country"],
                rating=v["published_rating"],
                games=v["games"],
            )
            for v in _ranked(rating_list)
        ),
        list_date=rating_list.period.valid_from,
    )


@dataclass(frozen=True)
class NativeFormat:
    suffix: str  # the file name ends with it
    label: str  # the link text
    lines: Callable[[RatingList], Iterator[str]]


EGD_WORLD_LIST = NativeFormat("egd.txt", _("EGD world list"), egd_world_list)
FIDE_STYLE_TXT = NativeFormat("fide.txt", _("FIDE-style TXT"), fide_style_txt)
SOLVERS_LIST = NativeFormat("solvers.txt", _("Solvers' list"), solvers_list)


def _egd_row(values: dict) -> ListRow:
    state = values["state"] or {}
    country = values["player__country"]
    return ListRow(
        line=0,
        player_id=values["player__federation_player_id"],
        surname=values["player__surname"],
        given_name=values["player__given_name"],
        country=EGD_COUNTRIES.get(country, country),
        club=values["player__club"],
        grade=values["player__grade"] or state.get("grade", ""),
        rating=values["published_rating"],
        tournaments=state.get("tournaments", 0),
        last_appearance=egd_last_code(state),
    )


def egd_last_code(state: dict) -> str:
    """The EGD's code of the last tournament: the imported one while it is still the last,
    else ``T`` and the date (YYMMDD) of the last tournament rated here."""
    last = state.get("last")
    code = state.get("egd_last", "")
    if not last:
        return code
    if egd_list.last_appearance_date(code) == date.fromisoformat(last):
        return code
    return "T" + date.fromisoformat(last).strftime("%y%m%d")
