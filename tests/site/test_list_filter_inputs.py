"""The list page's filter inputs (ratings.web.list_filter_inputs) are, byte for byte, what the
template's own loop over the form's fields wrote before: in every language, for federations with
and without grades, on generated query strings (invalid values and their errors included)."""

from __future__ import annotations

import re

import pytest
from django.conf import settings as django_settings
from django.http import QueryDict
from django.template import Context, Template
from django.utils import translation
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.web.filters import ListFilterForm
from ratings.web.list_filter_inputs import filter_inputs

# The template's block these inputs replace (templates/ratings/list.html before), the reference.
TEMPLATE_FIELDS = Template(
    "{% load i18n %}{% with f=form %}"
    '<p class="field"><label for="id_q">{{ f.q.label }}</label> <input type="search" name="q" id="id_q" maxlength="100" placeholder="{% translate \'e.g. Kamińska, Adam\' %}" value="{{ f.q.value|default_if_none:\'\' }}">{% for e in f.q.errors %}<strong class="error" role="alert">{{ e }}</strong>{% endfor %}</p>\n'  # noqa: E501
    '<p class="field"><label for="id_country">{{ f.country.label }}</label> <input type="text" name="country" id="id_country" size="3" maxlength="2" autocapitalize="characters" value="{{ f.country.value|default_if_none:\'\' }}">{% for e in f.country.errors %}<strong class="error" role="alert">{{ e }}</strong>{% endfor %}</p>\n'  # noqa: E501
    '<p class="field"><label for="id_club">{{ f.club.label }}</label> <input type="text" name="club" id="id_club" maxlength="100" value="{{ f.club.value|default_if_none:\'\' }}">{% for e in f.club.errors %}<strong class="error" role="alert">{{ e }}</strong>{% endfor %}</p>\n'  # noqa: E501
    '{% if shows_grade or f.grade.value %}<p class="field"><label for="id_grade">{{ f.grade.label }}</label> <input type="text" name="grade" id="id_grade" size="4" maxlength="3" value="{{ f.grade.value|default_if_none:\'\' }}">{% for e in f.grade.errors %}<strong class="error" role="alert">{{ e }}</strong>{% endfor %}</p>{% endif %}\n'  # noqa: E501
    '<p class="field"><label for="id_active">{{ f.active.label }}</label> <select name="active" id="id_active">{% with a=f.active.value|stringformat:"s" %}<option value="">{% translate "all" %}</option><option value="true"{% if a == "true" or a == "True" %} selected{% endif %}>{% translate "active" %}</option><option value="false"{% if a == "false" or a == "False" %} selected{% endif %}>{% translate "inactive" %}</option>{% endwith %}</select>{% for e in f.active.errors %}<strong class="error" role="alert">{{ e }}</strong>{% endfor %}</p>'  # noqa: E501
    "{% endwith %}"
)
FIELD = re.compile(r'<p class="field">.*?</p>', re.S)
LANGUAGES = [code for code, _ in django_settings.LANGUAGES]

values = st.one_of(
    st.text(max_size=6),
    st.sampled_from(
        ["", "DE", "de", "D1", "<b>", 'a"b&c', "true", "True", "false", "2", "x" * 101]
    ),
)
query_strings = st.dictionaries(
    st.sampled_from(["q", "country", "club", "grade", "active", "sort"]), values, max_size=5
)


def _both(query: dict, shows_grade: bool) -> tuple[list[str], list[str]]:
    data = QueryDict(mutable=True)
    for key, value in query.items():
        data[key] = value
    ours = filter_inputs(ListFilterForm(data), shows_grade=shows_grade)
    theirs = TEMPLATE_FIELDS.render(
        Context({"form": ListFilterForm(data), "shows_grade": shows_grade})
    )
    return FIELD.findall(ours), FIELD.findall(theirs)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("shows_grade", [True, False])
@settings(max_examples=60, deadline=None)
@given(query=query_strings)
def test_the_inputs_are_the_template_loop_they_replace(language, shows_grade, query):
    with translation.override(language):
        ours, theirs = _both(query, shows_grade)
    assert ours == theirs
    assert len(ours) in (4, 5)


def test_errors_and_values_are_shown_escaped():
    with translation.override("en"):
        ours, theirs = _both({"country": '<"x">', "active": "true", "grade": "A1"}, False)
    assert ours == theirs
    html = "\n".join(ours)
    assert "&lt;&quot;x&quot;&gt;" in html and "A two-letter country code" in html
    assert '<option value="true" selected>' in html and 'value="A1"' in html


@pytest.mark.parametrize("query", [{}, {"sort": "name", "after": "40"}])
def test_the_inputs_without_filters_are_kept_per_language_and_layout(query):
    """A query string without filters is answered from a copy kept per language and layout:
    the copy is the template's loop in each, whichever was asked first."""
    for _round in range(2):  # the first renders and keeps, the second copies
        for language in LANGUAGES:
            for shows_grade in (True, False):
                with translation.override(language):
                    ours, theirs = _both(query, shows_grade)
                assert ours == theirs
                assert len(ours) == (5 if shows_grade else 4)
