"""The federation dashboard on the admin index (issue 13 item 3)."""

from __future__ import annotations

import pytest

from federation.permissions import COMMAND_LINE
from ratings.services import publication, runs
from tests.factories import make_official
from tournaments.models import Event

pytestmark = pytest.mark.django_db


def test_the_dashboard_shows_what_waits_in_flow_order(client, iccf_world):
    federation = iccf_world["federation"]
    run = runs.run_now(federation=federation, period_code="2026Q1", by=COMMAND_LINE)
    publication.publish_list(list_id=run.rating_list.pk, by=COMMAND_LINE)
    game = iccf_world["games"][0]
    game.result = "0-1" if game.result != "0-1" else "1-0"
    game.save()  # marks 2026Q1 for a re-run
    draft = runs.run_now(federation=federation, period_code="2026Q2", by=COMMAND_LINE).rating_list
    Event.objects.create(
        federation=federation,
        name="Late section",
        code="S9",
        kind="individual",
        status="submitted",
        start=iccf_world["event"].start,
        end=iccf_world["event"].end,
    )
    client.force_login(make_official("board-icc", federation))
    body = client.get("/admin/").content.decode()
    assert "ICCF test: what waits for you" in body
    assert "S9</a> — fails" in body or "S9</a> — needs attestation" in body
    assert f"2026Q1</a> — game {game.pk} of S1: result" in body
    assert f"2026Q2: list {draft.pk}" in body
    assert "2026Q2 (valid from 2026-04-01), run due on" in body


def test_an_official_sees_only_his_federations_board(client, iccf_world):
    from federation.models import Federation

    other = Federation.objects.create(code="oth", name="Other federation", system="egf")
    client.force_login(make_official("board-oth", other))
    body = client.get("/admin/").content.decode()
    assert "Other federation: what waits for you" in body and "ICCF test" not in body
