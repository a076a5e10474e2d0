"""Event ratings keyed by event first: the unique (event, run, player) also serves every
look-up by event, so the event's own index goes (one index fewer for a run's 400,000 rows).
The new key is built before the old one is dropped, so uniqueness never lapses."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("federation", "0009_url_value_messages"),
        ("ratings", "0016_ratingentry_history_index"),
        ("tournaments", "0006_url_value_messages"),
    ]

    operations = [
        migrations.AddConstraint(
            model_name="eventrating",
            constraint=models.UniqueConstraint(
                fields=("event", "run", "player"),
                name="eventrating_one_per_event_run_player",
                violation_error_code="player",
                violation_error_message="This run already rated this player at this event.",
            ),
        ),
        migrations.RemoveConstraint(
            model_name="eventrating",
            name="eventrating_one_per_run_event_player",
        ),
        migrations.AlterField(
            model_name="eventrating",
            name="event",
            field=models.ForeignKey(
                db_constraint=False,
                db_index=False,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="event_ratings",
                to="tournaments.event",
            ),
        ),
    ]
