"""The public site and the official's path in a real browser: Playwright driving Debian's Chromium
(headless) against pytest-django's live server.

Skips, with the reason printed, when Playwright or /usr/bin/chromium is missing.
"""

from __future__ import annotations

import csv
import io
import os
import shutil

import pytest

from federation.permissions import COMMAND_LINE

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _skip_reason() -> str | None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright is not installed (pip install playwright)"
    if not (os.path.exists(CHROMIUM) or shutil.which("chromium")):
        return f"{CHROMIUM} is missing: apt-get install -y chromium"
    return None


@pytest.fixture(scope="module")
def browser():
    reason = _skip_reason()
    if reason:
        print(f"SKIPPED browser tests: {reason}")
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    # Playwright's sync API runs an event loop in this thread; Django's ORM calls in the test
    # body are still synchronous and safe. Set for these tests only: the variable must not leak
    # into other tests (`check --deploy` rightly refuses it).
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as p:
            chromium = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            yield chromium
            chromium.close()
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture
def page(browser):
    context = browser.new_context(accept_downloads=True, viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


def _names_in_table(page) -> list[str]:
    return page.locator("table.ratings tbody td.col-name a").all_inner_texts()


def test_public_browsing(live_server, page):
    from tests.ratings.web.factories import standard_world

    world = standard_world()
    page.goto(live_server.url + "/")
    assert page.locator("h1").inner_text() == "Rating federations"
    page.get_by_role("link", name="Federation FED").click()
    page.wait_for_url("**/federations/fed/lists/2026Q2/")
    assert _names_in_table(page) == ["Adams, Bob", "Baker, Ann", "Clark, Bob", "Evans, Bob"]

    # sort by name, then reverse
    page.get_by_role("link", name="Name").click()
    page.wait_for_url("**sort=name")
    assert _names_in_table(page) == ["Adams, Bob", "Baker, Ann", "Clark, Bob", "Evans, Bob"]
    page.get_by_role("link", name="Name").click()
    page.wait_for_url("**sort=-name")
    assert _names_in_table(page) == ["Evans, Bob", "Clark, Bob", "Baker, Ann", "Adams, Bob"]

    # filter by country (the sort is kept), then search a name
    page.get_by_label("Country").fill("DE")
    page.get_by_role("button", name="Apply").click()
    page.wait_for_url("**country=DE**")
    assert _names_in_table(page) == ["Evans, Bob", "Clark, Bob", "Adams, Bob"]
    assert page.locator("table.ratings tbody td.col-country").all_inner_texts() == ["DE"] * 3

    page.get_by_label("Name or id").fill("cla")
    page.get_by_role("button", name="Apply").click()
    page.wait_for_url("**q=cla**")
    assert _names_in_table(page) == ["Clark, Bob"]

    # the CSV download has exactly the filtered rows
    page.get_by_label("Name or id").fill("")
    page.get_by_role("button", name="Apply").click()
    page.wait_for_url("**country=DE**")
    with page.expect_download() as info:
        page.get_by_role("link", name="CSV").click()
    download = info.value
    with open(download.path(), encoding="utf-8") as handle:
        rows = list(csv.reader(io.StringIO(handle.read())))
    assert download.suggested_filename == "fed-2026Q2.csv"
    assert [r[2] for r in rows[1:]] == ["Evans", "Clark", "Adams"]
    assert rows[1][6] == "1700"

    # open a player: the chart has one point per published list, with its value as tooltip
    page.get_by_role("link", name="Adams, Bob").click()
    page.wait_for_url("**/players/101/")
    points = page.locator("svg.chart circle.point")
    assert points.count() == len(world.lists) == 2
    assert points.nth(1).locator("title").text_content().endswith("rating 2011 ± 80")
    assert page.locator("svg.chart polygon.band").count() == 1  # ICCF: RD band
    box = page.locator("svg.chart").bounding_box()
    assert box["width"] <= 390  # fits the phone viewport

    # the period selector reaches the previous list without JavaScript
    page.goto(live_server.url + "/federations/fed/lists/2026Q2/")
    page.get_by_label("List").select_option("2026Q1")
    page.get_by_role("button", name="Show").click()
    page.wait_for_url("**/lists/2026Q1/")
    assert "Davis, Ann" in _names_in_table(page)


def test_official_enters_event_runs_publishes_and_public_sees_it(live_server, page, eager_celery):
    from ratings.services.publication import import_list
    from tests.factories import make_official
    from tests.ratings.web.factories import make_federation, make_players

    fed = make_federation("icc", "iccf")
    players = make_players(
        fed,
        [("201", "Ashby", "DE", ""), ("202", "Brook", "FR", ""), ("203", "Crane", "NL", "")],
    )
    import_list(
        federation=fed,
        period_code="2025Q4",
        entries=[
            {
                "player_id": p.pk,
                "rating": 2000.0 - 100 * i,
                "published_rating": 2000 - 100 * i,
                "rd": 80.0,
                "published_rd": 80,
            }
            for i, p in enumerate(players)
        ],
        by=COMMAND_LINE,
    )
    make_official("officer", fed)  # password "pw-officer"
    page.set_viewport_size({"width": 1400, "height": 1000})  # the admin's inline table is wide

    page.goto(live_server.url + "/admin/login/")
    page.fill("#id_username", "officer")
    page.fill("#id_password", "pw-officer")
    page.click("input[type=submit]")
    page.wait_for_url("**/admin/")

    # a new event, then its games
    page.goto(live_server.url + "/admin/tournaments/event/add/")
    page.select_option("#id_federation", str(fed.pk))
    page.fill("#id_name", "Browser Cup")
    page.fill("#id_code", "BC1")
    page.select_option("#id_kind", "individual")
    page.fill("#id_start", "2025-10-01")
    page.fill("#id_end", "2026-06-30")
    page.locator("summary", has_text="ICCF").click()  # a collapsed fieldset
    page.select_option("#id_transmission", "electronic")
    page.fill("#id_reflection_days", "150")
    page.fill("#id_reflection_moves", "50")
    page.locator("input[name=_continue]").click()
    page.wait_for_url("**/change/**")
    for i, (white, black, result) in enumerate(
        [("Ashby", "Crane", "0-1"), ("Brook", "Crane", "1/2")]
    ):
        if i:
            page.get_by_text("Add another Game").click()
        prefix = f"games-{i}"
        page.fill(f"#id_{prefix}-round", "1")
        for side, name in (("white", white), ("black", black)):
            page.locator(f"#id_{prefix}-{side} + span.select2 .select2-selection").click()
            page.locator(".select2-search__field").fill(name)
            page.locator(".select2-results__option", has_text=name).first.click()
        page.select_option(f"#id_{prefix}-result", result)
        page.fill(f"#id_{prefix}-finished_on", f"2025-10-{10 + i}")
        page.fill(f"#id_{prefix}-reported_on", f"2025-10-{11 + i}")
    # the change page posts to itself: wait for that navigation, not for a URL it already has
    with page.expect_navigation():
        page.locator("input[name=_continue]").click()
    from tournaments.models import Event, Game

    assert Game.objects.filter(event__code="BC1").count() == 2

    # through the acceptability workflow: submit, then accept (the rules are checked)
    for action in ("Submit for acceptance", "Accept"):
        page.locator("#acceptability-panel a.button", has_text=action).first.click()
        with page.expect_navigation():
            page.locator(f"input[type=submit][value='{action}']").click()
    assert Event.objects.get(code="BC1").status == "accepted", page.locator("main").inner_text()

    # request a run (Celery is eager without REDIS_URL) and publish its draft
    page.goto(live_server.url + "/admin/ratings/ratingrun/request/")
    page.select_option("select[name=federation]", str(fed.pk))
    page.select_option("select[name=period]", "2026Q1")  # a choice among open periods
    with page.expect_navigation():
        page.locator("form input[type=submit], form button[type=submit]").last.click()
    from ratings.models import RatingList

    draft = RatingList.objects.get(federation=fed, period__code="2026Q1")
    assert draft.run.status == "succeeded", draft.run.error
    page.goto(live_server.url + f"/admin/ratings/ratinglist/{draft.pk}/change/")
    with page.expect_navigation():
        page.get_by_role("button", name="Publish this list").click()
    assert "is published" in page.locator("ul.messagelist").inner_text()
    draft.refresh_from_db()
    assert draft.status == "published"

    # the public pages show the new list and the new ratings
    page.goto(live_server.url + "/federations/icc/")
    page.wait_for_url("**/lists/2026Q1/")
    crane = draft.entries.get(player=players[2])
    assert crane.published_rating > 1800  # he beat Ashby and drew Brook
    row = page.locator("table.ratings tbody tr", has_text="Crane")
    assert str(crane.published_rating) in row.inner_text()
    page.locator("table.ratings a", has_text="Crane").click()
    page.wait_for_url("**/players/203/")
    assert page.locator("svg.chart circle.point").count() == 2  # imported list + new list
    assert "Browser Cup" in page.locator("main").inner_text()
