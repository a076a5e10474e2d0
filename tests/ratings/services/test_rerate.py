"""Corrections that re-rate what follows (issue 13 item 4): a chain of correction drafts from a
period through every later published one, reviewed together and published in one transaction."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from federation.models import Federation
from federation.permissions import COMMAND_LINE
from ratings.models import ListStatus, RatingList, RatingPeriod
from ratings.selectors.corrections import chain_review
from ratings.services import live_triggers, publication, runs
from tests.ratings.conftest import seeded_and_rated_demo
from tournaments.models import Game, SolverScore

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker):
    with seeded_and_rated_demo(django_db_blocker, players=80, seed=3):
        yield


def _published(federation):
    return dict(
        RatingList.objects.filter(federation=federation, status=ListStatus.PUBLISHED).values_list(
            "period__code", "pk"
        )
    )


def _flip_a_result(federation, period_code):
    rating_list = RatingList.objects.get(
        federation=federation, period__code=period_code, status=ListStatus.PUBLISHED
    )
    game = Game.objects.filter(
        event__code__in=rating_list.run.report["events"], result__in=["1-0", "0-1"]
    ).first()
    game.result = "0-1" if game.result == "1-0" else "1-0"
    game.save()
    return game


def test_rerate_after_a_changed_result_in_the_earliest_egf_period_publishes_every_later_list(
    demo, capsys
):
    egf = Federation.objects.get(system="egf")
    before = _published(egf)
    earliest = min(
        before, key=lambda code: RatingPeriod.objects.get(federation=egf, code=code).valid_from
    )
    game = _flip_a_result(egf, earliest)
    assert RatingPeriod.objects.get(federation=egf, code=earliest).needs_rerun
    call_command("rerate", egf.code, "--from", earliest, "--publish")
    after = _published(egf)
    assert set(after) == set(before) and all(after[c] != before[c] for c in before)
    out = capsys.readouterr().out
    assert f"published {len(before)} corrected lists" in out
    corrected = RatingList.objects.select_related("period").filter(pk__in=after.values())
    by_code = {rl.period.code: rl for rl in corrected}
    for rating_list in corrected:
        assert rating_list.supersedes_id == before[rating_list.period.code]
        # Each corrected list continued from the corrected list of the period before it.
        if rating_list.previous_id is not None and rating_list.period.code != earliest:
            assert rating_list.previous_id in after.values()
    first = by_code[earliest]
    old = RatingList.objects.get(pk=before[earliest])
    changed = {
        pid
        for pid, rating in first.entries.values_list("player_id", "rating")
        if old.entries.get(player_id=pid).rating != rating
    }
    assert {game.white_id, game.black_id} <= changed
    assert not RatingPeriod.objects.filter(federation=egf, needs_rerun=True).exists()
    # The superseded lists stay as history.
    assert RatingList.objects.filter(
        pk__in=before.values(), status=ListStatus.SUPERSEDED
    ).count() == len(before)


def _edit_the_first_rated_period(federation, rated):
    first = rated.first()
    if federation.system == "wfcc":
        score = SolverScore.objects.filter(
            problem__event__code__in=first.run.report["events"],
            problem__event__federation=federation,
            points__gt=1,
        ).first()
        score.points -= 1
        score.save()
        return
    games = Game.objects.filter(
        event__federation=federation, event__code__in=first.run.report["events"]
    )
    # The game the first run rated: ICCF counts games by report date.
    for game in games.filter(result__in=["1-0", "0-1"]).order_by("pk"):
        game.result = "0-1" if game.result == "1-0" else "1-0"
        game.save()
        if publication.stale_reason(first):
            return


@pytest.mark.parametrize("system", ["iccf", "wfcc", "playchess"])
def test_a_chain_reads_its_own_drafts_so_every_list_publishes(demo, system):
    """Every system reads the list before (and ICCF and WFCC the lists valid when each event
    started): the chain's drafts stand in for them, so after a changed result in the first rated
    period each draft matches what the database gives once the earlier ones are published."""
    federation = Federation.objects.get(system=system)
    published = RatingList.objects.filter(federation=federation, status=ListStatus.PUBLISHED)
    rated = published.exclude(run__engine="import").order_by("period__valid_from")
    _edit_the_first_rated_period(federation, rated)
    first = rated.first().period.code
    chain = publication.rerate_from(federation=federation, period_code=first, by=COMMAND_LINE)
    assert [r.period.code for r in chain] == [rl.period.code for rl in rated]
    review = chain_review(chain[0].pk)
    assert [p.code for p in review] == [r.period.code for r in chain]
    assert review[0].rows and review[-1].rows  # the change runs through to the newest list
    lists = publication.publish_chain(head_run_id=chain[0].pk, by=COMMAND_LINE)
    assert [rl.status for rl in lists] == [ListStatus.PUBLISHED] * len(chain)


def test_a_chain_published_together_refreshes_the_live_ratings_once(
    demo, django_capture_on_commit_callbacks, monkeypatch
):
    """Each published list asks for a refresh of the live ratings, which recomputes them from
    the newest list: a chain published in one transaction sends one, not one per list."""
    sent = []
    monkeypatch.setattr(live_triggers.refresh_live_ratings, "delay", sent.append)
    egf = Federation.objects.get(system="egf")
    codes = sorted(_published(egf))
    _flip_a_result(egf, codes[-3])
    chain = publication.rerate_from(federation=egf, period_code=codes[-3], by=COMMAND_LINE)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        lists = publication.publish_chain(head_run_id=chain[0].pk, by=COMMAND_LINE)
    assert len(lists) == 3
    assert len([c for c in callbacks if isinstance(c, live_triggers._Refresh)]) == 3
    assert sent == [egf.pk]


def test_the_review_shows_original_beside_revised(demo):
    egf = Federation.objects.get(system="egf")
    codes = sorted(_published(egf))
    game = _flip_a_result(egf, codes[-3])
    chain = publication.rerate_from(federation=egf, period_code=codes[-3], by=COMMAND_LINE)
    review = chain_review(chain[0].pk)
    assert [p.code for p in review] == codes[-3:]
    rows = {row.player_id: row for row in review[0].rows}
    assert game.white_id in rows and rows[game.white_id].original != rows[game.white_id].revised
    row = rows[game.white_id]
    assert row.difference == row.revised - row.original


def test_a_failed_publication_publishes_nothing_of_the_chain(demo):
    egf = Federation.objects.get(system="egf")
    codes = sorted(_published(egf))
    chain = publication.rerate_from(federation=egf, period_code=codes[-2], by=COMMAND_LINE)
    _flip_a_result(egf, codes[-1])  # makes the last draft stale
    before = _published(egf)
    with pytest.raises(runs.RunError, match="no longer matches"):
        publication.publish_chain(head_run_id=chain[0].pk, by=COMMAND_LINE)
    assert _published(egf) == before
    assert {rl.status for rl in RatingList.objects.filter(run__in=chain)} == {ListStatus.DRAFT}


def test_a_correction_of_an_earlier_period_alone_marks_the_later_ones(demo):
    egf = Federation.objects.get(system="egf")
    codes = sorted(_published(egf))
    run = runs.run_now(federation=egf, period_code=codes[-3], by=COMMAND_LINE)
    publication.publish_list(list_id=run.rating_list.pk, by=COMMAND_LINE)  # no longer a dead end
    marked = RatingPeriod.objects.filter(federation=egf, needs_rerun=True)
    assert sorted(marked.values_list("code", flat=True)) == codes[-2:]
    assert all("was published" in p.needs_rerun_reason for p in marked)


def test_rerate_refuses_periods_with_a_pending_draft(demo):
    egf = Federation.objects.get(system="egf")
    codes = sorted(_published(egf))
    draft = runs.run_now(federation=egf, period_code=codes[-1], by=COMMAND_LINE).rating_list
    with pytest.raises(runs.RunError, match=f"draft list {draft.pk} awaiting publication"):
        publication.rerate_from(federation=egf, period_code=codes[-2], by=COMMAND_LINE)


def test_an_officer_rerates_reviews_and_publishes_in_the_admin(demo, client):
    from tests.factories import make_official

    egf = Federation.objects.get(system="egf")
    codes = sorted(_published(egf))
    game = _flip_a_result(egf, codes[-2])
    officer = make_official("officer-rerate", egf)
    client.force_login(officer)
    period = RatingPeriod.objects.get(federation=egf, code=codes[-2])
    response = client.post(
        "/admin/ratings/ratingperiod/",
        {"action": "rerate_from", "_selected_action": [period.pk]},
    )
    assert response.status_code == 302 and "/chain/" in response.url
    page = client.get(response.url).content.decode()
    assert "Original" in page and "Revised" in page and "Publish all 2 revised lists" in page
    assert game.white.federation_player_id in page
    before = _published(egf)
    client.post(response.url, {"publish": "1"})
    after = _published(egf)
    assert {c for c in codes if after[c] != before[c]} == set(codes[-2:])
