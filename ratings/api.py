"""Read-only JSON API under /api/v1/ (documented in the README).

Plain Django views over the same selectors as the pages: no extra framework, GET only, JSON
errors (400 for a bad query string, 404 for an unknown id). List entries page by keyset on the
stored rank: `next` carries `after=<last rank>`.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.http import Http404, JsonResponse
from django.urls import path, reverse
from django.views.decorators.http import require_GET

from ratings import selectors
from ratings.filters import ListNavForm, entries_filterset, filter_params, order_key

API_PAGE_SIZE = 100
API_MAX_PAGE_SIZE = 500
PLAYER_SEARCH_LIMIT = 50


def _error(status: int, message: str, errors: dict | None = None) -> JsonResponse:
    body = {"error": message}
    if errors:
        body["errors"] = {k: [str(e) for e in v] for k, v in errors.items()}
    return JsonResponse(body, status=status)


def api_view(func):
    """GET only; an Http404 from a selector becomes a JSON 404."""

    @require_GET
    def wrapper(request, *args, **kwargs):
        try:
            return func(request, *args, **kwargs)
        except Http404 as exc:
            return _error(404, str(exc) or "not found")

    wrapper.__name__ = func.__name__
    wrapper.__doc__ = func.__doc__
    return wrapper


def _list_json(rating_list, request) -> dict:
    fed_code = rating_list.federation.code
    period = rating_list.period
    return {
        "federation": fed_code,
        "period": period.code,
        "valid_from": period.valid_from.isoformat(),
        "published_at": rating_list.published_at.isoformat() if rating_list.published_at else None,
        "entries": rating_list.entry_count,
        "url": request.build_absolute_uri(
            reverse("ratings:api_list", args=[fed_code, period.code])
        ),
    }


def entry_json(row: dict) -> dict:
    return {
        "rank": row["rank"],
        "id": row["fid"],
        "name": row["name"],
        "country": row["country"],
        "club": row["club"],
        "grade": row["grade"],
        "active": row["active"],
        "rating": row["published_rating"],
        "rating_unrounded": row["rating"],
        "rd": row["published_rd"],
        "rd_unrounded": row["rd"],
        "games": row["games"],
        "change": row["published_change"],
        "change_unrounded": row["change"],
        "provisional": row["provisional"],
        "half_rating": row["half_rating"],
    }


@api_view
def index(request):
    """Where everything is."""
    return JsonResponse(
        {
            "federations": request.build_absolute_uri(reverse("ratings:api_federations")),
            "docs": "README.md, section 'JSON API'",
        }
    )


@api_view
def federations(request):
    summaries = selectors.federation_summaries(_today())
    return JsonResponse(
        {
            "federations": [
                {
                    "code": s.federation.code,
                    "name": s.federation.name,
                    "system": s.federation.system,
                    "latest_period": s.latest_period,
                    "latest_valid_from": s.latest_valid_from.isoformat()
                    if s.latest_valid_from
                    else None,
                    "next_list_due": s.next_due.isoformat() if s.next_due else None,
                    "lists": request.build_absolute_uri(
                        reverse("ratings:api_lists", args=[s.federation.code])
                    ),
                }
                for s in summaries
            ]
        }
    )


def _today():
    from django.utils import timezone

    return timezone.localdate()


@api_view
def lists(request, federation: str):
    fed = selectors.federation_or_404(federation)
    rows = (
        selectors.public_lists(fed).select_related("period").order_by("-period__valid_from", "-id")
    )
    return JsonResponse(
        {"federation": fed.code, "lists": [_list_json_light(fed.code, r, request) for r in rows]}
    )


def _list_json_light(fed_code: str, rating_list, request) -> dict:
    period = rating_list.period
    return {
        "period": period.code,
        "valid_from": period.valid_from.isoformat(),
        "published_at": rating_list.published_at.isoformat() if rating_list.published_at else None,
        "entries": rating_list.entry_count,
        "url": request.build_absolute_uri(
            reverse("ratings:api_list", args=[fed_code, period.code])
        ),
    }


@api_view
def list_entries(request, federation: str, period: str):
    """Entries of one list, filtered like the page, `limit` (<= 500) per page, keyset `after`."""
    rating_list = selectors.list_or_404(federation, period)
    filterset = entries_filterset(request.GET, rating_list)
    nav = ListNavForm({**request.GET.dict(), "size": request.GET.get("limit", "")})
    if not filterset.is_valid():
        return _error(400, "invalid filter", filterset.errors)
    if not nav.is_valid():
        return _error(400, "invalid paging", nav.errors)
    if (
        nav.cleaned_data["sort"] not in ("rank", "-rating")
        or nav.cleaned_data["before"] is not None
    ):
        return _error(400, "the API pages by rank only: use 'after'", None)
    limit = request.GET.get("limit")
    size = nav.cleaned_data["size"] if limit else API_PAGE_SIZE
    size = min(size, API_MAX_PAGE_SIZE)
    page = selectors.list_page(
        filterset.qs,
        sort="rank",
        after=nav.cleaned_data["after"],
        size=size,
        order_key=order_key(rating_list, filterset, "rank"),
    )
    next_url = None
    if page.has_next:
        query = {**filter_params(request.GET), "after": page.next_after}
        if limit:
            query["limit"] = size
        next_url = request.build_absolute_uri(f"{request.path}?{urlencode(query)}")
    return JsonResponse(
        {
            "list": _list_json(rating_list, request),
            "results": [entry_json(r) for r in page.rows],
            "next": next_url,
        }
    )


@api_view
def players(request, federation: str):
    """Search by name prefix or exact id (`q`, at least 2 characters): at most 50 players."""
    fed = selectors.federation_or_404(federation)
    q = request.GET.get("q", "").strip()
    if len(q) < 2 or len(q) > 100:
        return _error(400, "give q with 2 to 100 characters")
    found = selectors.search_players(fed, q, PLAYER_SEARCH_LIMIT)
    return JsonResponse(
        {"federation": fed.code, "results": [_player_json(p, request) for p in found]}
    )


def _player_json(player, request) -> dict:
    code = player.federation.code
    return {
        "id": player.federation_player_id,
        "name": player.full_name,
        "country": player.country,
        "club": player.club,
        "grade": player.grade,
        "active": player.active,
        "url": request.build_absolute_uri(
            reverse("ratings:api_player", args=[code, player.federation_player_id])
        ),
    }


@api_view
def player(request, federation: str, player: str):
    person = selectors.player_or_404(federation, player)
    current = selectors.current_entry(person)
    body = _player_json(person, request)
    body["current"] = (
        None
        if current is None
        else {
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
    )
    body["history"] = request.build_absolute_uri(
        reverse("ratings:api_history", args=[federation, person.federation_player_id])
    )
    return JsonResponse(body)


@api_view
def history(request, federation: str, player: str):
    person = selectors.player_or_404(federation, player)
    return JsonResponse(
        {
            "id": person.federation_player_id,
            "lists": [
                {
                    "period": h.period,
                    "valid_from": h.valid_from.isoformat(),
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
                for h in selectors.player_history(person)
            ],
            "events": [
                {
                    "event": e.event_code,
                    "name": e.event_name,
                    "end": e.event_end.isoformat(),
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
                for e in selectors.player_events(person)
            ],
        }
    )


urlpatterns = [
    path("", index, name="api_index"),
    path("federations/", federations, name="api_federations"),
    path("federations/<slug:federation>/lists/", lists, name="api_lists"),
    path("federations/<slug:federation>/lists/<str:period>/", list_entries, name="api_list"),
    path("federations/<slug:federation>/players/", players, name="api_players"),
    path("federations/<slug:federation>/players/<str:player>/", player, name="api_player"),
    path(
        "federations/<slug:federation>/players/<str:player>/history/",
        history,
        name="api_history",
    ),
]
