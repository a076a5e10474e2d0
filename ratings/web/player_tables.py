"""The player page's three long tables (history, events, games) and its "Current rating"
section, rendered in Python.

A player with twenty lists made the template engine do some 550 variable lookups, 50 URL
reversals and 60 translations per page: about half of the page's time
(tests/benchmarks/bench_site.py); after that, the current-rating section's thirteen tags were
more than half of what the template still did (120 of 220 µs). These functions give the same
bytes as the template parts they replace, with each URL reversed by Django's reverse(), the
words translated once per language in a process (_Words) and each value formatted as the
template would (localize, date, the ratings filters); tests/site/test_player_tables.py renders
both on generated rows and players in every language and compares.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from html import escape as _escape

from django.conf import settings
from django.template.defaultfilters import urlencode
from django.urls import reverse
from django.utils.formats import date_format, get_format, localize
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext

from ratings.selectors.players import EventChange, HistoryPoint, PlayerGame, PlayerProfile
from ratings.templatetags.ratings_extras import halfup
from ratings.web.settings_generation import settings_generation
from ratings.web.tables import change_cell


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


@dataclass(frozen=True)
class _Words:
    """The words every player page in one language writes the same, and its decimal separator.

    Translated once per language and settings generation: looked up on each page, they were
    some twenty translations and format look-ups (2-3 µs each) whatever the player."""

    language: str | None
    separator: str
    explain: str
    shared_title: str
    period: str
    free_round: str
    by_default: str
    white: str
    black: str
    won: str
    lost: str
    drawn: str
    nowhere: str
    provisional: str
    half_rating: str
    full_rating: str
    not_listed: str
    rank_in_country: str  # "Rank in %(country)s"
    games_in_all: str  # "%(total)s in all"
    whatif: str
    list_label: str
    rank_label: str
    games_label: str


def _words_now() -> _Words:
    """The active language's words."""
    return _words(get_language(), settings_generation())


@lru_cache
def _words(language: str | None, generation: int) -> _Words:
    """The words in `language` (the active one), looked up once per process, as the list's
    header labels are (ratings.web.tables.header_labels); `generation`: settings_generation()."""
    return _Words(
        language=language,
        separator=get_format("DECIMAL_SEPARATOR"),
        explain=gettext("explain"),
        shared_title=gettext("rated together with the period's other events: the period's change"),
        period=gettext("period"),
        free_round=gettext("free round"),
        by_default=gettext("by default"),
        white=gettext("White"),
        black=gettext("Black"),
        won=gettext("won"),
        lost=gettext("lost"),
        drawn=gettext("drawn"),
        nowhere=gettext("Not on any published list yet."),
        provisional=gettext("provisional"),
        half_rating=gettext("half-rating (one more rated tournament makes a full rating)"),
        full_rating=gettext("full rating"),
        not_listed=gettext("not listed (inactive)"),
        rank_in_country=gettext("Rank in %(country)s"),
        games_in_all=gettext("%(total)s in all"),
        whatif=gettext("What if… (the calculator with these values)"),
        list_label=gettext("List"),
        rank_label=gettext("Rank in the federation"),
        games_label=gettext("Games"),
    )


def _dates(values: Iterable, fmt: str, language: str | None) -> dict:
    """Each distinct date of a table formatted ({{ value|date:fmt }}; none: '')."""
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
    if not history:  # no row: no URL to reverse, no word to look up
        return _rows(())
    words = _words_now()
    explain, separator = words.explain, words.separator
    iso = _dates((h.valid_from for h in history), "Y-m-d", words.language)
    short = _dates((h.valid_from for h in history), "SHORT_DATE_FORMAT", words.language)
    out = []
    for h in reversed(history):
        period = _text(h.period)
        marks = (" P" if h.provisional else "") + (" ½" if h.half_rating else "")
        rd = f'<td class="num">{_text("–" if h.published_rd is None else h.published_rd)}</td>'
        rank = _text("–" if h.rank is None else h.rank) if h.listed else "–"
        change = change_cell(h.published_change, h.change, separator)
        if h.games and h.run_id:
            url = _escape(reverse("ratings:explain", args=[federation_code, player_id, h.run_id]))
            change = f'<a href="{url}" title="{explain}">{change}</a>'
        out.append(
            f'<tr><td><a href="{_escape(reverse("ratings:list", args=[federation_code, h.period]))}">{period}</a></td>'
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
    if not events:  # no row: no URL to reverse, no word to look up
        return _rows(())
    words = _words_now()
    shared = f' <abbr class="shared" title="{words.shared_title}">{words.period}</abbr>'
    explain, separator = words.explain, words.separator
    ended = _dates((e.event_end for e in events), "SHORT_DATE_FORMAT", words.language)
    out = []
    for e in events:
        out.append(
            f'<tr><td><a href="{_escape(reverse("ratings:event", args=[federation_code, e.event_code]))}">'
            f"{_text(e.event_name)}</a></td><td>{ended[e.event_end]}</td>"
            f"<td>{_text(e.period)}</td>"
            f'<td class="num">{_text("–" if e.place is None else e.place)}</td>'
            f'<td class="num">{_text(e.games)}</td>'
            f'<td class="num">{_text("–" if e.score is None else e.score)}</td>'
            f'<td class="num">{_text(halfup(e.before))}</td>'
            f'<td class="num">{_text(halfup(e.after_event))}</td>'
            f'<td class="num">{change_cell(e.change, e.change_unrounded, separator)}'
            f"{shared if e.shared else ''}</td>"
            f'<td><a href="{_escape(reverse("ratings:explain", args=[federation_code, player_id, e.run_id]))}">{explain}</a></td></tr>'
        )
    return _rows(out)


def game_rows(games: Sequence[PlayerGame], *, federation_code: str) -> SafeString:
    """His latest games' rows, from his side."""
    if not games:  # no row: no URL to reverse, no word to look up
        return _rows(())
    words = _words_now()
    free_round, by_default, drawn = words.free_round, words.by_default, words.drawn
    outcomes = {1: ("win", words.won), 0: ("loss", words.lost)}
    out = []
    for g in games:
        if g.opponent:
            url = _escape(
                reverse("ratings:player", args=[federation_code, g.opponent.federation_player_id])
            )
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
            f"<td>{words.white if g.colour == 'white' else words.black}</td>"
            f'<td class="num">{_text(g.handicap or "–")}</td>'
            f'<td class="{css}">{outcome}</td>'
            f'<td><a href="{_escape(reverse("ratings:event", args=[federation_code, g.event_code]))}">'
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
    words = _words_now()
    if current is None:
        return mark_safe(f"\n\n<p>{words.nowhere}</p>\n\n")
    player = profile.player
    rd = ""
    if shows_rd and current.published_rd is not None:
        rd = f'<span class="rd">RD {_text(current.published_rd)}</span>'
    provisional = f'<span class="flag">{words.provisional}</span>' if current.provisional else ""
    half = ""
    if has_half_ratings:
        half = words.half_rating if current.half_rating else words.full_rating
        half = f'<span class="flag">{half}</span>'
    period = profile.current_period
    list_url = conditional_escape(reverse("ratings:list", args=[federation_code, period]))
    rank = _text(current.rank) if current.listed and current.rank else words.not_listed
    country = ""
    if profile.country_rank:
        in_country = words.rank_in_country % {"country": _text(player.country)}
        country = f"<dt>{in_country}</dt><dd>{_text(profile.country_rank)}</dd>"
    in_all = words.games_in_all % {"total": _text(current.total_games)}
    whatif = conditional_escape(reverse("ratings:whatif", args=[system_code]))
    fed, fid = _url_value(federation_code), _url_value(player.federation_player_id)
    return mark_safe(
        f'\n\n<p class="rating"><span class="value">{_text(current.published_rating)}</span>\n'
        f"  {rd}\n  {provisional}\n  {half}\n</p>\n"
        f'<dl class="facts">\n'
        f'  <dt>{words.list_label}</dt><dd><a href="{list_url}">{_text(period)}</a></dd>\n'
        f"  <dt>{words.rank_label}</dt><dd>{rank}</dd>\n"
        f"  {country}\n"
        f"  <dt>{words.games_label}</dt><dd>{_text(current.games)} ({in_all})</dd>\n"
        f"</dl>\n"
        f'<p><a id="whatif-link" href="{whatif}?fed={fed}&amp;player={fid}">{words.whatif}</a>'
        f"</p>\n\n"
    )


def _url_value(value: object) -> str:
    """{{ value|urlencode }}: Django's filter, then escaped as autoescape does its unsafe output."""
    return str(conditional_escape(urlencode(value)))
