"""read_columns against the rows the ORM reads: the same values per row (NULLs as their
sentinels, dates as day numbers), on PostgreSQL through the one-row binary read, elsewhere
from the rows; an empty IN list reads nothing without a query."""

from __future__ import annotations

from datetime import date, timedelta

import numpy as np
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.django import TestCase

from federation.models import Federation
from ratings.persistence import column_read
from ratings.persistence.column_read import NULL_DAY, NULL_INT, day_number, day_of, read_columns
from ratings.systems.common import played_game_rows, score_of, white_score
from tests.factories import make_event, make_player
from tournaments.models import Event, Game

KINDS = {
    "id": "int",
    "event_id": "int",
    "white_id": "int",
    "black_id": "int",
    "handicap": "int",
    "white_score": "float",
    "komi": "float",
    "finished_on": "day",
    "reported_on": "day",
}
DAYS = st.one_of(st.none(), st.dates(date(1950, 1, 1), date(2060, 12, 31)))
RESULTS = st.sampled_from(["1-0", "1/2", "0-1"])


def _event_and_players(code: str) -> tuple[Event, list]:
    federation = Federation.objects.create(code=code, name=f"Federation {code}", system="egf")
    return make_event(federation, code), [make_player(federation, f"{code}{i}") for i in range(4)]


def _expected(games) -> dict[str, list]:
    """What each column should hold for these rows, read field by field from the ORM."""
    return {
        "id": [g.id for g in games],
        "event_id": [g.event_id for g in games],
        "white_id": [g.white_id for g in games],
        "black_id": [g.black_id for g in games],
        "handicap": [g.handicap for g in games],
        "white_score": [score_of(g.result) for g in games],
        "komi": ["nan" if g.komi is None else float(g.komi) for g in games],
        "finished_on": [day_number(g.finished_on) for g in games],
        "reported_on": [day_number(g.reported_on) for g in games],
    }


class ReadColumnsTests(TestCase):
    @classmethod
    def setUpTestData(cls):
        cls.event, cls.players = _event_and_players("CR")

    @settings(max_examples=40, deadline=None)
    @given(
        st.lists(
            st.tuples(RESULTS, DAYS, DAYS, st.booleans(), st.integers(0, 9)),
            min_size=0,
            max_size=12,
        )
    )
    def test_columns_hold_each_rows_values(self, rows):
        event = self.event
        Game.objects.filter(event=event).delete()
        for result, finished, reported, with_komi, handicap in rows:
            white, black = self.players[handicap % 4], self.players[(handicap + 1) % 4]
            Game.objects.create(
                event=event,
                round=1,
                white=white,
                black=black,
                result=result,
                handicap=handicap,
                komi=6.5 if with_komi else None,
                finished_on=finished,
                reported_on=reported,
            )
        query = played_game_rows([event.id]).annotate(white_score=white_score())
        columns = read_columns(query, KINDS)
        order = np.argsort(columns["id"])  # no order in particular: compare by id
        games = list(query.order_by("id"))
        for name, wanted in _expected(games).items():
            got = columns[name][order]
            assert got.dtype == {"int": np.int64, "float": np.float64, "day": np.int32}[KINDS[name]]
            if name == "komi":
                got = ["nan" if np.isnan(v) else v for v in got.tolist()]
            else:
                got = got.tolist()
            assert got == wanted, name
        assert [day_of(d) for d in columns["finished_on"][order].tolist()] == [
            g.finished_on for g in games
        ]

    def test_an_empty_in_list_reads_nothing_without_a_query(self):
        with CaptureQueriesContext(connection) as queries:
            columns = read_columns(played_game_rows([]), {"id": "int", "finished_on": "day"})
        assert len(queries) == 0
        assert columns["id"].dtype == np.int64 and len(columns["id"]) == 0
        assert columns["finished_on"].dtype == np.int32 and len(columns["finished_on"]) == 0

    def test_no_rows_give_empty_columns(self):
        columns = read_columns(Game.objects.filter(pk=-1), {"id": "int", "komi": "float"})
        assert [len(c) for c in columns.values()] == [0, 0]


@pytest.mark.postgres
@pytest.mark.django_db
def test_postgresql_reads_in_one_row_what_the_rows_hold(monkeypatch):
    """The one-row binary read gives what converting the ORM's rows gives (the other path),
    NULLs included; and it really is taken."""
    event, (one, other, *_) = _event_and_players("CP")
    start = date(1999, 12, 25)
    for i in range(30):
        Game.objects.create(
            event=event,
            round=1 + i % 3,
            white=one if i % 2 else other,
            black=other if i % 2 else one,
            result=["1-0", "1/2", "0-1"][i % 3],
            komi=None if i % 4 else 0.5,
            finished_on=None if i % 5 == 0 else start + timedelta(days=i),
            reported_on=start + timedelta(days=2 * i),
        )
    query = played_game_rows([event.id]).annotate(white_score=white_score())
    with CaptureQueriesContext(connection) as queries:
        fast = read_columns(query, KINDS)
    assert len(queries) == 1 and "string_agg" in queries[0]["sql"]
    slow = column_read._from_rows(list(query.values_list(*KINDS)), KINDS)
    order_fast, order_slow = np.argsort(fast["id"]), np.argsort(slow["id"])
    for name in KINDS:
        np.testing.assert_array_equal(fast[name][order_fast], slow[name][order_slow], name)
    assert (fast["finished_on"] == NULL_DAY).sum() == 6
    assert NULL_INT not in fast["id"]
