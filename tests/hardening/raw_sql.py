"""Raw SQL the database must refuse, for the tests of its guards."""

from __future__ import annotations

import pytest
from django.db import DatabaseError, IntegrityError, connection, transaction


def assert_refused(expected: str | tuple[str, ...], sql: str, params=()) -> None:
    """`sql` fails in a savepoint of its own (nothing of it stays), and the error names one of
    the `expected` messages."""
    messages = (expected,) if isinstance(expected, str) else expected
    with (
        pytest.raises((IntegrityError, DatabaseError)) as refused,
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute(sql, params)
    assert any(m in str(refused.value) for m in messages), (sql, refused.value)
