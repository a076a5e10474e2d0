"""The PostgreSQL backend's health check (federation.postgresql): a healthy idle connection is
reused without a round trip; one the server has ended is found and replaced before a request's
query runs; anything else unusual is left to Django's own check (`SELECT 1`)."""

from __future__ import annotations

import time

import pytest
from django.db import connection, connections
from django.db.backends.postgresql.base import DatabaseWrapper as DjangoPostgreSQLWrapper

from federation.postgresql.base import _has_input

pytestmark = pytest.mark.django_db


@pytest.fixture
def wrapper():
    """A connection of its own, outside the test's transaction, set up as the site's."""
    if connection.vendor != "postgresql":
        pytest.skip("the health check of the PostgreSQL backend")
    own = connections.create_connection("default")
    assert own.health_check_enabled or own.settings_dict["CONN_HEALTH_CHECKS"]
    yield own
    own.close()


@pytest.fixture
def asked_django(monkeypatch):
    """The connections Django's own check (a SELECT 1 round trip) was asked about."""
    asked = []
    original = DjangoPostgreSQLWrapper.is_usable

    def spy(self):
        asked.append(self)
        return original(self)

    monkeypatch.setattr(DjangoPostgreSQLWrapper, "is_usable", spy)
    return asked


def _request(wrapper) -> int:
    """What a request does with the connection: Django's request_started handler, then a query;
    the server process that answered."""
    wrapper.close_if_unusable_or_obsolete()
    with wrapper.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]


def _wait_for_input(wrapper) -> None:
    deadline = time.monotonic() + 10
    while not _has_input(wrapper.connection.fileno()):
        assert time.monotonic() < deadline, "the server's goodbye never reached the socket"
        time.sleep(0.01)


def test_a_healthy_connection_is_reused_without_asking_the_server(wrapper, asked_django):
    pids = {_request(wrapper) for _ in range(5)}
    assert len(pids) == 1
    assert wrapper.health_check_enabled
    assert wrapper not in asked_django
    assert wrapper.is_usable()


def test_a_connection_the_server_ended_is_replaced_before_the_query(wrapper, asked_django):
    first = _request(wrapper)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [first])
        assert cursor.fetchone()[0]
    _wait_for_input(wrapper)
    assert not wrapper.is_usable()
    second = _request(wrapper)  # raises if the dead connection were used
    assert second != first
    assert wrapper in asked_django  # the socket had something: Django's check decided


def test_a_notification_waiting_is_not_taken_for_a_goodbye(wrapper, asked_django):
    listening = _request(wrapper)
    with wrapper.cursor() as cursor:
        cursor.execute("LISTEN health_check_test")
    other = connections.create_connection("default")
    try:
        with other.cursor() as cursor:
            cursor.execute("NOTIFY health_check_test")
    finally:
        other.close()
    _wait_for_input(wrapper)
    assert _request(wrapper) == listening
    assert wrapper in asked_django


def test_a_connection_inside_a_transaction_is_left_to_djangos_check(wrapper, asked_django):
    _request(wrapper)
    wrapper.set_autocommit(False)
    try:
        with wrapper.cursor() as cursor:
            cursor.execute("SELECT 1")
        assert wrapper.is_usable()
        assert wrapper in asked_django
    finally:
        wrapper.rollback()
        wrapper.set_autocommit(True)
