"""What every public read shares: which lists and events are public, page sizes, and an entry
as the tables, exports and API show it."""

from __future__ import annotations

from django.db.models import F

from ratings.models import (
    ListStatus,
)

PUBLIC_LIST_STATUSES = (ListStatus.PUBLISHED, ListStatus.SUPERSEDED)
PUBLIC_EVENT_STATUSES = ("accepted", "rated")  # drafts, submitted and rejected events are 404
PAGE_SIZE = 50
MAX_PAGE_SIZE = 200
# The uncached fallback for other sorts pages by OFFSET; deeper than this, narrow the filter.
MAX_OFFSET_ROWS = 20_000
PLAYER_GAMES_SHOWN = 100

# Sort keys of the list page -> ORDER BY; rating order is rank order (ranks were assigned by
# rating when the list was made), so both are served by the (rating_list, rank) index.
SORTS: dict[str, tuple[str, ...]] = {
    "rank": ("rank",),
    "-rank": ("-rank",),
    "rating": ("-rank",),
    "-rating": ("rank",),
    "fid": ("player__federation_player_id", "rank"),
    "-fid": ("-player__federation_player_id", "rank"),
    "name": ("player__surname", "player__given_name", "rank"),
    "-name": ("-player__surname", "-player__given_name", "rank"),
    "country": ("player__country", "rank"),
    "-country": ("-player__country", "rank"),
    "club": ("player__club", "rank"),
    "-club": ("-player__club", "rank"),
    "grade": ("player__grade", "rank"),
    "-grade": ("-player__grade", "rank"),
    "rd": ("published_rd", "rank"),
    "-rd": ("-published_rd", "rank"),
    "games": ("games", "rank"),
    "-games": ("-games", "rank"),
    "change": (F("published_change").asc(nulls_first=True), "rank"),
    "-change": (F("published_change").desc(nulls_last=True), "rank"),
}
KEYSET_SORTS = {"rank", "-rank", "rating", "-rating"}

ENTRY_FIELDS = (
    "id",
    "rank",
    "rating",
    "rd",
    "published_rating",
    "published_rd",
    "games",
    "total_games",
    "change",
    "published_change",
    "provisional",
    "half_rating",
    "player__id",
    "player__federation_player_id",
    "player__surname",
    "player__given_name",
    "player__country",
    "player__club",
    "player__grade",
    "player__active",
)


def flat_row(values: dict) -> dict:
    """An entry as the tables, exports and API show it (flat keys, the name joined), from the
    ORM's values(*ENTRY_FIELDS) (plus "before" and "delta" where the diff has them)."""
    row = _flat_row(*[values[field] for field in ENTRY_FIELDS])
    for extra in ("before", "delta"):
        if extra in values:
            row[extra] = values[extra]
    return row


def _flat_row(
    entry_id, rank, rating, rd, published_rating, published_rd, games, total_games, change,
    published_change, provisional, half_rating, player_id, fid, surname, given, country, club,
    grade, active,
) -> dict:  # fmt: skip
    """The flat row of ENTRY_FIELDS' values, in that order."""
    return {
        "rank": rank,
        "fid": fid,
        "name": f"{surname}, {given}" if given else surname,
        "surname": surname,
        "given_name": given,
        "country": country,
        "club": club,
        "grade": grade,
        "active": active,
        "rating": rating,
        "published_rating": published_rating,
        "rd": rd,
        "published_rd": published_rd,
        "games": games,
        "total_games": total_games,
        "change": change,
        "published_change": published_change,
        "provisional": provisional,
        "half_rating": half_rating,
        "player_id": player_id,
    }
