"""The rows of a published list for the systems' native writers (``<code>/exports.py``), and the
FIDE-style fixed-width TXT that ICCF and PlayChess both publish. The writers themselves are the
pure ones in tournaments/formats."""

from __future__ import annotations

from collections.abc import Iterator

from django.db.models import F
from django.utils.translation import gettext_lazy as _

from ratings.models import RatingEntry, RatingList
from ratings.systems.base import NativeFormat
from tournaments.formats import fide_list
from tournaments.formats.player_lists import ListRow

LIST_VALUES = (
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


def list_title(rating_list: RatingList) -> str:
    return f"{rating_list.federation.name} {rating_list.period.code}"


def ranked_values(rating_list: RatingList) -> Iterator[dict]:
    """The listed entries by rank (the rating lists' own order)."""
    entries = RatingEntry.objects.filter(rating_list=rating_list, listed=True)
    ordered = entries.order_by(F("rank").asc(nulls_last=True), "player_id")
    return ordered.values(*LIST_VALUES).iterator(chunk_size=2000)


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
            for v in ranked_values(rating_list)
        ),
        list_date=rating_list.period.valid_from,
    )


FIDE_STYLE_TXT = NativeFormat("fide.txt", _("FIDE-style TXT"), fide_style_txt)
