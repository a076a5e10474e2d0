"""The statement-checked guards of a bulk-written table share one trigger on PostgreSQL
(federation.triggers.statement_checks_sql): the inserted rows are grouped once and every guard's
terms are tested over the groups. What each guard refuses is enumerated elsewhere
(test_statement_references, test_federation_scoping, test_published_immutability: they run
against the shared trigger); here, what the sharing itself must keep:

- every term of every statement-checked guard is in its table's trigger, and the inserted rows
  are read once;
- each term is tested over groups that hold every column it reads;
- when rows break several guards, the message is the one separate triggers gave first (by name);
- an empty statement and the maintenance switch pass, as before.
"""

from __future__ import annotations

import re

import pytest
from django.db import DatabaseError, IntegrityError, connection, transaction

from federation.references import MISSING_MESSAGE
from federation.scoping import SCOPE_MESSAGE
from federation.triggers import (
    BULK_WRITTEN,
    UNLOCK_TABLE,
    Guard,
    _widest,
    checks_trigger_name,
    is_statement_checked,
    statement_checks_sql,
)
from ratings.models import EventRating, RatingList
from ratings.persistence.guards import MESSAGE, all_guards
from tests.factories import make_world


def _checked(table: str) -> list[Guard]:
    return [g for g in all_guards() if g.table == table and is_statement_checked("postgresql", g)]


@pytest.mark.parametrize("table", BULK_WRITTEN)
def test_every_term_is_in_the_one_trigger_which_reads_the_rows_once(table):
    guards = _checked(table)
    # references and one federation (and, of a run's or list's rows, published)
    assert {MISSING_MESSAGE, SCOPE_MESSAGE} <= {g.message for g in guards}
    function, trigger = statement_checks_sql(checks_trigger_name(table), table, guards)
    assert function.count("FROM inserted_rows") == 1
    assert "REFERENCING NEW TABLE AS inserted_rows" in trigger
    for guard in guards:
        assert f"'{guard.message}'" in function
        for term in guard.terms or (guard.condition,):
            assert re.sub(r"\bNEW\.", "inserted.", term) in function, (guard.name, term)


@pytest.mark.parametrize("table", BULK_WRITTEN)
def test_each_term_is_tested_over_groups_holding_its_columns(table):
    """key_set is GROUPING()'s mask of the columns a group leaves out: none the term reads."""
    guards = _checked(table)
    function, _ = statement_checks_sql("checks", table, guards)
    listed = re.search(r"GROUPING\(([^)]*)\)", function).group(1).split(", ")
    tested = re.findall(r"inserted\.key_set = (\d+) AND \((.*?)\)\) (?:THEN|OR)", function)
    assert len(tested) == sum(len(g.terms or (g.condition,)) for g in guards)
    for key_set, term in tested:
        left_out = {c for i, c in enumerate(listed) if int(key_set) >> (len(listed) - 1 - i) & 1}
        read = set(re.findall(r"\binserted\.([a-z_]+)", term))
        assert read and not read & left_out, (key_set, term)


def test_the_widest_column_sets_hold_every_other():
    sets = {("run_id",), ("event_id",), ("event_id", "run_id"), ("player_id", "run_id")}
    assert _widest(sets) == [("event_id", "run_id"), ("player_id", "run_id")]
    assert _widest({("a",)}) == [("a",)]


def test_a_term_reading_no_column_of_the_new_row_is_refused():
    guard = Guard("g", "ratings_eventrating", "INSERT", "1=1", "m", per_statement=True)
    with pytest.raises(ValueError, match="must read a column"):
        statement_checks_sql("g", guard.table, [guard])


@pytest.fixture
def worlds(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # speed
    return make_world("aa"), make_world("bb")


def _insert_rating(run_id: int, event_id: int, player_id: int) -> str:
    """The database's message for one raw INSERT of an event rating ('' if it is taken)."""
    try:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(
                "INSERT INTO ratings_eventrating "
                '(run_id, event_id, player_id, "after", games, details) '
                "VALUES (%s, %s, %s, 1500, 1, '{}')",
                [run_id, event_id, player_id],
            )
    except (IntegrityError, DatabaseError) as refused:
        return str(refused)
    return ""


@pytest.mark.postgres
@pytest.mark.django_db
def test_several_guards_broken_give_the_first_by_name(worlds):
    """A row of another federation's player into a published run breaks the published guard
    (guard_eventrating_…) and the federation guard (ratings_eventrating_…): separate triggers
    fired by name, so the published one spoke; into a draft run only the second is broken."""
    ours, theirs = worlds
    run, event = ours["ratings.RatingRun"], ours["tournaments.Event"]
    stranger = theirs["players"][0]
    assert SCOPE_MESSAGE in _insert_rating(run.pk, event.pk, stranger.pk)
    RatingList.objects.filter(pk=ours["ratings.RatingList"].pk).update(status="published")
    refused = _insert_rating(run.pk, event.pk, stranger.pk)
    assert MESSAGE in refused and SCOPE_MESSAGE not in refused


@pytest.mark.postgres
@pytest.mark.django_db
def test_an_empty_statement_and_the_maintenance_switch_pass(worlds):
    ours, theirs = worlds
    run, event = ours["ratings.RatingRun"], ours["tournaments.Event"]
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO ratings_eventrating SELECT * FROM ratings_eventrating WHERE false"
        )
        cursor.execute(f"INSERT INTO {UNLOCK_TABLE} VALUES ('test')")
    assert _insert_rating(run.pk, event.pk, theirs["players"][0].pk) == ""
    with connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {UNLOCK_TABLE}")
    assert SCOPE_MESSAGE in _insert_rating(run.pk, event.pk, theirs["players"][1].pk)
    assert (
        EventRating.objects.filter(
            run=run, player__federation=theirs["federation.Federation"]
        ).count()
        == 1
    )
