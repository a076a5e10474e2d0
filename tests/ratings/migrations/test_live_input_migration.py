"""Migration ratings 0020 (a live run's input stored as compressed canonical bytes instead of a
JSON column) both ways: the input and its digest survive each way, byte for byte."""

from __future__ import annotations

import json

import pytest
from django.db import connection

from ratings.models import LiveRun
from ratings.persistence.guards import reinstall_guards
from ratings.services import provenance
from tests.factories import make_world
from tests.ratings.migrations.migration_steps import migrate_ratings, migrate_ratings_to_latest

BEFORE = "0019_live_ratings_keyed_and_statement_checked"  # 0020 moves it


@pytest.mark.django_db(transaction=True)
def test_the_live_input_survives_the_migration_both_ways():
    live = make_world("li")["ratings.LiveRun"]
    data = {"players": [{"id": "1", "rating": 1812.5, "name": "Ünal"}], "games": [], "b": None}
    raw = provenance.canonical_bytes(data)
    LiveRun.objects.filter(pk=live.pk).update(
        engine_input=provenance.compress(raw), input_digest=provenance.digest(raw)
    )
    try:
        migrate_ratings(BEFORE)
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT engine_input, input_digest FROM ratings_liverun WHERE id = %s", [live.pk]
            )
            stored, digest = cursor.fetchone()
        assert (json.loads(stored) if isinstance(stored, str) else stored) == data
        assert digest == provenance.digest(raw)
    finally:
        migrate_ratings_to_latest()
        reinstall_guards(sender=None)  # what post_migrate runs after a migrate
    live.refresh_from_db()
    assert provenance.decompress(live.engine_input) == raw
    assert live.input_digest == provenance.digest(raw)
