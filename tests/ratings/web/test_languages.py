"""German and French pages (issue 14 item 8): every public page renders in each language, with
its own words, dates and decimals, a switcher to the same page in the others, and compiled
catalogues that say exactly what their sources say."""

from __future__ import annotations

import ast
import gettext
from pathlib import Path

import pytest
from django.conf import settings

from tests.ratings.web.factories import standard_world

pytestmark = pytest.mark.django_db

LOCALE = Path(settings.BASE_DIR) / "locale"
PAGES = [
    "/",
    "/federations/fed/lists/2026Q2/",
    "/federations/fed/lists/2026Q2/diff/",
    "/federations/fed/players/101/",
    "/federations/fed/events/OPEN-26/",
    "/search/?q=adams",
    "/what-if/",
    "/what-if/iccf/",
]
WORDS = {  # a word of the page's own text in each language
    "en": ("Federations", "Rating"),
    "de": ("Verbände", "Wertung"),
    "fr": ("Fédérations", "Classement"),
}


@pytest.mark.parametrize("language", ["en", "de", "fr"])
def test_every_public_page_renders_in_each_language(client, language):
    world = standard_world()
    prefix = "" if language == "en" else f"/{language}"
    for page in PAGES:
        response = client.get(prefix + page)
        assert response.status_code == 200, (language, page)
        html = response.content.decode()
        assert f'<html lang="{language}">' in html, page
        assert WORDS[language][0] in html, (language, page)
        for other in ("de", "fr"):  # the switcher: this page in the other languages
            path = page.split("?")[0]
            assert f'href="/{other}{path}' in html, (language, page, other)
    profile = client.get(prefix + "/federations/fed/players/101/").content.decode()
    assert WORDS[language][1] in profile
    valid_from = world.periods[1].valid_from  # 2026-04-01, in the reader's format
    shown = {"en": "2026-04-01", "de": "01.04.2026", "fr": "01/04/2026"}[language]
    assert shown in profile and valid_from.isoformat() in profile  # (the <time> keeps ISO)


@pytest.mark.parametrize("language", ["en", "de", "fr"])
def test_the_switcher_links_where_translate_url_does(client, language):
    """The switcher reverses the request's own match for each language (no second resolve):
    the same URLs as Django's translate_url, query string included, on every page."""
    from django.urls import translate_url
    from django.utils.translation import override

    from ratings.templatetags.ratings_extras import _in_language

    standard_world()
    prefix = "" if language == "en" else f"/{language}"
    for page in [*PAGES, "/federations/fed/lists/2026Q2/?country=D%C3%96&sort=name"]:
        request = client.get(prefix + page).wsgi_request
        for code, _ in settings.LANGUAGES:
            with override(language):
                expected = translate_url(request.get_full_path(), code)
                assert _in_language(request, code) == expected, (page, code)


# The switcher's items as the base template rendered them before {% language_items %}.
SWITCHER_LOOP = (
    "{% for code, name, url, current in languages %}\n"
    '      <li><a href="{{ url }}" hreflang="{{ code }}" lang="{{ code }}"'
    '{% if current %} aria-current="true"{% endif %}>{{ name }}</a></li>{% endfor %}'
)


@pytest.mark.parametrize("language", ["en", "de", "fr"])
def test_the_switcher_items_are_the_loop_they_replace(client, language):
    from django.template import RequestContext, Template
    from django.utils.translation import get_language, override

    from ratings.templatetags.ratings_extras import _in_language, language_items

    standard_world()
    prefix = "" if language == "en" else f"/{language}"
    odd = "/federations/fed/lists/2026Q2/?q=%3Cb%3E%26%22x&country=D%C3%96&sort=name"
    for page in [*PAGES, odd]:
        request = client.get(prefix + page).wsgi_request
        with override(language):
            languages = [
                (code, name, _in_language(request, code), code == get_language())
                for code, name in settings.LANGUAGES
            ]
            context = RequestContext(request, {"request": request, "languages": languages})
            expected = Template(SWITCHER_LOOP).render(context)
            assert language_items(context) == expected, page
            assert 'aria-current="true"' in expected


def test_decimals_follow_the_reader(client):
    query = {"rating": "2200", "games": "40", "opponents": "2000 1"}
    english = client.get("/what-if/playchess/", query).content.decode()
    german = client.get("/de/what-if/playchess/", query).content.decode()
    french = client.get("/fr/what-if/playchess/", query).content.decode()
    assert "(2204.3246)" in english  # 2200 + 18·(1 − 0.759747), RULES §3.4
    assert "(2204,3246)" in german and "(2204,3246)" in french


def po_entries(path: Path) -> dict[str, str]:
    """msgid -> msgstr of a .po file (singular entries; plurals as msgid -> first form)."""
    entries, key, current = {}, None, {}
    for line in path.read_text().splitlines() + [""]:
        if line.startswith(("msgid ", "msgid_plural ", "msgstr ", "msgstr[0] ", "msgstr[1] ")):
            key, _, rest = line.partition(" ")
            current[key] = ast.literal_eval(rest)
        elif line.startswith('"') and key:
            current[key] += ast.literal_eval(line)
        elif not line.strip():
            if current.get("msgid"):
                entries[current["msgid"]] = current.get("msgstr", current.get("msgstr[0]", ""))
            current, key = {}, None
    return entries


@pytest.mark.parametrize("language", ["de", "fr"])
def test_compiled_catalogue_matches_its_source(language):
    """A .po edited without `make messages` leaves a stale .mo: this fails until it is compiled."""
    source = po_entries(LOCALE / language / "LC_MESSAGES" / "django.po")
    with open(LOCALE / language / "LC_MESSAGES" / "django.mo", "rb") as handle:
        compiled = gettext.GNUTranslations(handle)
    translated = {k: v for k, v in source.items() if v}
    assert len(translated) >= 250
    for msgid, msgstr in translated.items():
        assert compiled.gettext(msgid) == msgstr, msgid
