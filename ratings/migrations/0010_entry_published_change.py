"""RatingEntry.published_change: the change readers see, the difference of published integers.

Existing entries are filled from the list each was compared with (RatingList.previous). Published
entries are immutable by trigger; the fill is the derived column of a schema change, so it runs
under the triggers' maintenance switch (federation.triggers.UNLOCK_TABLE) and releases it at once.
"""

from django.db import migrations, models
from django.db.models import F, OuterRef, Subquery

from federation.triggers import UNLOCK_TABLE


def fill(apps, schema_editor):
    RatingEntry = apps.get_model("ratings", "RatingEntry")
    RatingList = apps.get_model("ratings", "RatingList")
    pairs = list(
        RatingList.objects.filter(previous__isnull=False).values_list("id", "previous_id")
    )
    if not pairs:
        return
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(f"INSERT INTO {UNLOCK_TABLE} (reason) VALUES ('0010 published_change')")
        try:
            for list_id, previous_id in pairs:
                before = RatingEntry.objects.filter(
                    rating_list_id=previous_id, player_id=OuterRef("player_id")
                ).values("published_rating")[:1]
                RatingEntry.objects.filter(rating_list_id=list_id).update(
                    published_change=F("published_rating") - Subquery(before)
                )
        finally:
            cursor.execute(f"DELETE FROM {UNLOCK_TABLE} WHERE reason = '0010 published_change'")


class Migration(migrations.Migration):
    dependencies = [("ratings", "0009_live_ratings")]

    operations = [
        migrations.AddField(
            model_name="ratingentry",
            name="published_change",
            field=models.IntegerField(
                blank=True,
                help_text="The change readers see: published_rating − the previous list's.",
                null=True,
            ),
        ),
        migrations.AlterField(
            model_name="ratingentry",
            name="change",
            field=models.FloatField(
                blank=True, help_text="Unrounded: rating − previous_rating.", null=True
            ),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
