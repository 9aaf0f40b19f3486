"""PostgreSQL: the stored vectors are made with configurations that drop no stop word (searchindex.POSTGRES_CONFIGS:
«нельзя», "not", "before" are words rules turn on). A generated column's expression cannot be changed in place
before PostgreSQL 17, so both columns are made anew (their GIN indexes with them), and the planner's statistics
refreshed. SQLite has nothing to change: its index never dropped a word. Going back leaves the vectors as they are:
older code queries them with PostgreSQL's own configurations, whose stems are the same."""
from django.db import migrations

from rulesref.reference import searchindex


def remake(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        with schema_editor.connection.cursor() as cursor:
            cursor.execute("ALTER TABLE reference_sectiontext DROP COLUMN IF EXISTS search_vector, "
                           "DROP COLUMN IF EXISTS search_title")
        searchindex.install(schema_editor.connection.alias)
        with schema_editor.connection.cursor() as cursor:
            cursor.execute("ANALYZE reference_sectiontext")


class Migration(migrations.Migration):
    dependencies = [("reference", "0009_search_title_key")]

    operations = [migrations.RunPython(remake, migrations.RunPython.noop)]
