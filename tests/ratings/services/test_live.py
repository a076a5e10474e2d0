"""Live (unofficial) ratings: the same runner and engine over the accepted results since the
newest published list, stored apart from lists, refreshed after acceptance and nightly."""

from __future__ import annotations

from datetime import date

import pytest
from django.conf import settings
from django.db import transaction

from federation.permissions import COMMAND_LINE
from ratings.models import (
    EventRating,
    ListStatus,
    LiveEventRating,
    LiveRating,
    LiveRun,
    RatingEntry,
    RatingList,
    RatingPeriod,
    RatingRun,
)
from ratings.persistence import writers
from ratings.services import live, live_triggers, provenance, publication, runs
from ratings.web.explain import explain_live
from tests.ratings.web.factories import make_federation
from tournaments.models import Event, EventStatus, Game

pytestmark = pytest.mark.django_db


def _published_snapshot(federation):
    return sorted(
        RatingEntry.objects.filter(
            rating_list__federation=federation, rating_list__status=ListStatus.PUBLISHED
        ).values_list("rating_list_id", "player_id", "rating", "rd", "published_rating", "rank")
    )


def test_live_equals_the_official_run_of_the_same_period(iccf_world):
    federation = iccf_world["federation"]
    run = live.refresh_live(federation.pk)
    assert run is not None and run.period_code == "2026Q1" and run.events == ["S1"]
    assert run.base_list.period.code == "2025Q4"
    official = runs.run_now(federation=federation, period_code="2026Q1", by=COMMAND_LINE)
    _live_ratings_match_the_entries(run, official)
    entries = {e.player_id: e for e in official.rating_list.entries.all()}
    found = list(LiveRating.objects.filter(live_run=run))
    assert {r.player_id for r in found} == {p.pk for p in iccf_world["players"]}
    for r in found:
        e = entries[r.player_id]
        assert (r.rating, r.rd, r.published_rating, r.published_rd) == (
            e.rating,
            e.rd,
            e.published_rating,
            e.published_rd,
        )
        assert r.games == e.games
    assert _event_rows(LiveEventRating.objects.filter(live_run=run)) == _event_rows(
        EventRating.objects.filter(run=official)
    )
    # its input stored as the run stores its own: the same bytes, the same digest
    assert provenance.decompress(run.engine_input) == provenance.decompress(
        official.record.engine_input
    )
    assert run.input_digest == official.input_digest


def _event_rows(queryset):
    """Every stored column of event ratings: a live run writes what a run writes (ICCF's in
    columns, by binary COPY on PostgreSQL; EGF's as rows, with their details)."""
    return sorted(queryset.values_list(*writers.EVENT_RATING_FIELDS), key=lambda row: row[:2])


def _live_ratings_match_the_entries(run, official):
    """Each player the live run moved has the official run's entry, and the base list's rating
    as his official one."""
    entries = {e.player_id: e for e in official.rating_list.entries.all()}
    base = dict(run.base_list.entries.values_list("player_id", "rating")) if run.base_list else {}
    found = list(run.ratings.all())
    assert found
    for r in found:
        e = entries[r.player_id]
        assert (r.rating, r.rd, r.published_rating, r.published_rd, r.games) == (
            e.rating, e.rd, e.published_rating, e.published_rd, e.games,
        )  # fmt: skip
        assert (r.provisional, r.half_rating) == (e.provisional, e.half_rating)
        assert r.official_rating == base.get(r.player_id)


def test_live_is_never_a_list_and_changes_nothing_published(iccf_world):
    federation = iccf_world["federation"]
    before = _published_snapshot(federation)
    counts = [M.objects.count() for M in (RatingPeriod, RatingRun, RatingList)]
    live.refresh_live(federation.pk)
    assert LiveRating.objects.count() == 6
    assert _published_snapshot(federation) == before
    assert [M.objects.count() for M in (RatingPeriod, RatingRun, RatingList)] == counts


def test_change_is_against_the_official_list_in_published_integers(iccf_world):
    run = live.refresh_live(iccf_world["federation"].pk)
    for r in LiveRating.objects.filter(live_run=run):
        official = RatingEntry.objects.filter(rating_list=run.base_list, player=r.player).first()
        if official is None:
            assert r.change is None  # the newcomer has no official rating
        else:
            assert r.change == r.published_rating - official.published_rating


def test_acceptance_refreshes_and_rejection_removes(
    iccf_world, eager_celery, django_capture_on_commit_callbacks
):
    federation = iccf_world["federation"]
    event = iccf_world["event"]
    with django_capture_on_commit_callbacks(execute=True):
        Event.objects.filter(pk=event.pk).update(status=EventStatus.SUBMITTED)
        event.refresh_from_db()
        event.status = EventStatus.ACCEPTED
        event.save(update_fields=["status", "updated_at"])
    assert LiveRun.objects.get(federation=federation).events == ["S1"]
    with django_capture_on_commit_callbacks(execute=True):
        event.status = EventStatus.REJECTED
        event.save(update_fields=["status", "updated_at"])
    assert not LiveRun.objects.filter(federation=federation).exists()
    assert not LiveRating.objects.exists()


def test_an_edit_that_is_no_judgement_does_not_refresh(
    iccf_world, eager_celery, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        event = iccf_world["event"]
        event.name = "Section one"
        event.save(update_fields=["name", "updated_at"])
    assert callbacks == [] and not LiveRun.objects.exists()


def test_publication_moves_the_base_and_clears_what_it_rated(
    iccf_world, eager_celery, django_capture_on_commit_callbacks
):
    federation = iccf_world["federation"]
    live.refresh_live(federation.pk)
    run = runs.run_now(federation=federation, period_code="2026Q1", by=COMMAND_LINE)
    with django_capture_on_commit_callbacks(execute=True):
        publication.publish_list(list_id=run.rating_list.pk, by=COMMAND_LINE)
    # S1 is on the published 2026Q1 list now; nothing accepted awaits the next one.
    assert not LiveRun.objects.filter(federation=federation).exists()


def test_results_of_the_next_window_are_live_from_the_new_list(iccf_world):
    federation = iccf_world["federation"]
    run = runs.run_now(federation=federation, period_code="2026Q1", by=COMMAND_LINE)
    publication.publish_list(list_id=run.rating_list.pk, by=COMMAND_LINE)
    players = iccf_world["players"]
    event = Event.objects.create(
        federation=federation,
        name="Section 2",
        code="S2",
        kind=iccf_world["event"].kind,
        status=EventStatus.ACCEPTED,
        start=date(2026, 1, 10),
        end=date(2026, 9, 30),
        transmission="electronic",
        reflection_days=50,
        reflection_moves=10,
    )
    Game.objects.create(
        event=event,
        round=1,
        white=players[0],
        black=players[1],
        result="1-0",
        finished_on=date(2026, 1, 20),
        reported_on=date(2026, 1, 21),
    )
    current = live.refresh_live(federation.pk)
    assert current.base_list_id == run.rating_list.pk and current.events == ["S2"]
    moved = {r.player_id: r for r in current.ratings.all()}
    assert set(moved) == {players[0].pk, players[1].pk}
    base = {e.player_id: e for e in run.rating_list.entries.all()}
    assert moved[players[0].pk].rating > base[players[0].pk].rating  # he won
    assert moved[players[1].pk].rating < base[players[1].pk].rating


def test_one_refresh_per_federation_and_transaction(
    db, django_capture_on_commit_callbacks, monkeypatch
):
    """A refresh recomputes a federation from its newest list: several changes committed
    together need one. A change in a savepoint that is rolled back takes its callback with it
    and leaves the others to send the refresh."""
    sent = []
    monkeypatch.setattr(live_triggers.refresh_live_ratings, "delay", sent.append)
    first, second = make_federation("one"), make_federation("two")
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        live_triggers._refresh_after_commit(first.pk)
        with transaction.atomic():
            live_triggers._refresh_after_commit(first.pk)
            live_triggers._refresh_after_commit(second.pk)
            transaction.set_rollback(True)
        for federation in (first, second, first):
            live_triggers._refresh_after_commit(federation.pk)
    assert len(callbacks) == 4  # one per change that stands
    assert sent == [first.pk, second.pk]


def test_a_refresh_in_a_savepoint_rolled_back_leaves_the_others_to_send_it(
    db, django_capture_on_commit_callbacks, monkeypatch
):
    """The first change of the transaction is undone with its savepoint: a later change of the
    same federation must still send the refresh (a plain "already asked" mark would not)."""
    sent = []
    monkeypatch.setattr(live_triggers.refresh_live_ratings, "delay", sent.append)
    federation = make_federation("one")
    with django_capture_on_commit_callbacks(execute=True):
        with transaction.atomic():
            live_triggers._refresh_after_commit(federation.pk)
            transaction.set_rollback(True)
        live_triggers._refresh_after_commit(federation.pk)
    assert sent == [federation.pk]


def test_nightly_beat_refreshes_every_federation():
    entry = settings.CELERY_BEAT_SCHEDULE["refresh-live-ratings"]
    assert entry["task"] == "ratings.refresh_all_live_ratings"
    assert entry["schedule"] == 24 * 60 * 60


def test_refresh_all_counts_federations_with_live_ratings(iccf_world, eager_celery):
    from ratings.tasks import refresh_all_live_ratings

    assert refresh_all_live_ratings.delay().get() == 1
    assert LiveRun.objects.count() == 1


def test_player_page_and_api_label_it_unofficial(iccf_world, client):
    federation = iccf_world["federation"]
    live.refresh_live(federation.pk)
    player = iccf_world["players"][0]
    row = LiveRating.objects.get(player=player)
    html = client.get(f"/federations/{federation.code}/players/{player.federation_player_id}/")
    text = html.content.decode()
    assert f'id="live-rating">{row.published_rating}<' in text
    assert "Live rating" in text and "(unofficial)" in text
    body = client.get(
        f"/api/v1/federations/{federation.code}/players/{player.federation_player_id}/"
    ).json()
    assert body["live"]["unofficial"] is True
    assert body["live"]["rating"] == row.published_rating
    assert body["live"]["rating_unrounded"] == row.rating
    assert body["live"]["events"] == ["S1"] and body["live"]["since_list"] == "2025Q4"
    assert body["current"]["period"] == "2025Q4"  # the official entry is untouched


def test_live_explain_recomputes_the_live_rating(iccf_world, client):
    federation = iccf_world["federation"]
    live.refresh_live(federation.pk)
    player = iccf_world["players"][0]
    row = LiveRating.objects.get(player=player)
    current, report = explain_live(player)
    assert current == row
    assert report.inputs_match is True
    assert report.recomputed == pytest.approx(row.rating, abs=1e-9) and report.matches
    game = Game.objects.filter(white=player).first() or Game.objects.get(black=player)
    Game.objects.filter(pk=game.pk).update(result="0-1" if game.result != "0-1" else "1-0")
    _, changed = explain_live(player)  # before the refresh the edit sends: the stored input
    assert changed.inputs_match is False
    assert changed.recomputed == report.recomputed and changed.matches
    page = client.get(f"/federations/{federation.code}/players/{player.federation_player_id}/live/")
    text = page.content.decode()
    assert page.status_code == 200 and "unofficial" in text
    assert "equal to the live rating" in text


def test_no_live_rating_is_404(iccf_world, client):
    player = iccf_world["players"][0]
    page = client.get(f"/federations/icc/players/{player.federation_player_id}/live/")
    assert page.status_code == 404


def test_egf_live_follows_the_list_and_its_explain_recomputes_each_tournament(db):
    from federation.models import Federation, Player

    federation = Federation.objects.create(code="egf-l", name="EGF live", system="egf")
    k1, k2, d1, d2 = (
        Player.objects.create(
            federation=federation, federation_player_id=str(i), surname=f"G{i}", grade=grade
        )
        for i, grade in enumerate(["15k", "15k", "2d", "2d"])
    )

    def tournament(code, day, pairs):
        event = Event.objects.create(
            federation=federation,
            name=code,
            code=code,
            kind="individual",
            status=EventStatus.ACCEPTED,
            rating_class="A",
            start=day,
            end=day,
        )
        for white, black, result in pairs:
            Game.objects.create(event=event, round=1, white=white, black=black, result=result)

    tournament("T1", date(2025, 1, 11), [(k1, k2, "1-0"), (d1, d2, "1-0")])
    first = runs.run_now(federation=federation, period_code="2025-01", by=COMMAND_LINE)
    publication.publish_list(list_id=first.rating_list.pk, by=COMMAND_LINE)
    tournament("T2", date(2025, 2, 8), [(k1, d1, "0-1"), (k2, d2, "1-0")])
    tournament("T3", date(2025, 2, 22), [(k1, k2, "1-0")])
    run = live.refresh_live(federation.pk)
    assert run.period_code == "2025-02" and run.events == ["T2", "T3"]
    official = runs.run_now(federation=federation, period_code="2025-02", by=COMMAND_LINE)
    entries = {e.player_id: e.rating for e in official.rating_list.entries.all()}
    assert {r.player_id: r.rating for r in run.ratings.all()} == entries
    _live_ratings_match_the_entries(run, official)
    live_rows = _event_rows(LiveEventRating.objects.filter(live_run=run))
    assert live_rows == _event_rows(EventRating.objects.filter(run=official))
    assert all(row[-1]["games"] for row in live_rows)  # EGF's rows carry their games
    _current, report = explain_live(k1)
    assert [er.event.code for er, _x in report.sections] == ["T2", "T3"]
    assert report.matches and report.recomputed == pytest.approx(entries[k1.pk], abs=1e-9)
