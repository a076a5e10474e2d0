"""RowUrl (ratings.web.row_urls) gives what reverse() gives, for every value reverse() accepts, in
every language prefix, and defers to reverse() (its error included) for the rest."""

from __future__ import annotations

import pytest
from django.conf import settings as django_settings
from django.urls import NoReverseMatch, reverse
from django.utils import translation
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.web.row_urls import RowUrl

texts = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=12)
CASES = [
    ("ratings:list", "period", False, {"federation": "ebf"}),
    ("ratings:event", "code", False, {"federation": "x-1"}),
    ("ratings:player", "player", False, {"federation": "egf"}),
    ("ratings:explain", "run", True, {"federation": "egf", "player": "a b%?#é"}),
]


def _reverse_or_error(name, kwargs):
    try:
        return reverse(name, kwargs=kwargs)
    except NoReverseMatch:
        return NoReverseMatch


def _row_url_or_error(url, value):
    try:
        return url(value)
    except NoReverseMatch:
        return NoReverseMatch


@pytest.mark.parametrize("language", [code for code, _ in django_settings.LANGUAGES])
@pytest.mark.parametrize(("name", "vary", "integer", "fixed"), CASES)
@settings(max_examples=80, deadline=None)
@given(text=texts, number=st.integers(-5, 10**12))
def test_row_url_is_reverse(language, name, vary, integer, fixed, text, number):
    with translation.override(language):
        url = RowUrl(name, vary, integer=integer, **fixed)
        for value in (number, str(number)) if integer else (text, f"{text}0"):
            expected = _reverse_or_error(name, {**fixed, vary: value})
            assert _row_url_or_error(url, value) == expected, value


def test_a_fixed_argument_spelling_the_placeholder_still_reverses():
    url = RowUrl("ratings:explain", "run", integer=True, federation="f", player="987654320123")
    assert url(5) == reverse(
        "ratings:explain", kwargs={"federation": "f", "player": "987654320123", "run": 5}
    )
