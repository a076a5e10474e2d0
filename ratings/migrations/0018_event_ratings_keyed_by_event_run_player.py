"""Event ratings keyed by (event, run, player), without a surrogate id.

The unique (event, run, player) was already the rows' identity; the id beside it cost a
sequence value and an index entry for each of a run's 400,000 rows and was looked up by
nothing. Django does not migrate a table to a composite key, so the state changes here and the
database is moved by hand: on PostgreSQL the key is built before the unique constraint it
replaces is dropped, so uniqueness never lapses; SQLite cannot add a primary key to a table, so
the table is rebuilt the way Django's own migrations rebuild one. The triggers are reinstalled
after every migrate (ratings.apps). Irreversible: the ids are gone."""

from django.db import migrations, models


def key_by_event_run_player(apps, schema_editor) -> None:
    if schema_editor.connection.vendor == "postgresql":
        table = "ratings_eventrating"
        schema_editor.execute(f"ALTER TABLE {table} DROP COLUMN id")
        schema_editor.execute(f"ALTER TABLE {table} ADD PRIMARY KEY (event_id, run_id, player_id)")
        schema_editor.execute(
            f"ALTER TABLE {table} DROP CONSTRAINT eventrating_one_per_event_run_player"
        )
    else:
        # the model as the state now has it: composite key, no id, no separate unique constraint
        schema_editor._remake_table(apps.get_model("ratings", "EventRating"))


class Migration(migrations.Migration):
    dependencies = [
        ("ratings", "0017_event_ratings_indexed_by_event_first"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveConstraint(
                    model_name="eventrating",
                    name="eventrating_one_per_event_run_player",
                ),
                migrations.RemoveField(model_name="eventrating", name="id"),
                migrations.AddField(
                    model_name="eventrating",
                    name="pk",
                    field=models.CompositePrimaryKey(
                        "event",
                        "run",
                        "player",
                        blank=True,
                        editable=False,
                        primary_key=True,
                        serialize=False,
                    ),
                ),
            ]
        ),
        migrations.RunPython(key_by_event_run_player, elidable=False),
    ]
