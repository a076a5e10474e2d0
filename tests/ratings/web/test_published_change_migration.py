"""Migration 0010 fills RatingEntry.published_change of lists published before it existed."""

from __future__ import annotations

import importlib
from types import SimpleNamespace

import pytest
from django.apps import apps
from django.db import connection

from federation.triggers import UNLOCK_TABLE
from ratings.models import RatingEntry
from tests.ratings.web.factories import standard_world

pytestmark = pytest.mark.django_db

fill = importlib.import_module("ratings.migrations.0010_entry_published_change").fill


def test_fill_gives_published_lists_the_difference_of_published_integers():
    world = standard_world()
    written = dict(RatingEntry.objects.values_list("pk", "published_change"))
    # Adams 2000.0 -> 2010.6 (+11), Baker 1950.4 -> 1940.0 (-10), Clark 1900 -> 1905.5 (+6),
    # Davis 1800 -> 1790 (-10, unlisted now); Evans is new.
    assert sorted(v for v in written.values() if v is not None) == [-10, -10, 6, 11]
    with connection.cursor() as cursor:  # as before the column existed (published: unlocked)
        cursor.execute(f"INSERT INTO {UNLOCK_TABLE} (reason) VALUES ('test')")
        RatingEntry.objects.update(published_change=None)
        cursor.execute(f"DELETE FROM {UNLOCK_TABLE}")
    fill(apps, SimpleNamespace(connection=connection))  # it only reads the editor's connection
    assert dict(RatingEntry.objects.values_list("pk", "published_change")) == written
    # The maintenance switch is released: published entries are immutable again.
    with pytest.raises(Exception, match="immutable"):
        RatingEntry.objects.filter(rating_list=world.lists[1]).update(published_change=0)
