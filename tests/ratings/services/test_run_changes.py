"""A run's changes (previous rating, change, published change) are taken against the list it
continues from, as the run's runner read that list: every system, and one read per run."""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from hypothesis import given
from hypothesis import settings as hyp_settings
from hypothesis import strategies as st

from federation.permissions import COMMAND_LINE
from ratings import systems
from ratings.models import ListStatus, RatingEntry, RatingList
from ratings.services import publication, runs
from ratings.systems.common import (
    Context,
    base_entries,
    base_list_for,
    published_list_valid_on,
)
from ratings.systems.iccf.runner import _ratings_on
from ratings.systems.wfcc.runner import _start_ratings as _wfcc_start_ratings
from tests.factories import make_world
from tests.json_values import json_values
from tournaments.models import Event


@pytest.mark.django_db
def test_every_systems_changes_are_taken_against_the_list_it_continues_from(rated_demo):
    lists = (
        RatingList.objects.filter(previous__isnull=False)
        .exclude(run__engine="import")  # an imported list's changes are the file's, not a run's
        .select_related("federation", "previous")
    )
    rated_systems = set()
    for rating_list in lists:
        before = {
            pid: (rating, published)
            for pid, rating, published in rating_list.previous.entries.values_list(
                "player_id", "rating", "published_rating"
            )
        }
        entries = rating_list.entries.values_list(
            "player_id", "rating", "published_rating", "previous_rating", "change",
            "published_change",
        )  # fmt: skip
        for pid, rating, published, previous, change, published_change in entries:
            if pid in before:
                old, old_published = before[pid]
                expected = (old, rating - old, published - old_published)
            else:
                expected = (None, None, None)
            assert (previous, change, published_change) == expected, (rating_list, pid)
        rated_systems.add(rating_list.federation.system)
    assert rated_systems == {system.code for system in systems.ALL}


def test_a_run_reads_the_list_it_continues_from_once(iccf_world):
    with CaptureQueriesContext(connection) as queries:
        run = runs.run_now(
            federation=iccf_world["federation"], period_code="2026Q1", by=COMMAND_LINE
        )
    assert run.status == "succeeded", run.error
    base = run.rating_list.previous
    reads = [
        q["sql"]
        for q in queries.captured_queries
        if q["sql"].lstrip().startswith("SELECT")
        and '"ratings_ratingentry"' in q["sql"]
        and f'"rating_list_id" = {base.pk}' in q["sql"]
    ]
    assert len(reads) == 1, reads
    # the continuing players' changes came from that one read
    assert run.rating_list.entries.exclude(previous_rating=None).count() == base.entries.count()


def test_start_ratings_on_the_base_list_are_the_ones_stored(iccf_world):
    """Rule 1.4 reads the list valid when a tournament started; for the run's base list it takes
    the run's read of it. Both ways give what the database holds: the base list and an older
    one."""
    federation = iccf_world["federation"]
    first = runs.run_now(federation=federation, period_code="2026Q1", by=COMMAND_LINE)
    publication.publish_list(list_id=first.rating_list.pk, by=COMMAND_LINE)
    second = runs.run_now(federation=federation, period_code="2026Q2", by=COMMAND_LINE)
    ctx = Context(federation, second.period, base_list_for(federation, second.period), {})
    assert ctx.base_list == first.rating_list
    base = base_entries(ctx.base_list, with_state=False)
    older = first.rating_list.previous
    for rating_list in (ctx.base_list, older):
        stored = sorted(rating_list.entries.values_list("player_id", "rating"))
        ids, ratings = _ratings_on(rating_list.pk, ctx, base)
        assert list(zip(ids.tolist(), ratings.tolist(), strict=True)) == stored


def _wfcc_runs():
    lists = RatingList.objects.filter(federation__system="wfcc", status=ListStatus.PUBLISHED)
    return [rl.run for rl in lists.exclude(run__engine="import").select_related("run")]


@pytest.mark.django_db
def test_wfcc_start_ratings_come_from_the_list_valid_when_each_tournament_started(rated_demo):
    """RULES §5: a tournament is rated with the list valid at its start. Read once per list (the
    base list from the run's own read), each event's start ratings equal that list's full
    ratings as the database holds them, half-ratings left out."""
    lists_used = set()
    for run in _wfcc_runs():
        ctx = Context(run.federation, run.period, run.rating_list.previous, {})
        events = list(
            Event.objects.filter(federation=run.federation, code__in=run.report["events"])
        )
        assert events
        starts = _wfcc_start_ratings(ctx, events, base_entries(ctx.base_list))
        for event in events:
            valid = published_list_valid_on(run.federation, event.start)
            expected = {}
            if valid is not None:
                lists_used.add("base" if valid == ctx.base_list else "older")
                expected = dict(
                    valid.entries.filter(half_rating=False).values_list("player_id", "rating")
                )
            assert starts[event.id] == expected, (run.period.code, event.code)
    assert "base" in lists_used


@pytest.mark.django_db
def test_a_wfcc_run_reads_each_list_and_the_problems_once(rated_demo):
    """However many tournaments a quarter counts, its build reads each list they started under
    once and the problems of all of them in one query (it read both per tournament before)."""
    run = max(_wfcc_runs(), key=lambda r: len(r.report["events"]))
    assert len(run.report["events"]) > 1
    ctx = Context(run.federation, run.period, run.rating_list.previous, dict(run.params or {}))
    with CaptureQueriesContext(connection) as queries:
        systems.get("wfcc").runner.build(ctx)
    selects = [q["sql"] for q in queries.captured_queries if q["sql"].lstrip().startswith("SELECT")]
    entry_reads = Counter(
        re.search(r'"rating_list_id" = (\d+)', sql).group(1)
        for sql in selects
        if 'FROM "ratings_ratingentry"' in sql and re.search(r'"rating_list_id" = \d+', sql)
    )
    assert entry_reads and set(entry_reads.values()) == {1}, entry_reads
    assert len([sql for sql in selects if 'FROM "tournaments_problem"' in sql]) == 1


# The engine states a list's entries carry on (JSON of any shape; PostgreSQL's jsonb holds no
# NUL character and no lone surrogate).
TEXT = st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00")
STATES = st.dictionaries(st.text(TEXT, max_size=4), json_values(TEXT, max_leaves=12))


@pytest.mark.django_db
def test_base_entries_read_each_state_as_the_json_field_does(settings):
    """base_entries decodes the states as one document (orjson where it reads the same); each
    must be what the model's JSON field gives for its row."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    world = make_world("bs")
    rating_list = world["ratings.RatingList"]
    for player in world["players"][1:]:
        RatingEntry.objects.create(
            rating_list=rating_list, player=player, rating=1700.5, published_rating=1701
        )
    entries = list(RatingEntry.objects.filter(rating_list=rating_list).order_by("player_id"))
    assert len(entries) == 3

    @hyp_settings(max_examples=60, deadline=None)
    @given(st.lists(STATES, min_size=3, max_size=3))
    def check(states):
        for entry, state in zip(entries, states, strict=True):
            entry.state = state
        RatingEntry.objects.bulk_update(entries, ["state"])
        by_field = dict(
            RatingEntry.objects.filter(rating_list=rating_list).values_list("player_id", "state")
        )
        read = {pid: entry.state for pid, entry in base_entries(rating_list).items()}
        # compared as text: NaN cannot occur, and 1 == 1.0 == True would hide a difference
        assert json.dumps(read, sort_keys=True) == json.dumps(by_field, sort_keys=True)

    check()
