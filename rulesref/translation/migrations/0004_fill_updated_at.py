"""Translations taken in from the corpus files had no "last saved" time: give them the time of their last revision."""
from django.db import migrations
from django.db.models import Max, OuterRef, Subquery


def fill(apps, schema_editor):
    Translation = apps.get_model("translation", "Translation")
    Revision = apps.get_model("translation", "Revision")
    latest = (Revision.objects.filter(translation=OuterRef("pk"), applied=True).values("translation")
              .annotate(last=Max("created")).values("last"))
    Translation.objects.filter(updated_at__isnull=True).update(updated_at=Subquery(latest))


class Migration(migrations.Migration):
    dependencies = [("translation", "0003_revision_confirmed_errors")]
    operations = [migrations.RunPython(fill, migrations.RunPython.noop)]
