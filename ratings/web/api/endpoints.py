"""The read API under /api/v1/, built with django-ninja (see README, "JSON API").

Thin endpoints over the same selectors and filters as the pages; the shapes are in
`ratings.web.api.schemas`, from which django-ninja writes the OpenAPI schema at
/api/v1/openapi.json and validates every response. Errors are `{"error": ..., "errors": ...}`:
400 for a bad query string, 404 for an unknown federation, list or player. List entries page
by keyset on the stored rank: `next` carries `after=<last rank>`.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.http import Http404, HttpRequest
from django.urls import reverse
from django.utils import timezone
from ninja import NinjaAPI, Query
from ninja.errors import ValidationError

from ratings.selectors import federations as federation_selectors
from ratings.selectors import lists as list_selectors
from ratings.selectors import players as player_selectors
from ratings.selectors.errors import NotFound
from ratings.services.live import live_rating
from ratings.web.api.renderer import OrjsonRenderer
from ratings.web.api.schemas import (
    PLAYER_SEARCH_LIMIT,
    Error,
    Federations,
    History,
    Links,
    ListMeta,
    ListPage,
    ListQuery,
    Lists,
    PlayerDetail,
    PlayerSearch,
    SearchText,
)
from ratings.web.exports import entry_record
from ratings.web.filters import entries_filterset, filter_params, order_key


class BadQuery(Exception):
    """A query string the API refuses (400), with what was wrong per parameter."""

    def __init__(self, message: str, errors: dict[str, list[str]] | None = None):
        super().__init__(message)
        self.errors = errors


api = NinjaAPI(
    title="Federation ratings API",
    version="1",
    description=(
        "Read-only: published rating lists, players and their history. Every response is "
        'JSON; errors are `{"error": ..., "errors": {parameter: [...]}}`.'
    ),
    urls_namespace="api",
    docs_url="/docs/",
    openapi_url="/openapi.json",
    renderer=OrjsonRenderer(),
)

NOT_FOUND = {404: Error}
BAD_OR_NOT_FOUND = {400: Error, 404: Error}


def _error(request, status: int, message: str, errors: dict | None = None):
    body = {"error": message}
    if errors:
        body["errors"] = errors
    return api.create_response(request, body, status=status)


@api.exception_handler(Http404)
@api.exception_handler(NotFound)  # a selector's: no such federation, list, player or page
def _not_found(request, exc):
    return _error(request, 404, str(exc) or "not found")


@api.exception_handler(ValidationError)
def _invalid(request, exc):
    errors: dict[str, list[str]] = {}
    for problem in exc.errors:
        name = str(problem["loc"][-1]) if problem.get("loc") else "query"
        errors.setdefault(name, []).append(problem["msg"])
    where = ", ".join(errors)
    return _error(request, 400, f"invalid query parameter: {where}", errors)


@api.exception_handler(BadQuery)
def _bad_query(request, exc):
    return _error(request, 400, str(exc), exc.errors)


def _url(request: HttpRequest, name: str, *args) -> str:
    return request.build_absolute_uri(reverse(f"api:{name}", args=args))


@api.get("/", response=Links, url_name="index", operation_id="index", summary="Where things are")
def index(request):
    """JSON links for programs; a browser (preferring text/html) gets the documentation page."""
    if request.get_preferred_type(["application/json", "text/html"]) == "text/html":
        from ratings.web.api.docs import docs_page

        return docs_page(request, api)
    return {
        "federations": _url(request, "federations"),
        "openapi": _url(request, "openapi-json"),
        "docs": _url(request, "index"),
    }


@api.get("/federations/", response=Federations, url_name="federations", operation_id="federations")
def federations(request):
    """Every federation with its newest published list and when the next one is due."""
    return {
        "federations": [
            {
                "code": s.federation.code,
                "name": s.federation.name,
                "system": s.federation.system,
                "latest_period": s.latest_period,
                "latest_valid_from": s.latest_valid_from,
                "next_list_due": s.next_due,
                "lists": _url(request, "lists", s.federation.code),
            }
            for s in federation_selectors.federation_summaries(timezone.localdate())
        ]
    }


def _list_summary(request, fed_code: str, rating_list) -> dict:
    period = rating_list.period
    return {
        "period": period.code,
        "valid_from": period.valid_from,
        "published_at": rating_list.published_at,
        "entries": rating_list.entry_count,
        "url": _url(request, "list", fed_code, period.code),
    }


@api.get(
    "/federations/{federation}/lists/",
    response={200: Lists, **NOT_FOUND},
    url_name="lists",
    operation_id="lists",
)
def lists(request, federation: str):
    """The federation's published lists, newest first."""
    fed = federation_selectors.federation_by_code(federation)
    found = (
        federation_selectors.public_lists(fed)
        .select_related("period")
        .order_by("-period__valid_from", "-id")
    )
    return {"federation": fed.code, "lists": [_list_summary(request, fed.code, r) for r in found]}


@api.get(
    "/federations/{federation}/lists/{period}/",
    response={200: ListPage, **BAD_OR_NOT_FOUND},
    url_name="list",
    operation_id="list_entries",
)
def list_entries(request, federation: str, period: str, query: Query[ListQuery]):
    """Entries of one published list, filtered as on the list page, `limit` per page in rank
    order; follow `next` for the following page."""
    rating_list = federation_selectors.published_list(federation, period)
    if "before" in request.GET:
        raise BadQuery("the API pages forward by rank only: use 'after'")
    filterset = entries_filterset(request.GET, rating_list)
    if not filterset.is_valid():
        errors = {k: [str(e) for e in v] for k, v in filterset.errors.items()}
        raise BadQuery(f"invalid filter: {', '.join(errors)}", errors)
    page = list_selectors.list_page(
        lambda: filterset.qs,
        rating_list_id=rating_list.pk,
        sort="rank",
        after=query.after,
        size=query.limit,
        order_key=order_key(rating_list, filterset, "rank"),
    )
    next_url = None
    if page.has_next:
        carried = {**filter_params(request.GET), "after": page.next_after}
        if "limit" in request.GET:
            carried["limit"] = query.limit
        next_url = request.build_absolute_uri(f"{request.path}?{urlencode(carried)}")
    # The list's few fields go through the schema (its timestamp and URL types); the entries
    # already have the schema's plain types and go straight to the renderer: validating each
    # one cost three quarters of the request (tests/ratings/web/api/test_fast_responses.py checks the
    # body against the schema).
    meta = ListMeta.model_validate(
        {
            "federation": rating_list.federation.code,
            **_list_summary(request, rating_list.federation.code, rating_list),
        }
    )
    body = {
        "list": meta.model_dump(),
        "results": [entry_record(row) for row in page.rows],
        "next": next_url,
    }
    return api.create_response(request, body, status=200)


def _player(request, player) -> dict:
    return {
        "id": player.federation_player_id,
        "name": player.full_name,
        "country": player.country,
        "club": player.club,
        "grade": player.grade,
        "active": player.active,
        "url": _url(request, "player", player.federation.code, player.federation_player_id),
    }


@api.get(
    "/federations/{federation}/players/",
    response={200: PlayerSearch, **BAD_OR_NOT_FOUND},
    url_name="players",
    operation_id="players",
)
def players(request, federation: str, q: SearchText):
    """Players by id or name ("Surname, Given", "Given Surname", any case, with or without
    accents), as the site's search."""
    fed = federation_selectors.federation_by_code(federation)
    found = player_selectors.search_players(fed, q, PLAYER_SEARCH_LIMIT)
    return {"federation": fed.code, "results": [_player(request, p) for p in found]}


@api.get(
    "/federations/{federation}/players/{player}/",
    response={200: PlayerDetail, **NOT_FOUND},
    url_name="player",
    operation_id="player",
)
def player(request, federation: str, player: str):
    """The player and his entry on the newest published list he is on."""
    person = player_selectors.player_by_code(federation, player)
    current = player_selectors.current_entry(person)
    body = _player(request, person)
    body["current"] = None
    if current is not None:
        body["current"] = {
            "period": current.rating_list.period.code,
            "rating": current.published_rating,
            "rating_unrounded": current.rating,
            "rd": current.published_rd,
            "rank": current.rank if current.listed else None,
            "games": current.games,
            "total_games": current.total_games,
            "provisional": current.provisional,
            "half_rating": current.half_rating,
        }
    body["live"] = _live(request, person)
    body["history"] = _url(request, "history", federation, person.federation_player_id)
    return body


def _live(request, person) -> dict | None:
    found = live_rating(person)
    if found is None:
        return None
    run = found.live_run
    return {
        "unofficial": True,
        "rating": found.published_rating,
        "rating_unrounded": found.rating,
        "rd": found.published_rd,
        "rd_unrounded": found.rd,
        "change": found.change,
        "games": found.games,
        "period": run.period_code,
        "since_list": run.base_list.period.code if run.base_list else None,
        "events": run.events,
        "computed_at": run.computed_at,
        "explain": request.build_absolute_uri(
            reverse(
                "ratings:live_explain",
                args=[person.federation.code, person.federation_player_id],
            )
        ),
    }


@api.get(
    "/federations/{federation}/players/{player}/history/",
    response={200: History, **NOT_FOUND},
    url_name="history",
    operation_id="history",
)
def history(request, federation: str, player: str):
    """One point per published list and the before/after of each rated event."""
    person = player_selectors.player_by_code(federation, player)
    return {
        "id": person.federation_player_id,
        "lists": [
            {
                "period": h.period,
                "valid_from": h.valid_from,
                "rating": h.published_rating,
                "rating_unrounded": h.rating,
                "rd": h.published_rd,
                "rank": h.rank,
                "games": h.games,
                "change": h.published_change,
                "change_unrounded": h.change,
                "provisional": h.provisional,
                "half_rating": h.half_rating,
            }
            for h in player_selectors.player_history(person)
        ],
        "events": [
            {
                "event": e.event_code,
                "name": e.event_name,
                "end": e.event_end,
                "period": e.period,
                "before": e.before,
                "after": e.after_event,
                "before_rd": e.before_rd,
                "after_rd": e.after_rd,
                "change": e.change,
                "change_unrounded": e.change_unrounded,
                "games": e.games,
                "score": e.score,
            }
            for e in player_selectors.player_events(person)
        ],
    }
