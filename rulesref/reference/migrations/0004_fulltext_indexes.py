"""The full-text index of SearchEntry: an FTS5 table on SQLite, partial GIN indexes on PostgreSQL."""
from django.db import migrations

# External content: the stems live in reference_searchentry; the index holds only the posting lists, and the
# book and language are indexed columns so a MATCH filters on them without reading any row.
SQLITE_FORWARD = [
    "CREATE VIRTUAL TABLE reference_search_fts USING fts5("
    "title_stems, body_stems, book_id, language, content = 'reference_searchentry', content_rowid = 'id', "
    "tokenize = 'unicode61 remove_diacritics 0')",
]
SQLITE_BACKWARD = ["DROP TABLE IF EXISTS reference_search_fts"]
POSTGRES_FORWARD = [
    "CREATE INDEX reference_search_ru_gin ON reference_searchentry "
    "USING GIN (to_tsvector('russian', title || ' ' || body)) WHERE language = 'ru'",
    "CREATE INDEX reference_search_en_gin ON reference_searchentry "
    "USING GIN (to_tsvector('english', title || ' ' || body)) WHERE language = 'en'",
]
POSTGRES_BACKWARD = ["DROP INDEX IF EXISTS reference_search_ru_gin", "DROP INDEX IF EXISTS reference_search_en_gin"]


def forward(apps, schema_editor):
    statements = {"sqlite": SQLITE_FORWARD, "postgresql": POSTGRES_FORWARD}.get(schema_editor.connection.vendor, [])
    for sql in statements:
        schema_editor.execute(sql)


def backward(apps, schema_editor):
    statements = {"sqlite": SQLITE_BACKWARD, "postgresql": POSTGRES_BACKWARD}.get(schema_editor.connection.vendor, [])
    for sql in statements:
        schema_editor.execute(sql)


class Migration(migrations.Migration):
    dependencies = [("reference", "0003_search")]
    operations = [migrations.RunPython(forward, backward)]
