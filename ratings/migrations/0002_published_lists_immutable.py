from django.db import migrations

from federation.triggers import LIST_GUARDS, install, uninstall


def forwards(apps, schema_editor):
    install(schema_editor, LIST_GUARDS)


def backwards(apps, schema_editor):
    uninstall(schema_editor, LIST_GUARDS)


class Migration(migrations.Migration):
    dependencies = [("ratings", "0001_initial"), ("federation", "0002_audit_append_only")]
    operations = [migrations.RunPython(forwards, backwards)]
