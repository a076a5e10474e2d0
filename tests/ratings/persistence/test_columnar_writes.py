"""A run's event ratings go from arrays to the database and to its digest without rows in
between: the binary COPY stream equals a row-by-row struct encoding, the digest of the columns
equals the digest of the same rows, and on PostgreSQL the columns written by binary COPY read
back as the rows the row writer stores."""

from __future__ import annotations

import math
from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.models import EventRating, LiveEventRating, RatingRun
from ratings.persistence import binary_copy, output_digest, writers
from ratings.persistence.output_digest import events_json
from ratings.persistence.run_rows import EventRatingColumns
from tests.factories import make_event, make_world

finite = st.floats(allow_nan=False, allow_infinity=False, width=64)
WIRES = (">i8", ">i4", ">f8", "?")


@st.composite
def columns(draw):
    rows = draw(st.integers(0, 40))
    out = []
    for _ in range(draw(st.integers(1, 6))):
        wire = draw(st.sampled_from((*WIRES, "jsonb")))
        if wire == "jsonb":
            out.append(binary_copy.jsonb_constant(draw(st.sampled_from(["{}", '{"a":1}']))))
            continue
        if draw(st.booleans()):  # one value for every row
            value = {
                ">i8": st.integers(-(2**63), 2**63 - 1),
                ">i4": st.integers(-(2**31), 2**31 - 1),
            }
            out.append(
                binary_copy.Column(
                    wire, draw(value.get(wire, finite if wire == ">f8" else st.booleans()))
                )
            )
            continue
        element = {
            ">i8": st.integers(-(2**63), 2**63 - 1),
            ">i4": st.integers(-(2**31), 2**31 - 1),
            ">f8": finite,
            "?": st.booleans(),
        }[wire]
        values = np.array(draw(st.lists(element, min_size=rows, max_size=rows)), dtype=wire)
        null = np.array(draw(st.lists(st.booleans(), min_size=rows, max_size=rows)), dtype=bool)
        out.append(binary_copy.Column(wire, values, null if draw(st.booleans()) else None))
    return out, rows


@settings(max_examples=200, deadline=None)
@given(columns())
def test_binary_copy_stream_equals_the_row_by_row_encoding(case):
    cols, rows = case
    assert binary_copy.encode(cols, rows) == binary_copy.reference_encode(cols, rows)


@settings(max_examples=200, deadline=None)
@given(columns(), st.integers(1, 50))
def test_the_stream_in_pieces_joins_to_the_row_by_row_encoding(case, piece_rows):
    cols, rows = case
    pieces = list(binary_copy.encode_pieces(cols, rows, piece_rows))
    assert b"".join(pieces) == binary_copy.reference_encode(cols, rows)
    assert len(pieces) == 2 + -(-rows // piece_rows)  # header, one per piece, trailer


@settings(max_examples=200, deadline=None)
@given(columns(), st.randoms(use_true_random=False))
def test_columns_taken_in_an_order_encode_the_rows_in_that_order(case, random):
    cols, rows = case
    order = np.array(random.sample(range(rows), rows), dtype=np.int64)
    taken = [binary_copy.taken(column, order) for column in cols]
    one_row = [
        binary_copy.reference_encode([binary_copy._cut(c, i, i + 1) for c in cols], 1)
        for i in range(rows)
    ]
    rows_in_order = [one_row[i][len(binary_copy.HEADER) : -len(binary_copy.TRAILER)] for i in order]
    expected = binary_copy.HEADER + b"".join(rows_in_order) + binary_copy.TRAILER
    assert binary_copy.encode(taken, rows) == expected


KEYED_BY_EVENT_AND_PLAYER = [EventRating, LiveEventRating]  # every event ratings' table


def _key_of(model, event: int, player: int) -> tuple[int, int]:
    """(event, player) in the order the model's key has them."""
    key = [field.attname for field in model._meta.pk.fields]
    by_name = {"event_id": event, "player_id": player}
    return tuple(by_name[name] for name in key if name in by_name)


@pytest.mark.parametrize("model", KEYED_BY_EVENT_AND_PLAYER, ids=lambda m: m.__name__)
@settings(max_examples=100, deadline=None)
@given(pairs=st.lists(st.tuples(st.integers(1, 2**40), st.integers(1, 2**40)), max_size=60))
def test_event_ratings_are_written_in_the_order_of_their_tables_key(model, pairs):
    """A run's rows come in (event, player) order; each table takes them in its key's order
    (the run or live run is the same in every row), so that each key goes into the index beside
    the one before it."""
    pairs = sorted(set(pairs))
    rows = _rows(pairs, [], [], [], shuffled=False)
    order = writers.key_order(model, rows)
    if order is not None:
        rows = EventRatingColumns(**{name: v[order] for name, v in vars(rows).items()})
    keys = [
        _key_of(model, e, p)
        for e, p in zip(rows.event_id.tolist(), rows.player_id.tolist(), strict=True)
    ]
    assert keys == sorted(keys)
    assert sorted(zip(rows.event_id.tolist(), rows.player_id.tolist(), strict=True)) == pairs


def _rows(draw_pairs, before, after, games, shuffled=True):
    pairs = sorted(set(draw_pairs))
    n = len(pairs)
    event = np.array([p[0] for p in pairs], np.int64)
    player = np.array([p[1] for p in pairs], np.int64)
    # any order: the digest sorts
    shuffle = np.random.default_rng(n).permutation(n) if shuffled else np.arange(n)
    return EventRatingColumns(
        event_id=event[shuffle],
        player_id=player[shuffle],
        before=np.array(before[:n] + [math.nan] * (n - len(before[:n])))[shuffle],
        after=np.array(after[:n] + [1500.0] * (n - len(after[:n])))[shuffle],
        games=np.array(games[:n] + [1] * (n - len(games[:n])), np.int64)[shuffle],
        before_rd=np.full(n, math.nan),
        after_rd=np.full(n, 50.0),
        score=np.full(n, 0.5),
    )


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(st.integers(1, 2**40), st.integers(1, 2**40)), max_size=30),
    st.lists(st.one_of(finite, st.just(math.nan)), max_size=30),
    st.lists(finite, max_size=30),
    st.lists(st.integers(0, 10**6), max_size=30),
)
def test_digest_of_columns_equals_the_digest_of_their_rows(pairs, before, after, games):
    rows = _rows(pairs, before, after, games)
    assert events_json(rows) == events_json(list(rows))


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(st.integers(1, 2**40), st.integers(1, 2**40)), max_size=30),
    st.lists(st.one_of(finite, st.just(math.nan)), max_size=30),
    st.integers(1, 8),
)
def test_the_digest_formats_columns_in_pieces_that_join_to_the_rows_json(pairs, before, piece_rows):
    """The digest feeds its hash piece by piece (no formatting call over all of a period's rows,
    which would hold the GIL while the COPY thread needs it): the pieces join to the rows'
    JSON, one piece of rows per PIECE_ROWS."""
    rows = _rows(pairs, before, [], [])
    with mock.patch.object(output_digest, "PIECE_ROWS", piece_rows):
        pieces = list(output_digest.events_json_pieces(rows))
    assert b"".join(pieces).decode() == events_json(list(rows))
    row_pieces = [p for p in pieces[1:-1] if p != b","]
    assert len(row_pieces) == -(-len(rows) // piece_rows)
    assert all(p.count(b"[") <= piece_rows for p in row_pieces)


@pytest.mark.postgres
@pytest.mark.django_db
def test_binary_copy_writes_what_the_row_writer_writes(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    world = make_world("bc")
    event = world["tournaments.Event"]
    players = [p.pk for p in world["players"]]
    rows = EventRatingColumns(
        event_id=np.full(len(players), event.pk, np.int64),
        player_id=np.array(players, np.int64),
        before=np.array([1812.25, math.nan, -0.0][: len(players)]),
        after=np.array([1800.0, 1.0e-7, 2**52 + 0.5][: len(players)]),
        games=np.array([3, 0, 2**31 - 1][: len(players)], np.int64),
        before_rd=np.array([55.5, math.nan, 1e300][: len(players)]),
        after_rd=np.array([math.nan, 40.0, 3.0][: len(players)]),
        score=np.array([2.5, math.nan, 0.0][: len(players)]),
    )
    runs = []
    for form in (rows, list(rows)):  # binary COPY from the columns, then the row writer
        run = RatingRun.objects.create(
            federation=event.federation,
            period=world["ratings.RatingList"].period,
            status="succeeded",
        )
        with writers.event_ratings_written_alongside(run, form):
            pass
        runs.append(run)
    fields = [
        "event_id",
        "player_id",
        "before",
        "after",
        "games",
        "before_rd",
        "after_rd",
        "score",
        "details",
    ]
    written = [
        list(EventRating.objects.filter(run=run).order_by("player_id").values_list(*fields))
        for run in runs
    ]
    assert written[0] == written[1]
    assert len(written[0]) == len(players)
    assert written[0][1][2] is None and written[0][1][3] == 1.0e-7


@pytest.mark.postgres
@pytest.mark.django_db
def test_the_binary_copy_stores_the_rows_in_the_order_of_the_key(settings):
    """The rows lie in the table as the key orders them (the order they were sent in), though
    they came in (event, player) order."""
    from django.db import connection

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    world = make_world("ko")
    event = world["tournaments.Event"]
    events = [event] + [make_event(event.federation, code) for code in ("ko-2", "ko-3")]
    players = [p.pk for p in world["players"]]
    pairs = sorted((e.pk, p) for e in events for p in players)
    run, _ = _run_with_columns(world, [])
    rows = _rows(pairs, [], [], [], shuffled=False)
    with writers.event_ratings_written_alongside(run, rows):
        pass
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT event_id, player_id FROM ratings_eventrating WHERE run_id = %s ORDER BY ctid",
            [run.pk],
        )
        stored = cursor.fetchall()
    assert stored == sorted(pairs, key=lambda pair: _key_of(EventRating, *pair))
    assert stored != pairs  # the test's rows do come in another order


def _run_with_columns(world, player_ids: list[int]) -> tuple[RatingRun, EventRatingColumns]:
    event = world["tournaments.Event"]
    run = RatingRun.objects.create(
        federation=event.federation, period=world["ratings.RatingList"].period, status="succeeded"
    )
    n = len(player_ids)
    rows = EventRatingColumns(
        event_id=np.full(n, event.pk, np.int64),
        player_id=np.array(player_ids, np.int64),
        before=np.full(n, math.nan),
        after=np.arange(n, dtype=np.float64) + 1500.0,
        games=np.ones(n, np.int64),
        before_rd=np.full(n, math.nan),
        after_rd=np.full(n, 50.0),
        score=np.full(n, 0.5),
    )
    return run, rows


@pytest.mark.django_db
def test_event_ratings_written_alongside_the_body_are_there_when_it_ends(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    world = make_world("al")
    players = [p.pk for p in world["players"]]
    run, rows = _run_with_columns(world, players)
    ran = []
    with writers.event_ratings_written_alongside(run, rows):
        ran.append(True)
    assert ran == [True]
    written = EventRating.objects.filter(run=run).order_by("player_id")
    assert list(written.values_list("player_id", "after")) == sorted(
        zip(players, rows.after.tolist(), strict=True)
    )


@pytest.mark.django_db
def test_a_failing_body_raises_its_own_error_and_leaves_nothing(settings):
    """On PostgreSQL the COPY was under way when the body failed: it ends, the body's error (not
    a COPY or connection error) leaves the block, and the rollback takes the rows with it.
    Elsewhere nothing was written (the rows follow the body)."""
    from django.db import connection, transaction

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    world = make_world("fb")
    run, rows = _run_with_columns(world, [p.pk for p in world["players"]])
    seen = []
    with pytest.raises(ValueError, match="body failed"), transaction.atomic():
        try:
            with writers.event_ratings_written_alongside(run, rows):
                raise ValueError("body failed")
        finally:
            seen.append(EventRating.objects.filter(run=run).count())
    assert seen == [len(rows) if connection.vendor == "postgresql" else 0]
    assert not EventRating.objects.filter(run=run).exists()


@pytest.mark.postgres
@pytest.mark.django_db
def test_a_refused_copy_raises_when_the_block_ends(settings):
    """A row the database refuses (a player that does not exist) fails the block after the body
    ran, and nothing of it is left."""
    from django.db import transaction

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    world = make_world("rc")
    missing = max(p.pk for p in world["players"]) + 1000
    run, rows = _run_with_columns(world, [world["players"][0].pk, missing])
    ran = []
    with (
        pytest.raises(Exception, match="must refer to rows that exist"),
        transaction.atomic(),
        writers.event_ratings_written_alongside(run, rows),
    ):
        ran.append(True)
    assert ran == [True]
    assert not EventRating.objects.filter(run=run).exists()


@pytest.mark.postgres
@pytest.mark.django_db
def test_a_runs_own_rows_go_in_the_binary_format():
    """The entries a run writes and the live ratings a refresh writes have only types with a
    binary form: no number goes as text for the server to parse back."""
    from ratings.models import LiveRating, RatingEntry
    from ratings.services.live import LIVE_RATING_COLUMNS

    assert writers.binary_copy_types(RatingEntry, writers.ENTRY_COLUMNS)
    assert writers.binary_copy_types(LiveRating, LIVE_RATING_COLUMNS)


@pytest.mark.postgres
@pytest.mark.django_db
@pytest.mark.parametrize("seed", range(3))
def test_entries_copied_in_binary_are_what_the_text_copy_stores(settings, seed):
    """The same entries written by a text COPY and by a binary one read back the same: every
    column of ENTRY_COLUMNS, NULLs, extreme numbers and JSON states of any shape."""
    import random

    from ratings.models import RatingEntry
    from ratings.persistence.run_rows import EntryRow

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    world = make_world(f"bt{seed}")
    rating_list = world["ratings.RatingList"]
    rng = random.Random(seed)
    states = [{}, {"h": [1, 2.5, None]}, {'é"\\': {"x": "\n\t"}}, {"n": 2**62, "f": -1e-300}]
    entries = [
        EntryRow(
            player_id=player.pk,
            rating=rng.choice([0.0, -0.0, 1500.125, 2**52 + 0.5, rng.uniform(-1e6, 1e6)]),
            published_rating=rng.choice([0, -(2**30), 2**30, 1500]),
            rd=rng.choice([None, 0.0, 350.0, rng.random()]),
            published_rd=rng.choice([None, 0, 350]),
            games=rng.randrange(2**31),
            total_games=rng.randrange(2**31),
            provisional=rng.random() < 0.5,
            half_rating=rng.random() < 0.5,
            listed=rng.random() < 0.7,
            state=rng.choice(states),
        )
        for player in world["players"]
    ]
    previous = {
        e.player_id: EntryRow(player_id=e.player_id, rating=1400.5, published_rating=1401)
        for e in entries[::2]
    }
    stored = []
    for types in (set(), writers.BINARY_COPY_TYPES):  # text, then binary
        RatingEntry.objects.filter(rating_list=rating_list).delete()
        with mock.patch.object(writers, "BINARY_COPY_TYPES", types):
            writers.write_entries(rating_list, entries, previous)
        rows = RatingEntry.objects.filter(rating_list=rating_list).order_by("player_id")
        stored.append(list(rows.values_list(*writers.ENTRY_COLUMNS)))
    assert stored[0] == stored[1]
    assert len(stored[0]) == len(entries)
