"""DATABASE_URL's PostgreSQL options (federation.env.database_from_url): how the site's prepared
statements are prepared and planned, and a clear refusal of a value that is not one."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from federation.env import PLAN_CACHE_MODES, database_from_url

BASE = "postgres://ratings:secret@db.internal:5432/ratings"


def _options(query: str = "") -> dict:
    return database_from_url(f"{BASE}{query}", "unused.sqlite3")["OPTIONS"]


def test_by_default_statements_are_prepared_at_once_and_planned_generically():
    assert _options() == {
        "prepare_threshold": 0,
        "options": "-c plan_cache_mode=force_generic_plan",
    }


@pytest.mark.parametrize(("given", "threshold"), [("", None), ("0", 0), ("5", 5)])
def test_prepare_threshold(given, threshold):
    assert _options(f"?prepare_threshold={given}")["prepare_threshold"] == threshold


@pytest.mark.parametrize("mode", PLAN_CACHE_MODES)
def test_plan_cache_mode_is_set_for_the_connection(mode):
    assert _options(f"?plan_cache_mode={mode}")["options"] == f"-c plan_cache_mode={mode}"


def test_an_empty_plan_cache_mode_leaves_the_servers_setting():
    assert "options" not in _options("?plan_cache_mode=")  # e.g. a pooler refusing `options`


def test_the_plan_cache_mode_joins_options_given_in_the_url():
    options = _options("?options=-c%20statement_timeout%3D5000&sslmode=require")
    assert options["options"] == "-c statement_timeout=5000 -c plan_cache_mode=force_generic_plan"
    assert options["sslmode"] == "require"


@pytest.mark.parametrize(
    ("query", "named"),
    [
        ("?prepare_threshold=soon", "prepare_threshold='soon'"),
        ("?prepare_threshold=-1", "prepare_threshold='-1'"),
        ("?plan_cache_mode=generic", "plan_cache_mode='generic'"),
        ("?plan_cache_mode=force_generic_plan%20-c%20x%3D1", "plan_cache_mode="),
    ],
)
def test_a_value_that_is_not_one_is_refused_by_name(query, named):
    with pytest.raises(ImproperlyConfigured, match="DATABASE_URL") as refused:
        _options(query)
    assert named in str(refused.value)
