from django.db import migrations

from federation.triggers import AUDIT_GUARDS, install, uninstall


def forwards(apps, schema_editor):
    install(schema_editor, AUDIT_GUARDS)


def backwards(apps, schema_editor):
    uninstall(schema_editor, AUDIT_GUARDS)


class Migration(migrations.Migration):
    dependencies = [("federation", "0001_initial")]
    operations = [migrations.RunPython(forwards, backwards)]
