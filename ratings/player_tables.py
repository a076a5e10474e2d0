"""The player page's three long tables (history, events, games) and its "Current rating"
section, rendered in Python.

A player with twenty lists made the template engine do some 550 variable lookups, 50 URL
reversals and 60 translations per page: about half of the page's time
(tests/benchmarks/bench_site.py); after that, the current-rating section's thirteen tags were
more than half of what the template still did (120 of 220 µs). These functions give the same
bytes as the template parts they replace, with each URL reversed once per table (RowUrl), each
label translated once and each value formatted as the template would (localize, date, the
ratings filters); tests/site/test_player_tables.py renders both on generated rows and players
in every language and compares.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date
from functools import lru_cache
from html import escape as _escape

from django.conf import settings
from django.template.defaultfilters import urlencode
from django.utils.formats import date_format, get_format, localize
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext

from federation.url_templates import reverse_fast
from ratings.row_urls import RowUrl
from ratings.selectors import EventChange, HistoryPoint, PlayerGame, PlayerProfile
from ratings.settings_generation import settings_generation
from ratings.tables import change_cell
from ratings.templatetags.ratings_extras import halfup


def _text(value: object) -> str:
    """{{ value }}: localized, then escaped unless already safe."""
    if type(value) is int and not _groups_thousands():
        return str(value)  # what localize() gives an int without grouping
    if type(value) is str:  # localize() leaves a plain str alone; escape() is html.escape
        return _escape(value)
    return str(conditional_escape(localize(value)))


# settings.USE_THOUSAND_SEPARATOR, read once per settings generation: a player page formats
# some ninety numbers, and each read of the lazy settings object goes through Python.
_grouping: list[tuple[int, bool]] = [(-1, False)]  # (generation, the setting's value)


def _groups_thousands() -> bool:
    generation, grouping = _grouping[0]
    if generation != settings_generation():
        grouping = settings.USE_THOUSAND_SEPARATOR
        _grouping[0] = (settings_generation(), grouping)
    return grouping


def _dates(values: Iterable, fmt: str) -> dict:
    """Each distinct date of a table formatted ({{ value|date:fmt }}; none: '')."""
    language = get_language()
    return {v: _formatted(v, fmt, language) for v in set(values)}


def _formatted(value, fmt: str, language: str) -> str:
    if value in (None, ""):
        return ""
    if type(value) is date:  # a datetime's text depends on the time zone too: not cached
        return _date(value, fmt, language)
    return date_format(value, fmt)


@lru_cache(maxsize=4096)
def _date(value: date, fmt: str, language: str) -> str:
    """A date as `fmt` gives it in `language` (the active one): the same periods' dates recur
    on every player's page."""
    return date_format(value, fmt)


def _rows(rows: Iterable[str]) -> SafeString:
    """The rows as a {% for %} loop with one row per line gives them."""
    return mark_safe("".join(f"\n{row}\n" for row in rows))


def history_rows(
    history: Sequence[HistoryPoint], *, federation_code: str, player_id: str, shows_rd: bool
) -> SafeString:
    """The history table's rows, newest list first."""
    list_url = RowUrl("ratings:list", "period", federation=federation_code)
    explain_url = RowUrl(
        "ratings:explain", "run", integer=True, federation=federation_code, player=player_id
    )
    explain = gettext("explain")
    separator = get_format("DECIMAL_SEPARATOR")  # once per table, not per row
    iso = _dates((h.valid_from for h in history), "Y-m-d")
    short = _dates((h.valid_from for h in history), "SHORT_DATE_FORMAT")
    out = []
    for h in reversed(history):
        period = _text(h.period)
        marks = (" P" if h.provisional else "") + (" ½" if h.half_rating else "")
        rd = f'<td class="num">{_text("–" if h.published_rd is None else h.published_rd)}</td>'
        rank = _text("–" if h.rank is None else h.rank) if h.listed else "–"
        change = change_cell(h.published_change, h.change, separator)
        if h.games and h.run_id:
            url = _escape(explain_url(h.run_id))
            change = f'<a href="{url}" title="{explain}">{change}</a>'
        out.append(
            f'<tr><td><a href="{_escape(list_url(h.period))}">{period}</a></td>'
            f'<td><time datetime="{iso[h.valid_from]}">{short[h.valid_from]}</time></td>'
            f'<td class="num">{_text(h.published_rating)}{marks}</td>'
            f"{rd if shows_rd else ''}"
            f'<td class="num">{rank}</td><td class="num">{_text(h.games)}</td>'
            f'<td class="num">{change}</td></tr>'
        )
    return _rows(out)


def event_rows(
    events: Sequence[EventChange], *, federation_code: str, player_id: str
) -> SafeString:
    """The rated events' rows, latest first."""
    event_url = RowUrl("ratings:event", "code", federation=federation_code)
    explain_url = RowUrl(
        "ratings:explain", "run", integer=True, federation=federation_code, player=player_id
    )
    together = gettext("rated together with the period's other events: the period's change")
    period = gettext("period")
    shared = f' <abbr class="shared" title="{together}">{period}</abbr>'
    explain = gettext("explain")
    separator = get_format("DECIMAL_SEPARATOR")
    ended = _dates((e.event_end for e in events), "SHORT_DATE_FORMAT")
    out = []
    for e in events:
        out.append(
            f'<tr><td><a href="{_escape(event_url(e.event_code))}">'
            f"{_text(e.event_name)}</a></td><td>{ended[e.event_end]}</td>"
            f"<td>{_text(e.period)}</td>"
            f'<td class="num">{_text("–" if e.place is None else e.place)}</td>'
            f'<td class="num">{_text(e.games)}</td>'
            f'<td class="num">{_text("–" if e.score is None else e.score)}</td>'
            f'<td class="num">{_text(halfup(e.before))}</td>'
            f'<td class="num">{_text(halfup(e.after_event))}</td>'
            f'<td class="num">{change_cell(e.change, e.change_unrounded, separator)}'
            f"{shared if e.shared else ''}</td>"
            f'<td><a href="{_escape(explain_url(e.run_id))}">{explain}</a></td></tr>'
        )
    return _rows(out)


def game_rows(games: Sequence[PlayerGame], *, federation_code: str) -> SafeString:
    """His latest games' rows, from his side."""
    player_url = RowUrl("ratings:player", "player", federation=federation_code)
    event_url = RowUrl("ratings:event", "code", federation=federation_code)
    free_round, by_default = gettext("free round"), gettext("by default")
    colours = {"white": gettext("White"), "black": gettext("Black")}
    outcomes = {1: ("win", gettext("won")), 0: ("loss", gettext("lost"))}
    drawn = gettext("drawn")
    out = []
    for g in games:
        if g.opponent:
            url = _escape(player_url(g.opponent.federation_player_id))
            opponent = f'<a href="{url}">{_text(g.opponent.full_name)}</a>'
        else:
            opponent = free_round
        if g.points is None:
            css, outcome = "", "–"
        else:
            css, outcome = outcomes.get(g.points, ("", drawn))
        outcome += f" ({by_default})" if g.by_default else ""
        out.append(
            f'<tr><td>{opponent}</td><td class="num">{_text(halfup(g.opponent_rating))}</td>'
            f"<td>{colours['white'] if g.colour == 'white' else colours['black']}</td>"
            f'<td class="num">{_text(g.handicap or "–")}</td>'
            f'<td class="{css}">{outcome}</td>'
            f'<td><a href="{_escape(event_url(g.event_code))}">'
            f"{_text(g.event_name)}</a></td>"
            f'<td class="num">{_text(g.round)}</td></tr>'
        )
    return _rows(out)


def current_section(
    profile: PlayerProfile,
    *,
    federation_code: str,
    system_code: str,
    shows_rd: bool,
    has_half_ratings: bool,
) -> SafeString:
    """His rating on the newest published list he is on, its flags, ranks and games, and the
    what-if link; a line saying he is on none yet."""
    current = profile.current
    if current is None:
        nowhere = gettext("Not on any published list yet.")
        return mark_safe(f"\n\n<p>{nowhere}</p>\n\n")
    player = profile.player
    rd = ""
    if shows_rd and current.published_rd is not None:
        rd = f'<span class="rd">RD {_text(current.published_rd)}</span>'
    provisional = ""
    if current.provisional:
        provisional = gettext("provisional")
        provisional = f'<span class="flag">{provisional}</span>'
    half = ""
    if has_half_ratings:
        if current.half_rating:
            half = gettext("half-rating (one more rated tournament makes a full rating)")
        else:
            half = gettext("full rating")
        half = f'<span class="flag">{half}</span>'
    period = profile.current_period
    list_url = conditional_escape(reverse_fast("ratings:list", args=[federation_code, period]))
    if current.listed and current.rank:
        rank = _text(current.rank)
    else:
        rank = gettext("not listed (inactive)")
    country = ""
    if profile.country_rank:
        in_country = gettext("Rank in %(country)s") % {"country": _text(player.country)}
        country = f"<dt>{in_country}</dt><dd>{_text(profile.country_rank)}</dd>"
    in_all = gettext("%(total)s in all") % {"total": _text(current.total_games)}
    whatif = conditional_escape(reverse_fast("ratings:whatif", args=[system_code]))
    whatif_text = gettext("What if… (the calculator with these values)")
    fed, fid = _url_value(federation_code), _url_value(player.federation_player_id)
    list_label, rank_label = gettext("List"), gettext("Rank in the federation")
    games_label = gettext("Games")
    return mark_safe(
        f'\n\n<p class="rating"><span class="value">{_text(current.published_rating)}</span>\n'
        f"  {rd}\n  {provisional}\n  {half}\n</p>\n"
        f'<dl class="facts">\n'
        f'  <dt>{list_label}</dt><dd><a href="{list_url}">{_text(period)}</a></dd>\n'
        f"  <dt>{rank_label}</dt><dd>{rank}</dd>\n"
        f"  {country}\n"
        f"  <dt>{games_label}</dt><dd>{_text(current.games)} ({in_all})</dd>\n"
        f"</dl>\n"
        f'<p><a id="whatif-link" href="{whatif}?fed={fed}&amp;player={fid}">{whatif_text}</a>'
        f"</p>\n\n"
    )


def _url_value(value: object) -> str:
    """{{ value|urlencode }}: Django's filter, then escaped as autoescape does its unsafe output."""
    return str(conditional_escape(urlencode(value)))
