"""A live run's input stored as a run's record stores its own: canonical JSON, zlib-compressed
(ratings/services/provenance.py), instead of a JSON column. An ICCF refresh turned its 200,000-game
input into a dict (1 s), serialised it twice (digest and column, 0.9 s each) and sent 13 MB for
the server to parse as jsonb; the canonical bytes are written from the input's columns. Each
live run's input is converted both ways; its digest is of the same canonical bytes."""

import json

from django.db import migrations, models

from ratings.services import provenance


def to_bytes(apps, schema_editor) -> None:
    LiveRun = apps.get_model("ratings", "LiveRun")
    for live in LiveRun.objects.only("pk", "engine_input").iterator(chunk_size=1):
        raw = provenance.canonical_bytes(live.engine_input)
        LiveRun.objects.filter(pk=live.pk).update(
            engine_input_bytes=provenance.compress(raw), input_digest=provenance.digest(raw)
        )


def to_json(apps, schema_editor) -> None:
    LiveRun = apps.get_model("ratings", "LiveRun")
    for live in LiveRun.objects.only("pk", "engine_input_bytes").iterator(chunk_size=1):
        stored = bytes(live.engine_input_bytes)
        data = json.loads(provenance.decompress(stored)) if stored else {}
        LiveRun.objects.filter(pk=live.pk).update(engine_input=data)


class Migration(migrations.Migration):
    dependencies = [
        ("ratings", "0019_live_ratings_keyed_and_statement_checked"),
    ]

    # A new column, then the old one dropped and the new renamed: SQLite's legacy rename
    # (federation.triggers) would leave the JSON column's CHECK naming the binary one.
    operations = [
        migrations.AddField(
            model_name="liverun",
            name="engine_input_bytes",
            field=models.BinaryField(blank=True, default=b""),
        ),
        migrations.RunPython(to_bytes, to_json, elidable=False),
        migrations.RemoveField(model_name="liverun", name="engine_input"),
        migrations.RenameField(
            model_name="liverun", old_name="engine_input_bytes", new_name="engine_input"
        ),
    ]
