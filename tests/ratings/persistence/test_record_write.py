"""A run's record (its compressed engine input, output and labels) is written by
writers.write_record, and a live run's compressed input by writers.write_live_input: on
PostgreSQL with their bytes bound on the server, in binary, not as hex inside the statement;
everywhere, they read back byte for byte, and a record is written once."""

from __future__ import annotations

import random

import pytest
from django.db import connection

from ratings.models import ImmutableListError, LiveRun, RatingRun, RunRecord
from ratings.persistence import writers
from tests.factories import make_world


def _record(world, seed: int) -> RunRecord:
    rng = random.Random(seed)
    run = RatingRun.objects.create(
        federation=world["tournaments.Event"].federation,
        period=world["ratings.RatingList"].period,
        status="succeeded",
    )
    return RunRecord(
        run=run,
        engine_input=bytes(range(256)) + rng.randbytes(300_000),  # every byte value, NULs too
        engine_output=b"",
        input_labels=rng.randbytes(1),
        input_size=2**40,
        output_size=0,
    )


@pytest.mark.django_db
def test_a_written_record_reads_back_byte_for_byte(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    record = _record(make_world("wr"), 1)
    writers.write_record(record)
    stored = RunRecord.objects.get(pk=record.run_id)
    assert bytes(stored.engine_input) == record.engine_input
    assert bytes(stored.engine_output) == b""
    assert bytes(stored.input_labels) == record.input_labels
    assert (stored.input_size, stored.output_size) == (2**40, 0)
    assert not record._state.adding


@pytest.mark.django_db
def test_a_record_is_written_once(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    record = _record(make_world("wo"), 2)
    writers.write_record(record)
    record.engine_output = b"changed"
    with pytest.raises(ImmutableListError):
        writers.write_record(record)
    assert bytes(RunRecord.objects.get(pk=record.run_id).engine_output) == b""


def _bound_on_the_server(table: str, write, value: bytes) -> None:
    """Django's own cursor binds on the client (a psycopg ClientCursor): it would put the bytes
    into the statement as hex text, twice their size, for the server to parse."""
    import psycopg

    statements = []

    def watch(execute, sql, params, many, context):
        if f'"{table}"' in sql:
            statements.append((context["cursor"].cursor, sql, params))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(watch):
        write()
    [(cursor, sql, params)] = statements
    assert not isinstance(cursor, psycopg.ClientCursor)
    assert len(sql) < 1000  # the values travel apart from the statement
    assert value in [getattr(param, "obj", param) for param in params]


@pytest.mark.postgres
@pytest.mark.django_db
def test_the_record_is_bound_on_the_server(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    record = _record(make_world("sb"), 3)
    _bound_on_the_server(
        "ratings_runrecord", lambda: writers.write_record(record), record.engine_input
    )


@pytest.mark.django_db
def test_a_live_input_reads_back_byte_for_byte(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    live = make_world("lw")["ratings.LiveRun"]
    stored = _record(make_world("lx"), 4).engine_input
    writers.write_live_input(live, stored, "d" * 64)
    again = LiveRun.objects.get(pk=live.pk)
    assert bytes(again.engine_input) == stored and again.input_digest == "d" * 64
    assert again.period_code == live.period_code  # the rest of the row untouched


@pytest.mark.postgres
@pytest.mark.django_db
def test_a_live_input_is_bound_on_the_server(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    live = make_world("lb")["ratings.LiveRun"]
    stored = _record(make_world("lc"), 5).engine_input
    _bound_on_the_server(
        "ratings_liverun", lambda: writers.write_live_input(live, stored, "e" * 64), stored
    )
