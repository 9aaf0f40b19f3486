"""SQLite: the titles' full-text index is keyed by title_key (the title's size, then its section's depth), so that
FTS5 gives title hits in the order search shows them; the index is made anew from the texts in this schema.
PostgreSQL has nothing to change. Going back leaves the index as it is: older code makes it in its own schema with
its own ``manage.py searchindex --rebuild``."""
from django.db import migrations

from rulesref.reference import searchindex


def rebuild(apps, schema_editor):
    if schema_editor.connection.vendor == "sqlite":
        searchindex.rebuild(schema_editor.connection.alias)


class Migration(migrations.Migration):
    dependencies = [("reference", "0008_search_word_near_index")]

    operations = [migrations.RunPython(rebuild, migrations.RunPython.noop)]
