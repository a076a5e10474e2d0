"""Phone first (issue 14 item 1), in a real browser over the rated demo: no public page is wider
than a 360 or 390 px screen (wide tables scroll in their own box, rank, name and rating kept in
view), every link, button and field is a touch target of at least 40 px, and at 1280 px the
pages' screenshots are exactly the window's width.
"""

from __future__ import annotations

import struct

import pytest
from django.core.management import call_command
from django.urls import reverse

from tests.browser.test_site_browser import browser  # noqa: F401  (the shared fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TAP = 40  # px


def public_pages() -> list[str]:
    """Home, and per federation: the newest list and its diff, a player with rated events and
    his explain page, every rated event; the what-if calculators; the API's front page."""
    from federation.models import Federation
    from ratings.models import EventRating, ListStatus, RatingList
    from tournaments.models import Event

    pages = [reverse("ratings:home"), reverse("ratings:whatif_index"), reverse("ratings:api_index")]
    pages += [reverse("ratings:whatif", args=[s]) for s in ("iccf", "egf", "playchess", "wfcc")]
    for fed in Federation.objects.order_by("code"):
        newest = (
            RatingList.objects.filter(federation=fed, status=ListStatus.PUBLISHED)
            .select_related("period")
            .order_by("-period__valid_from")
            .first()
        )
        pages += [
            reverse("ratings:list", args=[fed.code, newest.period.code]),
            reverse("ratings:list_diff", args=[fed.code, newest.period.code]),
        ]
        rated = (
            EventRating.objects.filter(player__federation=fed, run__rating_list=newest)
            .select_related("player")
            .order_by("-games", "player_id")
            .first()
        )
        fid = rated.player.federation_player_id
        pages += [
            reverse("ratings:player", args=[fed.code, fid]),
            reverse("ratings:explain", args=[fed.code, fid, rated.run_id]),
        ]
        pages += [
            reverse("ratings:event", args=[fed.code, code])
            for code in Event.objects.filter(federation=fed, status="rated").values_list(
                "code", flat=True
            )[:4]
        ]
    return pages


SMALL_TARGETS = """() => [...document.querySelectorAll('a, button, input, select, summary')]
  .filter(e => e.offsetParent !== null && e.type !== 'hidden')
  .map(e => [e.outerHTML.slice(0, 80), e.getBoundingClientRect()])
  .filter(([_, r]) => r.height < %d || r.width < %d)
  .map(([html, r]) => `${html} ${Math.round(r.width)}x${Math.round(r.height)}`)"""


def test_no_public_page_is_wider_than_a_phone(live_server, browser):  # noqa: F811
    call_command("seed_demo", players=80, seed=5)
    call_command("rate_demo")
    pages = public_pages()
    assert len(pages) >= 25
    for width in (360, 390):
        context = browser.new_context(viewport={"width": width, "height": 800})
        page = context.new_page()
        for path in pages:
            response = page.goto(live_server.url + path)
            assert response.status == 200, path
            wide = page.evaluate("document.documentElement.scrollWidth")
            assert wide <= width, f"{path} is {wide} px wide at {width} px"
            if width == 390:
                small = page.evaluate(SMALL_TARGETS % (TAP, TAP))
                assert not small, f"{path}: touch targets under {TAP} px: {small[:5]}"
        context.close()
    # The list keeps rank, name and rating in view when its box is scrolled sideways.
    context = browser.new_context(viewport={"width": 390, "height": 800})
    page = context.new_page()
    page.goto(live_server.url + next(p for p in pages if "/iccf/lists/" in p))
    page.evaluate("document.querySelector('.table-container').scrollLeft = 10000")
    for column in ("rank", "name", "rating"):
        box = page.locator(f"table.ratings tbody td.col-{column}").first.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390, column
    assert page.locator("table.ratings tbody td.col-games").first.bounding_box()["x"] < 390
    context.close()
    # Desktop: the screenshot of each page is the window's width (nothing sticks out).
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    for path in pages:
        page.goto(live_server.url + path)
        shot = page.screenshot(full_page=True)
        shot_width = struct.unpack(">I", shot[16:20])[0]  # the PNG's IHDR width
        assert shot_width == 1280, f"{path}: screenshot {shot_width} px wide"
    context.close()
