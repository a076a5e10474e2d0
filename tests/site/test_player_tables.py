"""The player page's tables and current-rating section rendered in Python
(ratings.web.player_tables) give the same bytes as the template parts they replaced, kept below as
the reference, on generated rows and players (odd texts, missing values, every flag) in every
language of the site."""

from __future__ import annotations

from datetime import date
from types import SimpleNamespace

import pytest
from django.conf import settings as django_settings
from django.template import engines
from django.test import override_settings
from django.utils import translation
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from federation.models import Player
from ratings import systems
from ratings.selectors.players import EventChange, HistoryPoint, PlayerGame
from ratings.web import player_tables

REFERENCE = {
    "history": """{% load i18n ratings_extras %}{% for h in profile.history reversed %}
<tr><td><a href="{% url 'ratings:list' federation.code h.period %}">{{ h.period }}</a></td><td><time datetime="{{ h.valid_from|date:'Y-m-d' }}">{{ h.valid_from|date:"SHORT_DATE_FORMAT" }}</time></td><td class="num">{{ h.published_rating }}{% if h.provisional %} P{% endif %}{% if h.half_rating %} ½{% endif %}</td>{% if system.shows_rd %}<td class="num">{{ h.published_rd|default_if_none:"–" }}</td>{% endif %}<td class="num">{% if h.listed %}{{ h.rank|default_if_none:"–" }}{% else %}–{% endif %}</td><td class="num">{{ h.games }}</td><td class="num">{% if h.games and h.run_id %}<a href="{% url 'ratings:explain' federation.code player.federation_player_id h.run_id %}" title="{% translate 'explain' %}">{{ h.published_change|change:h.change }}</a>{% else %}{{ h.published_change|change:h.change }}{% endif %}</td></tr>
{% endfor %}""",
    "events": """{% load i18n ratings_extras %}{% for e in profile.events %}
<tr><td><a href="{% url 'ratings:event' federation.code e.event_code %}">{{ e.event_name }}</a></td><td>{{ e.event_end|date:"SHORT_DATE_FORMAT" }}</td><td>{{ e.period }}</td><td class="num">{{ e.place|default_if_none:"–" }}</td><td class="num">{{ e.games }}</td><td class="num">{{ e.score|default_if_none:"–" }}</td><td class="num">{{ e.before|halfup }}</td><td class="num">{{ e.after_event|halfup }}</td><td class="num">{{ e.change|change:e.change_unrounded }}{% if e.shared %} <abbr class="shared" title="{% translate "rated together with the period's other events: the period's change" %}">{% translate "period" %}</abbr>{% endif %}</td><td><a href="{% url 'ratings:explain' federation.code player.federation_player_id e.run_id %}">{% translate "explain" %}</a></td></tr>
{% endfor %}""",
    "games": """{% load i18n ratings_extras %}{% for g in profile.games %}
<tr><td>{% if g.opponent %}<a href="{% url 'ratings:player' federation.code g.opponent.federation_player_id %}">{{ g.opponent.full_name }}</a>{% else %}{% translate "free round" %}{% endif %}</td><td class="num">{{ g.opponent_rating|halfup }}</td><td>{% if g.colour == "white" %}{% translate "White" %}{% else %}{% translate "Black" %}{% endif %}</td><td class="num">{{ g.handicap|default:"–" }}</td><td class="{% if g.points == 1 %}win{% elif g.points == 0 %}loss{% endif %}">{% if g.points is None %}–{% elif g.points == 1 %}{% translate "won" %}{% elif g.points == 0 %}{% translate "lost" %}{% else %}{% translate "drawn" %}{% endif %}{% if g.by_default %} ({% translate "by default" %}){% endif %}</td><td><a href="{% url 'ratings:event' federation.code g.event_code %}">{{ g.event_name }}</a></td><td class="num">{{ g.round }}</td></tr>
{% endfor %}""",
    "current": """{% load i18n ratings_extras %}{% with c=profile.current %}
{% if c %}
<p class="rating"><span class="value">{{ c.published_rating }}</span>
  {% if system.shows_rd and c.published_rd is not None %}<span class="rd">RD {{ c.published_rd }}</span>{% endif %}
  {% if c.provisional %}<span class="flag">{% translate "provisional" %}</span>{% endif %}
  {% if system.has_half_ratings %}{% if c.half_rating %}<span class="flag">{% translate "half-rating (one more rated tournament makes a full rating)" %}</span>{% else %}<span class="flag">{% translate "full rating" %}</span>{% endif %}{% endif %}
</p>
<dl class="facts">
  <dt>{% translate "List" %}</dt><dd><a href="{% url 'ratings:list' federation.code profile.current_period %}">{{ profile.current_period }}</a></dd>
  <dt>{% translate "Rank in the federation" %}</dt><dd>{% if c.listed and c.rank %}{{ c.rank }}{% else %}{% translate "not listed (inactive)" %}{% endif %}</dd>
  {% if profile.country_rank %}<dt>{% blocktranslate with country=player.country %}Rank in {{ country }}{% endblocktranslate %}</dt><dd>{{ profile.country_rank }}</dd>{% endif %}
  <dt>{% translate "Games" %}</dt><dd>{{ c.games }} ({% blocktranslate with total=c.total_games %}{{ total }} in all{% endblocktranslate %})</dd>
</dl>
<p><a id="whatif-link" href="{% url 'ratings:whatif' system.code %}?fed={{ federation.code|urlencode }}&amp;player={{ player.federation_player_id|urlencode }}">{% translate "What if… (the calculator with these values)" %}</a></p>
{% else %}
<p>{% translate "Not on any published list yet." %}</p>
{% endif %}
{% endwith %}""",
}

# What a URL argument can hold (a "/" makes reverse() refuse it, on both paths alike).
texts = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="/\x00"),
    min_size=1,
    max_size=12,
)
codes = st.from_regex(r"[a-z][a-z0-9_-]{0,8}", fullmatch=True)
ratings = st.none() | st.floats(-500, 4000, allow_nan=False) | st.integers(-500, 4000)
days = st.dates(date(1990, 1, 1), date(2030, 12, 31))

history_points = st.builds(
    HistoryPoint,
    period=texts,
    valid_from=days,
    rating=st.floats(0, 3000),
    published_rating=st.integers(-10, 3000),
    rd=st.none() | st.floats(0, 400),
    published_rd=st.none() | st.integers(0, 400),
    rank=st.none() | st.integers(1, 10**6),
    games=st.integers(0, 40),
    change=st.none() | st.floats(-300, 300),
    published_change=st.none() | st.integers(-300, 300),
    provisional=st.booleans(),
    half_rating=st.booleans(),
    listed=st.booleans(),
    run_id=st.none() | st.integers(1, 10**6),
)
event_changes = st.builds(
    EventChange,
    run_id=st.integers(1, 10**6),
    event_code=texts,
    event_name=texts,
    event_end=st.none() | days,
    before=st.none() | st.floats(0, 3000),
    after=st.floats(0, 3000),
    before_rd=st.none() | st.floats(0, 400),
    after_rd=st.none() | st.floats(0, 400),
    games=st.integers(0, 40),
    score=st.none() | st.sampled_from([0, 0.5, 1, 2.5, 7.0, 11.5]),
    period=texts,
    own=st.none() | st.floats(-50, 50),
    shared=st.booleans(),
    place=st.none() | st.integers(1, 500),
)
opponents = st.none() | st.builds(
    lambda fid, surname, given: Player(federation_player_id=fid, surname=surname, given_name=given),
    texts,
    texts,
    st.sampled_from(["", "Ann", "<b>&'\""]),
)
player_games = st.builds(
    PlayerGame,
    event_code=texts,
    event_name=texts,
    round=st.integers(0, 30),
    opponent=opponents,
    opponent_rating=st.none() | st.floats(0, 3000),
    colour=st.sampled_from(["white", "black"]),
    handicap=st.integers(0, 9),
    points=st.none() | st.sampled_from([0, 0.5, 1, 0.0, 1.0]),
    by_default=st.booleans(),
)


def _reference(name: str, **context) -> str:
    return engines["django"].from_string(REFERENCE[name]).render(context)


@pytest.mark.parametrize("grouping", [False, True])  # USE_THOUSAND_SEPARATOR
@pytest.mark.parametrize("language", [code for code, _ in django_settings.LANGUAGES])
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    code=codes,
    fid=texts,
    shows_rd=st.booleans(),
    history=st.lists(history_points, max_size=6),
    events=st.lists(event_changes, max_size=6),
    games=st.lists(player_games, max_size=6),
)
def test_the_tables_are_the_template_rows(
    grouping, language, code, fid, shows_rd, history, events, games
):
    federation = SimpleNamespace(code=code)
    player = SimpleNamespace(federation_player_id=fid)
    profile = SimpleNamespace(history=history, events=events, games=games)
    system = SimpleNamespace(shows_rd=shows_rd)
    context = {"federation": federation, "player": player, "profile": profile, "system": system}
    with translation.override(language), override_settings(USE_THOUSAND_SEPARATOR=grouping):
        assert player_tables.history_rows(
            history, federation_code=code, player_id=fid, shows_rd=shows_rd
        ) == _reference("history", **context)
        assert player_tables.event_rows(events, federation_code=code, player_id=fid) == _reference(
            "events", **context
        )
        assert player_tables.game_rows(games, federation_code=code) == _reference(
            "games", **context
        )


@pytest.mark.parametrize("grouping", [False, True])  # USE_THOUSAND_SEPARATOR
@pytest.mark.parametrize("language", [code for code, _ in django_settings.LANGUAGES])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    code=codes,
    fid=texts,
    country=st.sampled_from(["", "DE", "<&>"]) | texts,
    system_code=st.sampled_from([system.code for system in systems.ALL]),
    shows_rd=st.booleans(),
    has_half_ratings=st.booleans(),
    current=st.none() | history_points,
    current_period=texts,
    country_rank=st.none() | st.integers(0, 10**5),
)
def test_the_current_rating_is_the_template_section(
    grouping,
    language,
    code,
    fid,
    country,
    system_code,
    shows_rd,
    has_half_ratings,
    current,
    current_period,
    country_rank,
):
    federation = SimpleNamespace(code=code)
    player = SimpleNamespace(federation_player_id=fid, country=country)
    profile = SimpleNamespace(
        player=player, current=current, current_period=current_period, country_rank=country_rank
    )
    system = SimpleNamespace(code=system_code, shows_rd=shows_rd, has_half_ratings=has_half_ratings)
    context = {"federation": federation, "player": player, "profile": profile, "system": system}
    with translation.override(language), override_settings(USE_THOUSAND_SEPARATOR=grouping):
        assert player_tables.current_section(
            profile,
            federation_code=code,
            system_code=system_code,
            shows_rd=shows_rd,
            has_half_ratings=has_half_ratings,
        ) == _reference("current", **context)
