"""The officials' correction flow in a real browser (issue 13 items 3-4): a result of a published
period is changed in the admin, the dashboard names the period to re-run and why, the officer
re-rates from it, reviews original beside revised ratings for it and the later period, publishes
both at once, and the public list shows the corrected rating. Prints the submissions and seconds
the flow takes (for the note)."""

from __future__ import annotations

import time
from datetime import date

import pytest

from federation.permissions import COMMAND_LINE
from tests.browser.test_site_browser import browser, page  # noqa: F401  (the shared fixtures)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _egf_world():
    from ratings.services import publication, runs
    from tests.factories import make_official
    from tests.ratings.web.factories import make_federation, make_players
    from tournaments.models import Event, Game

    fed = make_federation("egx", "egf")
    players = make_players(
        fed, [("11", "Ashby", "DE", ""), ("12", "Brook", "FR", ""), ("13", "Crane", "NL", "")]
    )
    for player, grade in zip(players, ("2d", "1d", "1k"), strict=True):
        player.grade = grade
        player.save()
    games = []
    for code, day in (("T1", date(2025, 1, 11)), ("T2", date(2025, 2, 8))):
        event = Event.objects.create(
            federation=fed,
            name=code,
            code=code,
            kind="individual",
            status="accepted",
            rating_class="A",
            start=day,
            end=day,
        )
        games.append(
            Game.objects.create(
                event=event, round=1, white=players[0], black=players[1], result="1-0"
            )
        )
        Game.objects.create(event=event, round=2, white=players[2], black=players[0], result="0-1")
        run = runs.run_now(federation=fed, period_code=f"2025-0{day.month}", by=COMMAND_LINE)
        publication.publish_list(list_id=run.rating_list.pk, by=COMMAND_LINE)
    make_official("officer", fed)  # password "pw-officer"
    return fed, players, games


def test_a_changed_result_is_rerated_from_its_period_and_published(live_server, page):  # noqa: F811
    from ratings.models import ListStatus, RatingList

    fed, players, games = _egf_world()
    before = RatingList.objects.get(federation=fed, period__code="2025-02", status="published")
    posts = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    page.set_viewport_size({"width": 1400, "height": 1000})
    started = time.perf_counter()

    page.goto(live_server.url + "/admin/login/")
    page.fill("#id_username", "officer")
    page.fill("#id_password", "pw-officer")
    with page.expect_navigation():
        page.click("input[type=submit]")

    # the result of T1 (period 2025-01) was wrong: Brook won
    page.goto(live_server.url + f"/admin/tournaments/game/{games[0].pk}/change/")
    page.select_option("#id_result", "0-1")
    with page.expect_navigation():
        page.locator("input[name=_save]").click()

    # the dashboard names the periods to re-run, and why
    page.goto(live_server.url + "/admin/")
    board = " ".join(page.locator("section.federation-board").inner_text().split())
    assert f"2025-01 — game {games[0].pk} of T1: result: 1-0 → 0-1" in board

    # re-rate from 2025-01: the chain of corrections for 2025-01 and 2025-02
    page.goto(live_server.url + "/admin/ratings/ratingperiod/?federation__id__exact=" + str(fed.pk))
    page.locator("tr", has_text="2025-01").locator("input.action-select").check()
    page.select_option("select[name=action]", "rerate_from")
    with page.expect_navigation():
        page.locator("button[name=index]").click()
    review = page.locator("main").inner_text()
    assert "2025-01" in review and "2025-02" in review and "original" in review.lower()
    with page.expect_navigation():
        page.get_by_role("button", name="Publish all 2 revised lists").click()
    assert "Published 2 corrected lists" in page.locator("ul.messagelist").inner_text()

    corrected = RatingList.objects.get(federation=fed, period__code="2025-02", status="published")
    assert corrected.supersedes_id == before.pk
    brook = corrected.entries.get(player=players[1])
    assert brook.published_rating != before.entries.get(player=players[1]).published_rating
    page.goto(live_server.url + "/federations/egx/lists/2025-02/")
    row = page.locator("table.ratings tbody tr", has_text="Brook")
    assert str(brook.published_rating) in row.inner_text()
    seconds = time.perf_counter() - started
    assert RatingList.objects.filter(federation=fed, status=ListStatus.SUPERSEDED).count() == 2
    # login, save the result, re-rate, publish: four submissions
    assert len(posts) == 4, posts
    print(f"FLOW name=correction_chain submissions={len(posts)} seconds={seconds:.1f}")
