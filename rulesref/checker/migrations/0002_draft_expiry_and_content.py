# Drafts learn their content's digest (deduplication) and when they were last opened (expiry). Existing drafts count
# as opened when they were made, so they keep the 30 days the old `prunedrafts --days 30` gave them.
#
# On SQLite, scenarios stored before text was checked may hold NUL characters or lone surrogates, which made every
# page of theirs fail: such drafts are deleted (they are undo states), and such shared scenarios keep their link with
# each of those characters replaced by U+FFFD. PostgreSQL never accepted them.

import re

from django.db import migrations, models
from django.db.models import F

UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def _bad(value):
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if UNSTORABLE.search(item):
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def _mended(value):
    if isinstance(value, str):
        return UNSTORABLE.sub("\ufffd", value)
    if isinstance(value, dict):
        return {_mended(k): _mended(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_mended(v) for v in value]
    return value


def forwards(apps, schema_editor):
    Draft = apps.get_model("checker", "Draft")
    SavedScenario = apps.get_model("checker", "SavedScenario")
    Draft.objects.update(opened=F("created"))
    if schema_editor.connection.vendor != "sqlite":
        return
    bad = [pk for pk, data in Draft.objects.values_list("pk", "data").iterator(chunk_size=200) if _bad(data)]
    for start in range(0, len(bad), 500):
        Draft.objects.filter(pk__in=bad[start:start + 500]).delete()
    for saved in SavedScenario.objects.iterator(chunk_size=200):
        if _bad(saved.data):
            SavedScenario.objects.filter(pk=saved.pk).update(data=_mended(saved.data))


class Migration(migrations.Migration):

    dependencies = [
        ('checker', '0001_initial'),
    ]

    operations = [
        migrations.AddField(
            model_name='draft',
            name='digest',
            field=models.CharField(default='', editable=False, help_text='sha256 of the canonical JSON', max_length=64),
        ),
        migrations.AddField(
            model_name='draft',
            name='opened',
            field=models.DateTimeField(blank=True, editable=False, help_text="when the draft's page was last opened (to a day); empty: never", null=True),
        ),
        migrations.AddIndex(
            model_name='draft',
            index=models.Index(fields=['book', 'digest'], name='checker_draft_content'),
        ),
        migrations.AddIndex(
            model_name='draft',
            index=models.Index(fields=['opened', 'created'], name='checker_draft_expiry'),
        ),
        migrations.RunPython(forwards, migrations.RunPython.noop),
    ]
