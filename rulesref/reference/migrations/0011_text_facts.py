"""Each text's revision, words and blankness kept beside it, so a book's translation progress is counted by SQL.

On SQLite the new columns make Django rebuild the texts' table, which a search trigger on the sections' table names:
that trigger is dropped first and the index's triggers put back after (the rebuild drops the table's own)."""
from django.db import migrations, models

from rulesref.reference import searchindex


def drop_section_trigger(apps, schema_editor):
    if schema_editor.connection.vendor == "sqlite":
        schema_editor.execute("DROP TRIGGER IF EXISTS reference_section_search_au")


def reinstall_index(apps, schema_editor):
    searchindex.install(schema_editor.connection.alias)


def measure_texts(apps, schema_editor):
    from rulesref.reference.corpus import source_revision, word_count

    SectionText = apps.get_model("reference", "SectionText")
    batch = []
    for text in SectionText.objects.only("pk", "title", "body").iterator(chunk_size=2000):
        text.revision = source_revision(text.title, text.body)
        text.words = word_count(text.title) + word_count(text.body)
        text.blank = not (text.title.strip() or text.body.strip())
        batch.append(text)
        if len(batch) == 2000:
            SectionText.objects.bulk_update(batch, ["revision", "words", "blank"])
            batch = []
    SectionText.objects.bulk_update(batch, ["revision", "words", "blank"])


class Migration(migrations.Migration):

    dependencies = [
        ('reference', '0010_search_keeps_stop_words'),
    ]

    operations = [
        migrations.RunPython(drop_section_trigger, migrations.RunPython.noop),
        migrations.AddField(
            model_name='sectiontext',
            name='blank',
            field=models.BooleanField(default=True, editable=False, help_text='neither a title nor a body'),
        ),
        migrations.AddField(
            model_name='sectiontext',
            name='revision',
            field=models.CharField(blank=True, editable=False, help_text="this text's own revision (corpus.source_revision of its title and body)", max_length=32),
        ),
        migrations.AddField(
            model_name='sectiontext',
            name='words',
            field=models.PositiveIntegerField(default=0, editable=False),
        ),
        migrations.RunPython(reinstall_index, migrations.RunPython.noop),
        migrations.RunPython(measure_texts, migrations.RunPython.noop),
    ]
