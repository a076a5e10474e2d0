"""Event ratings lose their index by event; RatedEvent, kept by the database, is the way in.

A run's 400,000 event ratings went into the key (player, run, event) one after another and into
the event's index at one of 2,000 places each: on a 2-core machine the index took half of the
rows' insert (an ICCF period's rows into a table holding two periods': 1.45-1.60 s with it,
0.95-1.15 s without). RatedEvent holds the distinct (event, run) of the rows, a few thousand a
run, kept by triggers (ratings.persistence.rated_events, installed after the migrate as every guard is).
It is filled here before the index goes, so no look-up by event is ever left without a way in.
"""

import dataclasses

import django.db.models.deletion
from django.db import migrations, models

from ratings.persistence import rated_events


def _fill(apps, schema_editor) -> None:
    schema_editor.execute(rated_events.fill_sql())


def _guards_reading_rated_events() -> list:
    """Today's guards on other tables that read RatedEvent (an event's or run's referrers)."""
    from django.apps import apps as today

    from federation.triggers import tables_of
    from ratings.persistence.guards import all_guards

    known = {model._meta.db_table for model in today.get_models()}
    return [
        guard
        for guard in all_guards()
        if guard.table != rated_events.TABLE and rated_events.TABLE in tables_of(guard, known)
    ]


def _drop_keepers(apps, schema_editor) -> None:
    """Going back: the triggers go before the table they write to, and the guards that read
    it read the event ratings again, as they did before (the same SQL on the other table: a
    trigger naming a dropped table fails every statement it fires on)."""
    from federation import triggers

    vendor = schema_editor.connection.vendor
    for sql in rated_events.drop_sql(vendor):
        schema_editor.execute(sql)
    for guard in _guards_reading_rated_events():
        before = dataclasses.replace(
            guard,
            condition=guard.condition.replace(rated_events.TABLE, rated_events.SOURCE),
            terms=tuple(t.replace(rated_events.TABLE, rated_events.SOURCE) for t in guard.terms),
        )
        for sql in triggers.drop_sql(vendor, guard) + triggers.create_sql(vendor, before):
            schema_editor.execute(sql)


class Migration(migrations.Migration):
    dependencies = [
        ("ratings", "0021_event_ratings_keyed_by_player_run_event"),
        ("tournaments", "0006_url_value_messages"),
    ]

    operations = [
        migrations.CreateModel(
            name="RatedEvent",
            fields=[
                (
                    "pk",
                    models.CompositePrimaryKey(
                        "event", "run", blank=True, editable=False, primary_key=True, serialize=False
                    ),
                ),
                (
                    "event",
                    models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="rated_by",
                        to="tournaments.event",
                    ),
                ),
                (
                    "run",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="rated_events",
                        to="ratings.ratingrun",
                    ),
                ),
            ],
            options={"ordering": ["event", "run"]},
        ),
        migrations.RunPython(_fill, _drop_keepers, elidable=False),
        migrations.RemoveIndex(model_name="eventrating", name="ratings_eve_event_i_39d927_idx"),
        migrations.AlterField(
            model_name="eventrating",
            name="event",
            field=models.ForeignKey(
                db_constraint=False,
                db_index=False,
                on_delete=django.db.models.deletion.DO_NOTHING,
                related_name="event_ratings",
                to="tournaments.event",
            ),
        ),
    ]
