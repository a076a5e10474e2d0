"""The shapes of the read API (/api/v1/): what each endpoint returns and takes, as pydantic
schemas. django-ninja validates every response against them and writes the OpenAPI schema from
them, so the documentation cannot drift from what the API sends.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Annotated, Literal

from ninja import Field, Schema
from pydantic import PlainSerializer, StringConstraints, WithJsonSchema

from federation.models import RatingSystem
from ratings.web.filters import COUNTRY, GRADE, PRINTABLE

# Timestamps keep the "+00:00" offset clients have always parsed (Django's encoder writes "Z").
Timestamp = Annotated[
    datetime,
    PlainSerializer(lambda value: value.isoformat(), return_type=str),
    WithJsonSchema({"type": "string", "format": "date-time"}),
]
Url = Annotated[str, WithJsonSchema({"type": "string", "format": "uri"})]

PAGE_SIZE = 100
MAX_PAGE_SIZE = 500
PLAYER_SEARCH_LIMIT = 50


class Error(Schema):
    error: str = Field(description="What was wrong, in words.")
    errors: dict[str, list[str]] | None = Field(
        None, description="Per query parameter: what was wrong with its value."
    )


class Links(Schema):
    federations: Url
    openapi: Url = Field(description="This API's OpenAPI 3 schema.")
    docs: Url = Field(description="The same documentation as a web page.")


class FederationOut(Schema):
    code: str
    name: str
    system: RatingSystem
    latest_period: str | None = Field(description="Code of the newest published list's period.")
    latest_valid_from: date | None
    next_list_due: date | None = Field(description="When the next list is due (calendar).")
    lists: Url


class Federations(Schema):
    federations: list[FederationOut]


class ListSummary(Schema):
    period: str
    valid_from: date
    published_at: Timestamp | None
    entries: int = Field(description="Listed entries (players shown on the list).")
    url: Url


class Lists(Schema):
    federation: str
    lists: list[ListSummary] = Field(description="Published lists, newest first.")


class ListMeta(ListSummary):
    federation: str


class Entry(Schema):
    """One entry of a published list: the same keys as the list's JSON export."""

    rank: int | None
    id: str = Field(description="The federation's id of the player.")
    name: str = Field(description='"Surname, Given name".')
    surname: str
    given_name: str
    country: str
    club: str
    grade: str
    active: bool
    rating: int = Field(description="The published rating (an integer).")
    rating_unrounded: float = Field(description="The rating the engine carries on.")
    rd: int | None = Field(description="Published rating deviation (ICCF only).")
    rd_unrounded: float | None
    games: int = Field(description="Games (or solving rounds) rated in this period.")
    change: int | None = Field(
        description="Against the previous list: the difference of the two published ratings; "
        "null when new."
    )
    change_unrounded: float | None = Field(description="The unrounded change beside it.")
    provisional: bool
    half_rating: bool = Field(description="WFCC: a half-rating, not yet a full rating.")


class ListPage(Schema):
    list: ListMeta
    results: list[Entry]
    next: Url | None = Field(description="The next page (same filters), or null at the end.")


class ListQuery(Schema):
    """Filters as on the list page, and paging by rank."""

    q: str | None = Field(
        None, max_length=100, pattern=PRINTABLE, description="Name or id, as the page's search."
    )
    country: str | None = Field(None, pattern=COUNTRY, description="Two-letter country code.")
    club: str | None = Field(None, max_length=100, pattern=PRINTABLE)
    grade: str | None = Field(None, max_length=3, pattern=GRADE, description="Title or grade.")
    active: bool | None = None
    sort: Literal["rank", "-rating"] | None = Field(
        None, description="The API pages by rank only (rank = rating order)."
    )
    limit: int = Field(PAGE_SIZE, ge=1, le=MAX_PAGE_SIZE, description="Entries per page.")
    after: int | None = Field(
        None, ge=0, le=10**9, description="Entries ranked after this rank (the `next` link)."
    )


# A search is two characters at least once the spaces around it are stripped, as the server
# strips them; the pattern says so of the text as sent (" x" is one character). No control
# character anywhere (C0, DEL, C1) nor a byte-order mark: on those the regex dialects disagree
# about what a space is (Python counts \x1c-\x1f and \x85 as spaces, pydantic's Rust engine only
# \x85, ECMA-262, which OpenAPI clients use, none of them but \ufeff); on every other character
# they agree. Without look-ahead: the Rust engine has none.
_NEVER = r"\x00-\x1f\x7f-\x9f\ufeff"
_SPACE = rf"[^\S{_NEVER}]"
_SHOWN = rf"[^\s{_NEVER}]"
SEARCH = rf"^{_SPACE}*{_SHOWN}[^{_NEVER}]*{_SHOWN}{_SPACE}*$"

SearchText = Annotated[
    str,
    StringConstraints(strip_whitespace=True, min_length=2, max_length=100, pattern=SEARCH),
]


class PlayerOut(Schema):
    id: str
    name: str
    country: str
    club: str
    grade: str
    active: bool
    url: Url


class PlayerSearch(Schema):
    federation: str
    results: list[PlayerOut] = Field(description=f"At most {PLAYER_SEARCH_LIMIT} players.")


class Current(Schema):
    period: str
    rating: int
    rating_unrounded: float
    rd: int | None
    rank: int | None = Field(description="null when the player is not listed (e.g. inactive).")
    games: int
    total_games: int
    provisional: bool
    half_rating: bool


class Live(Schema):
    """UNOFFICIAL: the accepted results since the newest published list through the same
    engine; on no published list."""

    unofficial: Literal[True] = Field(description="Always true: this is not a published rating.")
    rating: int = Field(description="Rounded as a list would round it.")
    rating_unrounded: float
    rd: int | None
    rd_unrounded: float | None
    change: int | None = Field(description="Against the official list (published integers).")
    games: int = Field(description="Games (or rounds) counted since the list.")
    period: str = Field(description="The period whose accepted results it counts so far.")
    since_list: str | None = Field(description="The period of the list it continues from.")
    events: list[str] = Field(description="Codes of the accepted events it counts.")
    computed_at: Timestamp
    explain: Url = Field(description="The engine's breakdown (a web page).")


class PlayerDetail(PlayerOut):
    current: Current | None = Field(description="His entry on the newest published list.")
    live: Live | None = Field(
        description="UNOFFICIAL live rating since that list; null when no accepted result "
        "moved him since."
    )
    history: Url


class HistoryPoint(Schema):
    period: str
    valid_from: date
    rating: int
    rating_unrounded: float
    rd: int | None
    rank: int | None
    games: int
    change: int | None = Field(description="The difference of the published ratings.")
    change_unrounded: float | None
    provisional: bool
    half_rating: bool


class EventPoint(Schema):
    event: str = Field(description="The event's code.")
    name: str
    end: date
    period: str
    before: float | None
    after: float = Field(description="The rating this event alone leads to.")
    before_rd: float | None
    after_rd: float | None
    change: int | None = Field(description="This event's own change, published ratings.")
    change_unrounded: float | None
    games: int
    score: float | None


class History(Schema):
    id: str
    lists: list[HistoryPoint] = Field(description="One point per published list, oldest first.")
    events: list[EventPoint] = Field(description="Before and after of each rated event.")
