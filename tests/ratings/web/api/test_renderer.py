"""The API's orjson renderer writes the JSON document django-ninja's own renderer writes, for the
values the API's responses hold (dates and times as Django writes them included)."""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal

from django.utils.translation import gettext_lazy
from hypothesis import given, settings
from hypothesis import strategies as st
from ninja.renderers import JSONRenderer

from ratings.web.api.endpoints import api
from ratings.web.api.renderer import OrjsonRenderer
from tests.json_values import nested

UTC = dt.UTC
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**63), 2**63 - 1),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(),
    st.dates(),
    st.datetimes(timezones=st.sampled_from([None, UTC, dt.timezone(dt.timedelta(hours=-5))])),
    st.times(),
    st.decimals(allow_nan=False, allow_infinity=False, places=3),
    st.just(gettext_lazy("Federation ratings")),
)
documents = nested(scalars, st.text(max_size=8))


@settings(max_examples=300, deadline=None)
@given(document=documents)
def test_the_same_json_document_as_ninjas_renderer(document):
    ours = OrjsonRenderer().render(None, document, response_status=200)
    theirs = JSONRenderer().render(None, document, response_status=200)
    assert json.loads(ours) == json.loads(theirs)


def test_dates_and_decimals_are_written_as_django_writes_them():
    value = {
        "at": dt.datetime(2026, 1, 2, 3, 4, 5, 678901, tzinfo=UTC),
        "on": dt.date(2026, 1, 2),
        "rating": Decimal("2101.50"),
    }
    assert json.loads(OrjsonRenderer().render(None, value, response_status=200)) == {
        "at": "2026-01-02T03:04:05.678Z",
        "on": "2026-01-02",
        "rating": "2101.50",
    }


def test_the_api_renders_with_it():
    assert isinstance(api.renderer, OrjsonRenderer)
    assert api.get_content_type() == "application/json; charset=utf-8"
