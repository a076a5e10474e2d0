"""federation.json_rows: queries sent as one statement give exactly the rows, in order and of
the types, that each query gives alone (generated values of every type it reads back); a
column of another type sends the queries the pipeline's way, with the same rows."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal

import pytest
from django.db import connection, transaction
from django.db.models import DecimalField, F, Value
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from federation import json_rows
from federation.models import Federation, Player
from federation.prepared import PreparedValues, marker_int, numbered_placeholders, rows_together
from tests.factories import make_player
from tests.json_values import json_values
from tests.typed_rows import typed_rows

# A column of each type the readers cover: its SQL type, its Django field, its values.
FLOATS = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(-(2**53), 2**53).map(float),  # integral: 1500.0 is 1500 in JSON
)
CHARACTERS = st.characters(exclude_characters="\x00", exclude_categories=("Cs",))  # PostgreSQL's
TEXTS = st.text(CHARACTERS)
DATES = st.dates(min_value=date(1, 1, 1), max_value=date(9999, 12, 31))
DATETIMES = st.datetimes(
    min_value=datetime(1900, 1, 1), max_value=datetime(9000, 1, 1), timezones=st.just(UTC)
)
COLUMNS = {
    # (not the type's least value: as this test's parameter it fails its cast, "integer out of
    # range", in the plain query as in the JSON one)
    "bigint": (st.integers(-(2**63) + 1, 2**63 - 1), "BigIntegerField"),
    "integer": (st.integers(-(2**31) + 1, 2**31 - 1), "IntegerField"),
    "float8": (FLOATS, "FloatField"),
    "text": (TEXTS, "TextField"),
    "boolean": (st.booleans(), "BooleanField"),
    "date": (DATES, "DateField"),
    "timestamptz": (DATETIMES, "DateTimeField"),
    "jsonb": (json_values(CHARACTERS), "JSONField"),
}


def _field(name: str):
    from django.db import models

    return getattr(models, name)()


def _values_query(types: list[str], rows: list[tuple]) -> tuple[str, list]:
    """A query of `rows` (each cast to its type) in their order, and its parameters."""
    params, selects = [], []
    for n, row in enumerate(rows):
        casts = []
        for kind, value in zip(types, row, strict=True):
            if kind == "jsonb":
                value = None if value is None else json.dumps(value)
            params.append(value)
            casts.append(f"%s::{kind}")
        selects.append(f"SELECT {n} AS n, {', '.join(casts)}")
    if not rows:  # no row, the columns typed all the same
        selects.append(f"SELECT 0, {', '.join(f'NULL::{kind}' for kind in types)} WHERE false")
    names = ", ".join(f"c{i}" for i in range(len(types)))
    sql = f"SELECT {names} FROM ({' UNION ALL '.join(selects)}) AS v(n, {names}) ORDER BY n DESC"
    return sql, params


@st.composite
def tables(draw):
    types = draw(st.lists(st.sampled_from(sorted(COLUMNS)), min_size=1, max_size=6))
    row = st.tuples(*(st.none() | COLUMNS[kind][0] for kind in types))
    return types, draw(st.lists(row, min_size=0, max_size=8))


@pytest.mark.postgres
@pytest.mark.django_db
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables(), tables())
def test_one_statement_gives_each_querys_rows_exactly(first, second):
    """Two generated queries (every column type read back, NULLs, NaN, integral floats, text of
    any character, JSON documents) as one statement: the rows each gives alone, in its order."""
    with transaction.atomic():  # each example apart: a failing one does not abort the others
        _compare_one_statement(first, second)


def _compare_one_statement(first, second) -> None:
    queries, expected = [], []
    for types, rows in (first, second):
        sql, params = _values_query(types, rows)
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            found = cursor.fetchall()
        # the ORM's values: Django reads jsonb as text and its JSONField parses it
        json_columns = [i for i, kind in enumerate(types) if kind == "jsonb"]
        found = [
            tuple(
                json.loads(v) if i in json_columns and v is not None else v
                for i, v in enumerate(row)
            )
            for row in found
        ]
        readers = json_rows.readers([_field(COLUMNS[k][1]) for k in types], connection.timezone)
        assert readers is not None
        queries.append((sql, params, readers))
        expected.append(found)
    statement = json_rows.statement([(sql, len(readers)) for sql, _, readers in queries])
    with connection.cursor() as cursor:
        cursor.execute(statement, [p for _, params, _ in queries for p in params])
        texts = cursor.fetchone()
    for text, (_, _, readers), rows in zip(texts, queries, expected, strict=True):
        assert typed_rows(json_rows.rows(text, readers)) == typed_rows(rows)


def test_a_type_not_read_back_exactly_is_refused():
    from django.db import models

    assert json_rows.readers([models.DecimalField()], UTC) is None
    assert json_rows.readers([models.DateTimeField()], None) is None  # naive timestamps
    assert json_rows.readers([models.JSONField(decoder=object)], UTC) is None
    assert json_rows.readers([models.FloatField()] * 101, UTC) is None  # json_build_array's cap
    assert json_rows.readers([models.FloatField()] * 100, UTC) is not None


@given(st.lists(st.sampled_from(["%s", "%%", "x", "'a'", "$", " "]), max_size=30))
def test_numbered_placeholders(pieces):
    """Each %s becomes the next $n, each %% a percent sign, everything else stays."""
    numbered = numbered_placeholders("".join(pieces))
    expected, n = [], 0
    for piece in pieces:
        if piece == "%s":
            n += 1
            piece = f"${n}"
        expected.append("%" if piece == "%%" else piece)
    assert numbered == "".join(expected)


def _player(player_id):
    return Player.objects.filter(pk=player_id).values_list("pk", "surname", "created_at")


def _with_decimal(player_id):  # a Decimal column: not read back from JSON
    return (
        Player.objects.filter(pk=player_id)
        .annotate(share=Value(Decimal("1.50"), output_field=DecimalField()))
        .values_list("pk", "share", F("surname"))
    )


PLAYER = PreparedValues(_player, player_id=marker_int())
DECIMAL = PreparedValues(_with_decimal, player_id=marker_int())
PreparedValues.instances.remove(PLAYER)  # not the site's: test_prepared_queries walks those
PreparedValues.instances.remove(DECIMAL)


@pytest.mark.django_db
def test_a_query_not_read_from_json_sends_them_the_pipelines_way():
    """With a Decimal column among them, the queries go in the pipeline (or one by one): the
    same rows, of the same types, as each alone."""
    federation = Federation.objects.create(code="jr", name="JSON rows", system="iccf")
    player = make_player(federation, "7", "Kamińska")
    values = {"player_id": player.pk}
    together = rows_together((PLAYER, values), (DECIMAL, values))
    alone = [PLAYER.rows(**values), DECIMAL.rows(**values)]
    assert together[1] == [(player.pk, Decimal("1.50"), "Kamińska")]
    assert together[0] == [(player.pk, "Kamińska", player.created_at)]
    assert [typed_rows(rows) for rows in together] == [typed_rows(rows) for rows in alone]
    if connection.vendor == "postgresql":
        assert DECIMAL._compiled[("default", "postgresql")].json_readers is None
        assert PLAYER._compiled[("default", "postgresql")].json_readers is not None
        # and alone with its like, the player's query goes the JSON way: the same rows
        assert rows_together((PLAYER, values), (PLAYER, values)) == [alone[0], alone[0]]


def test_timestamps_come_back_in_the_connections_zone():
    read = json_rows.readers([_field("DateTimeField")], UTC)[0]
    moment = datetime(2026, 11, 27, 19, 51, 9, 123456, tzinfo=UTC)
    east = moment.astimezone(UTC).replace(tzinfo=None) + timedelta(hours=2)
    assert read(east.isoformat() + "+02:00") == moment
    assert read(east.isoformat() + "+02:00").tzinfo is UTC
