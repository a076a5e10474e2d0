"""Public pages: no login; everything shown comes from published lists and rated events.

Views are thin: validate the query string (ratings.web.filters), call a selector, render. A bad query
string gives the page back with form errors (400) and an unknown id a 404, never a 500.
"""

from __future__ import annotations

import functools
import logging
from urllib.parse import urlencode

from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from ratings import systems
from ratings.selectors import common, diffs, events, federations, lists, players
from ratings.selectors.errors import NotFound
from ratings.selectors.run_files import files_of, json_download
from ratings.services.live import live_rating
from ratings.web import exports, published_files, tables
from ratings.web.charts import ChartPoint, rating_chart
from ratings.web.filters import (
    LIST_PARAMS,
    ListNavForm,
    entries_filterset,
    filter_params,
    order_key,
)
from ratings.web.page_cache import cached_public_page

logger = logging.getLogger(__name__)


def not_found_as_404(view):
    """The view with a selector's NotFound answered as Django's 404 page."""

    @functools.wraps(view)
    def answered(request, *args, **kwargs):
        try:
            return view(request, *args, **kwargs)
        except NotFound as missing:
            raise Http404(str(missing)) from missing

    return answered


@require_GET
def home(request):
    summaries = federations.federation_summaries(timezone.localdate())
    return render(request, "ratings/home.html", {"summaries": summaries})


SEARCH_SHOWN = 50


@require_GET
def search(request):
    """The home page's search box: players of every federation by id or name."""
    query = request.GET.get("q", "").strip()
    if len(query) > 100 or any(ord(c) < 32 for c in query):
        return render(
            request,
            "ratings/search.html",
            {"query": query[:100], "error": _("Give a name or an id (up to 100 characters).")},
            status=400,
        )
    found = players.search_players(None, query, SEARCH_SHOWN) if query else []
    ratings = players.current_ratings([p.pk for p in found])
    return render(
        request,
        "ratings/search.html",
        {
            "query": query,
            "results": [(p, ratings.get(p.pk)) for p in found],
            "shown": SEARCH_SHOWN,
        },
    )


@not_found_as_404
@require_GET
def federation(request, federation: str):
    fed = federations.federation_by_code(federation)
    wanted = request.GET.get("period")
    if wanted:  # the period selector of the list page
        if len(wanted) > 20 or wanted not in {code for code, _ in federations.period_choices(fed)}:
            raise Http404("no published list for this period")
        return redirect("ratings:list", federation=fed.code, period=wanted)
    latest = federations.latest_list(fed)
    if latest is None:
        return render(request, "ratings/no_list.html", {"federation": fed}, status=404)
    return redirect("ratings:list", federation=fed.code, period=latest.period.code)


def _list_context(request, federation: str, period: str):
    """(rating list, filterset, nav form) or raise Http404; forms may be invalid."""
    rating_list = federations.published_list(federation, period)
    filterset = entries_filterset(request.GET, rating_list)
    nav = ListNavForm(request.GET)
    return rating_list, filterset, nav


@not_found_as_404
@require_GET
@cached_public_page(params=LIST_PARAMS)
def rating_list(request, federation: str, period: str):
    rating_list, filterset, nav = _list_context(request, federation, period)
    fed = rating_list.federation
    system = systems.of(fed)
    context = {
        "rating_list": rating_list,
        "federation": fed,
        "system": system,
        "filterset": filterset,
        "nav": nav,
        "periods": federations.period_options(fed, rating_list.newest_list_id),
        "native_export": system.native_export,
        "rows": None,
    }
    if not (filterset.is_valid() and nav.is_valid()):
        return render(request, "ratings/list.html", context, status=400)
    sort = nav.cleaned_data["sort"]
    filters = filter_params(request.GET)
    page = lists.list_page(
        lambda: filterset.qs,
        rating_list_id=rating_list.pk,
        sort=sort,
        after=nav.cleaned_data["after"],
        before=nav.cleaned_data["before"],
        page=nav.cleaned_data["page"],
        size=nav.cleaned_data["size"],
        order_key=order_key(rating_list, filterset, sort),
    )
    base = {**filters, "sort": sort} if sort != "rank" else dict(filters)
    if nav.cleaned_data["size"] != common.PAGE_SIZE:
        base["size"] = nav.cleaned_data["size"]
    context.update(
        rows=tables.with_player_urls(page.rows, fed.code),
        headers=tables.sort_headers(request.path, filters, sort),
        column_count=tables.column_count(system),
        page=page,
        sort=sort,
        next_url=_page_url(request.path, base, page, forward=True),
        previous_url=_page_url(request.path, base, page, forward=False),
        export_query=urlencode({**filters, "sort": sort}),
        export_links=_export_links(fed.code, rating_list.period.code),
        filtered=bool(filters),
    )
    return render(request, "ratings/list.html", context)


def _export_links(federation_code: str, period: str) -> list[tuple[str, str]]:
    """(label, url) of each download of the list (the filters are appended by the page)."""
    return [
        (fmt.upper(), reverse("ratings:list_export", args=[federation_code, period, fmt]))
        for fmt in exports.FORMATS
    ]


def _page_url(path: str, base: dict, page: lists.ListPage, *, forward: bool) -> str | None:
    if forward and not page.has_next:
        return None
    if not forward and not page.has_previous:
        return None
    if page.page is None:  # keyset
        cursor = {"after": page.next_after} if forward else {"before": page.previous_before}
        return f"{path}?{urlencode({**base, **cursor})}"
    number = page.page + 1 if forward else page.page - 1
    query = {**base, "page": number} if number > 1 else base
    return f"{path}?{urlencode(query)}" if query else path


@not_found_as_404
@require_GET
def list_native_export(request, federation: str, period: str):
    """The whole list in its federation's own format (the system's native export), the file
    written at publication (ratings.web.published_files)."""
    rating_list = federations.published_list(federation, period)
    return published_files.response(rating_list, published_files.NATIVE)


@not_found_as_404
@require_GET
def list_export(request, federation: str, period: str, fmt: str):
    if fmt not in exports.FORMATS:
        raise Http404("unknown export format")
    rating_list, filterset, nav = _list_context(request, federation, period)
    if not (filterset.is_valid() and nav.is_valid()):
        return HttpResponse(
            _("Invalid filter: %(errors)s") % {"errors": {**filterset.errors, **nav.errors}},
            status=400,
            content_type="text/plain; charset=utf-8",
        )
    sort = nav.cleaned_data["sort"]
    filters = filter_params(request.GET)
    if not filters and sort == "rank":  # the whole list: the file written at publication
        return published_files.response(rating_list, fmt)
    fed = rating_list.federation
    response = exports.streamed(
        rating_list,
        fmt,
        lists.export_rows(filterset.qs, sort),
        systems.of(fed),
        filters=filters,
    )
    filename = f"{fed.code}-{rating_list.period.code}.{fmt}"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@not_found_as_404
@require_GET
@cached_public_page(params=("against",))
def list_diff(request, federation: str, period: str):
    current = federations.published_list(federation, period)
    against = request.GET.get("against")
    if against:
        if len(against) > 20:
            raise Http404("no such period")
        previous = federations.published_list(federation, against)
    else:
        previous = federations.previous_list(current)
    diff = diffs.list_diff(current, previous) if previous is not None else None
    return render(
        request,
        "ratings/diff.html",
        {
            "rating_list": current,
            "federation": current.federation,
            "previous": previous,
            "diff": diff,
            "periods": federations.period_choices(current.federation, current.newest_list_id),
        },
    )


@not_found_as_404
@require_GET
@cached_public_page
def player(request, federation: str, player: str):
    profile = players.player_page(federation, player)
    person = profile.player
    if person.merged_into_id:  # entered twice and merged: his page is the kept player's
        kept = person.merged_into
        return redirect("ratings:player", federation, kept.federation_player_id, permanent=True)
    system = systems.of(person.federation)
    # Each point is named as the table beside the chart names it: the list's period.
    points = [
        ChartPoint(
            when=h.valid_from,
            value=h.rating,
            rd=h.rd if system.shows_rd else None,
            label=h.period,
            published=h.published_rating,
            published_rd=h.published_rd,
        )
        for h in profile.history
    ]
    chart = rating_chart(
        points,
        title=_("Rating history of %(name)s") % {"name": person.full_name},
        value_name=_("rating"),
        empty_text=_("no rated history"),
    )
    return render(
        request,
        "ratings/player.html",
        {
            "player": person,
            "federation": person.federation,
            "profile": profile,
            **_player_rows(profile),
            "chart": chart,
            "system": system,
            "games_shown": common.PLAYER_GAMES_SHOWN,
            "live": live_rating(person) if person.has_live_rating else None,
        },
    )


def _player_rows(profile: players.PlayerProfile) -> dict[str, list[tuple]]:
    """The player page's table rows, each with its links (tables.RowUrls: one reverse a link)."""
    code, fid = profile.player.federation.code, profile.player.federation_player_id
    list_url = tables.RowUrls("ratings:list", code)
    explain_url = tables.RowUrls("ratings:explain", code, fid)
    event_url = tables.RowUrls("ratings:event", code)
    player_url = tables.RowUrls("ratings:player", code)
    return {
        "history_rows": [
            (h, list_url(h.period), explain_url(h.run_id) if h.games and h.run_id else None)
            for h in reversed(profile.history)
        ],
        "event_rows": [(e, event_url(e.event_code), explain_url(e.run_id)) for e in profile.events],
        "game_rows": [
            (
                g,
                player_url(g.opponent.federation_player_id) if g.opponent else None,
                event_url(g.event_code),
            )
            for g in profile.games
        ],
    }


@not_found_as_404
@require_GET
@cached_public_page
def event(request, federation: str, code: str):
    ev = events.public_event(federation, code)
    page = events.event_page(ev)
    by_id = {p.id: p for p in page.players}
    context = {
        "event": ev,
        "federation": ev.federation,
        "page": page,
        "acceptability": _acceptability(ev),
    }
    table = systems.of(ev.federation).event_table
    table_context = table.build(page, by_id)
    context.update(table_context, event_table=table, event_table_lines=table_context["lines"])
    return render(request, "ratings/event.html", context)


def _acceptability(event):
    """The rules' verdict on the event, as officials see it in the admin (None if unavailable)."""
    from tournaments.acceptability_report import evaluate_event

    try:
        return evaluate_event(event, today=timezone.localdate())
    except Exception:  # the public page shows the status even if a rule cannot be evaluated
        logger.exception("acceptability of event %s could not be evaluated", event.pk)
        return None


@not_found_as_404
@require_GET
def explain(request, federation: str, player: str, run: int):
    from ratings.web.explain import explain_run

    person = players.player_by_code(federation, player)
    report = explain_run(person, run)
    return render(
        request,
        "ratings/explain.html",
        {"player": person, "federation": person.federation, "report": report},
    )


@not_found_as_404
@require_GET
def live_explain(request, federation: str, player: str):
    from ratings.web.explain import explain_live

    person = players.player_by_code(federation, player)
    _live, report = explain_live(person)
    return render(
        request,
        "ratings/explain.html",
        {"player": person, "federation": person.federation, "report": report},
    )


@not_found_as_404
@require_GET
def run_file(request, federation: str, run: int, part: str):
    """A published run's engine input or output, to check the list with the engine's CLI."""
    files = files_of(players.published_run(federation, run))
    if files is None or part not in ("input", "output"):
        raise Http404("this run has no stored input and output")
    return json_download(getattr(files, part), files.name(part))


@require_http_methods(["GET"])
def whatif_index(request):
    calculators = [system.whatif for system in systems.ALL]
    return render(request, "ratings/whatif_index.html", {"calculators": calculators})


@require_http_methods(["GET"])
def whatif(request, system: str):
    from ratings.web import whatif_players
    from ratings.web.whatif import calculate

    try:
        calculator = systems.get(system).whatif
    except systems.UnknownSystem:
        raise Http404("no calculator for this rating system") from None
    context = whatif_players.context_for(request.GET.get("fed"), system)
    page = whatif_players.read_page(request.GET, calculator, context)
    outcome = None
    if page.calculate:
        outcome = calculate(calculator, page.form, context.engine_params if context else None)
    status = 400 if page.calculate and outcome is None else 200
    return render(
        request,
        calculator.template,
        {
            "calculator": calculator,
            "form": page.form,
            "page": page,
            "outcome": outcome,
            "context": context,
            "federations": whatif_players.federations_for(system),
            "whatif_url": reverse("ratings:whatif", args=[system]),
        },
        status=status,
    )
