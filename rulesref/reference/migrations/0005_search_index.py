"""The search index moves into the database's own hands (see rulesref/reference/searchindex.py).

SearchEntry (a copy of every text, rebuilt by the first reader after each change) and SearchState go; on PostgreSQL
reference_sectiontext gains generated tsvector columns with GIN indexes, on SQLite triggers keep an FTS5 index of
the stems of every text. SearchWord holds each book's vocabulary for "did you mean". The index and the vocabulary
are filled from the texts already loaded, so nothing waits for a reader or a reload.
"""
import django.db.models.deletion
from django.db import migrations, models

from rulesref.reference import searchindex

OLD_SQLITE_FTS = (
    "CREATE VIRTUAL TABLE reference_search_fts USING fts5("
    "title_stems, body_stems, book_id, language, content = 'reference_searchentry', content_rowid = 'id', "
    "tokenize = 'unicode61 remove_diacritics 0')"
)


def drop_old_index(apps, schema_editor):
    if schema_editor.connection.vendor == "sqlite":
        schema_editor.execute("DROP TABLE IF EXISTS reference_search_fts")


def restore_old_index(apps, schema_editor):
    if schema_editor.connection.vendor == "sqlite":
        schema_editor.execute(OLD_SQLITE_FTS)


def install(apps, schema_editor):
    searchindex.install(schema_editor.connection.alias)
    Book = apps.get_model("reference", "Book")
    SectionText = apps.get_model("reference", "SectionText")
    with schema_editor.connection.cursor() as cursor:
        for book in Book.objects.all():
            texts = SectionText.objects.filter(section__book=book, section__absent=False).values_list("title", "body")
            searchindex.insert_vocabulary(cursor, book.pk, texts)


def uninstall(apps, schema_editor):
    searchindex.uninstall(schema_editor.connection.alias)


class Migration(migrations.Migration):
    dependencies = [("reference", "0004_fulltext_indexes")]

    operations = [
        migrations.RunPython(drop_old_index, restore_old_index),
        migrations.DeleteModel(name="SearchEntry"),
        migrations.DeleteModel(name="SearchState"),
        migrations.CreateModel(
            name="SearchWord",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("word", models.CharField(max_length=64)),
                ("stem", models.CharField(max_length=64)),
                ("initial", models.CharField(help_text="the first letter: near misspellings are looked up by it",
                                             max_length=1)),
                ("length", models.PositiveSmallIntegerField()),
                ("count", models.PositiveIntegerField(default=1)),
                ("book", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="search_words",
                                           to="reference.book")),
            ],
            options={
                "indexes": [models.Index(fields=["stem"], name="reference_s_stem_7d713f_idx"),
                            models.Index(fields=["initial", "length"], name="reference_s_initial_8fc5ef_idx")],
                "constraints": [models.UniqueConstraint(fields=("book", "word"), name="unique_search_word")],
            },
        ),
        migrations.RunPython(install, uninstall),
    ]
