"""The two roles of the workspace as Django groups (membership is what the views check)."""
from django.db import migrations

GROUPS = ("translators", "reviewers")


def create_groups(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    for name in GROUPS:
        Group.objects.get_or_create(name=name)


def remove_groups(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name__in=GROUPS, user__isnull=True).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("translation", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [migrations.RunPython(create_groups, remove_groups)]
