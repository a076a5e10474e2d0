"""The API docs and the federation what-if calculator in a real browser at 390 px (Playwright,
Debian's Chromium): no page wider than the phone, the opponent search works without
JavaScript, and the library's Swagger UI renders from its own packaged files (no network)."""

from __future__ import annotations

import pytest

from tests.browser.test_site_browser import browser, page  # noqa: F401 (fixtures)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _width(page) -> int:  # noqa: F811
    return page.evaluate("document.documentElement.scrollWidth")


def test_api_docs_fit_a_phone_and_swagger_ui_renders_offline(live_server, page):  # noqa: F811
    schema_paths = 7
    page.goto(live_server.url + "/api/v1/")
    assert page.locator("h1").inner_text().startswith("Federation ratings API")
    assert page.locator("section.endpoint").count() == schema_paths
    assert _width(page) <= 390
    page.goto(live_server.url + "/api/v1/docs/")
    page.locator(".opblock").first.wait_for()
    assert page.locator(".opblock").count() == schema_paths


def test_what_if_from_a_player_page_with_an_opponent_found_by_name(live_server, page):  # noqa: F811
    from tests.ratings.web.factories import standard_world

    standard_world()
    page.goto(live_server.url + "/federations/fed/players/101/")
    page.locator("#whatif-link").click()
    page.wait_for_url("**/what-if/iccf/?fed=fed&player=101")
    assert page.get_by_label("Your rating").input_value() == "2010.6"
    assert page.get_by_label("Your RD").input_value() == "80.0"
    assert _width(page) <= 390
    page.get_by_label("Name or id", exact=True).fill("bob clark")
    page.get_by_role("button", name="Find").click()
    page.wait_for_url("**action=find**")  # not held back by the empty required box
    page.get_by_role("button", name="as a draw").click()
    page.wait_for_url("**add=**")
    assert page.locator("textarea").input_value() == "#103 0.5"
    assert _width(page) <= 390
    page.get_by_role("button", name="Calculate").click()
    page.locator("#new-rating").wait_for()
    assert page.locator("#new-rating").inner_text().isdigit()
    assert _width(page) <= 390
