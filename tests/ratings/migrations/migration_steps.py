"""Moving the test database along the ratings app's migrations, for the tests of a migration
both ways. A test that goes back must come to the latest state again, or the tests after it
run on an old schema."""

from __future__ import annotations

from django.db import connection
from django.db.migrations.executor import MigrationExecutor


def migrate_ratings(name: str) -> None:
    MigrationExecutor(connection).migrate([("ratings", name)])


def migrate_ratings_to_latest() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes("ratings"))
