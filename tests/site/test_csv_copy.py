"""The CSV export PostgreSQL writes (COPY … TO STDOUT) is byte for byte the one the row-by-row
writer gives (exports.csv_lines), for names of any kind: formula starts, quotes, commas, line
breaks, empty cells, non-ASCII; in every sort order and with filters."""

from __future__ import annotations

import pytest
from django.db import connection
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from federation.models import Player
from ratings import systems
from ratings.models import RatingList
from ratings.selectors import lists
from ratings.web import csv_copy, exports
from ratings.web.filters import entries_filterset
from tests.site.factories import standard_world

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

TEXT = st.one_of(
    st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=12),
    st.sampled_from(["=1+1", "+49", "-x", "@sum", "\tx", "\rx", "\nx", "＝A", 'a "b" c']),
    st.sampled_from(["a,b", "line\nbreak", "cr\r\nlf", '"', '""', "", " ", "Tóth", "\\."[:1]]),
)


def _both(query: dict, sort: str) -> tuple[bytes, bytes]:
    rating_list = RatingList.objects.get(period__code="2026Q2")
    system = systems.of(rating_list.federation)
    base = entries_filterset(query, rating_list).qs
    by_rows = "".join(exports.csv_lines(lists.export_rows(base, sort), system)).encode()
    by_copy = b"".join(csv_copy.csv_chunks(base, sort, system))
    return by_rows, by_copy


def test_copy_is_what_postgresql_uses():
    assert csv_copy.supported() == (connection.vendor == "postgresql")


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    surnames=st.lists(TEXT, min_size=5, max_size=5), clubs=st.lists(TEXT, min_size=5, max_size=5)
)
def test_copy_writes_the_bytes_the_row_writer_writes(surnames, clubs):
    if not RatingList.objects.exists():
        standard_world()
    for player, surname, club in zip(
        Player.objects.order_by("federation_player_id"), surnames, clubs, strict=True
    ):
        Player.objects.filter(pk=player.pk).update(surname=surname, given_name=club[:3], club=club)
    for sort in ("rank", "-name", "club", "-change"):
        by_rows, by_copy = _both({}, sort)
        assert by_copy == by_rows, sort


@pytest.mark.parametrize("query", [{}, {"country": "DE"}, {"q": "ba"}])
def test_the_export_view_streams_copy_output(client, query):
    standard_world()
    response = client.get("/federations/fed/lists/2026Q2/export.csv", query)
    body = b"".join(response.streaming_content)
    assert body == _both(query, "rank")[1] == _both(query, "rank")[0]
