"""The published list in EGF's own format: an EGD-style world list (every entry of the list, as
the EGD lists everyone, in name order), which ``import_list --format egd`` reads back with no
change."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date

from django.utils.translation import gettext_lazy as _

from ratings.models import RatingEntry, RatingList
from ratings.systems.base import NativeFormat
from ratings.systems.list_files import LIST_VALUES, list_title
from tournaments.formats import egd_list
from tournaments.formats.player_lists import ListRow

# ISO 3166 back to what the EGD writes (the reverse of federation.countries.ALIASES).
EGD_COUNTRIES = {"GB": "UK"}


def egd_world_list(rating_list: RatingList) -> Iterator[str]:
    """Every entry (the EGD lists everyone) in name order, as the EGD's all-world list."""
    entries = RatingEntry.objects.filter(rating_list=rating_list).order_by(
        "player__surname", "player__given_name", "player_id"
    )
    return egd_list.write_world_list(
        (_egd_row(v) for v in entries.values(*LIST_VALUES).iterator(chunk_size=2000)),
        list_date=rating_list.period.valid_from,
        title=list_title(rating_list),
    )


NATIVE_FORMAT = NativeFormat("egd.txt", _("EGD world list"), egd_world_list)


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
