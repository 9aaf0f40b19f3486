"""Book revisions and the versions of section texts (rulesref/reference/history.py).

A database that already holds rulebooks gets revision 1 of each book with a text: every text it holds, as it is,
so the first change after the upgrade is revision 2 and diffs against what readers saw before.
"""
import django.db.models.deletion
import django.utils.timezone
from django.db import migrations, models


def first_revisions(apps, schema_editor):
    Book = apps.get_model("reference", "Book")
    BookRevision = apps.get_model("reference", "BookRevision")
    SectionText = apps.get_model("reference", "SectionText")
    TextVersion = apps.get_model("reference", "TextVersion")
    for book in Book.objects.all():
        texts = [(sid, lang, title, body) for sid, lang, title, body in SectionText.objects.filter(
            section__book=book).values_list("section__sid", "language", "title", "body")
            if title.strip() or body.strip()]
        if not texts:
            continue
        TextVersion.objects.bulk_create(
            (TextVersion(book=book, sid=sid, language=lang, title=title, body=body, since=1)
             for sid, lang, title, body in texts), batch_size=2000)
        BookRevision.objects.create(book=book, number=1, origin="existing", added=len(texts),
                                    languages=" ".join(sorted({t[1] for t in texts})))
        Book.objects.filter(pk=book.pk).update(revision=1)


class Migration(migrations.Migration):

    dependencies = [
        ('reference', '0006_merge_book_kind_and_search_index'),
    ]

    operations = [
        migrations.AddField(
            model_name='book',
            name='revision',
            field=models.PositiveIntegerField(default=0, help_text="the number of the book's latest revision (a load or approval that changed its text); 0: never loaded"),
        ),
        migrations.CreateModel(
            name='BookRevision',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('number', models.PositiveIntegerField()),
                ('created', models.DateTimeField(default=django.utils.timezone.now)),
                ('origin', models.CharField(choices=[('existing', 'texts already in the database'), ('load', 'loaded from the corpus files'), ('approval', 'approved translation'), ('admin', 'edited by an administrator')], max_length=10)),
                ('languages', models.CharField(help_text='the languages whose text changed, space separated', max_length=20)),
                ('added', models.PositiveIntegerField(default=0)),
                ('changed', models.PositiveIntegerField(default=0)),
                ('removed', models.PositiveIntegerField(default=0)),
                ('note', models.CharField(blank=True, max_length=300)),
                ('book', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='revisions', to='reference.book')),
            ],
            options={
                'ordering': ['book', '-number'],
                'constraints': [models.UniqueConstraint(fields=('book', 'number'), name='unique_book_revision')],
            },
        ),
        migrations.CreateModel(
            name='TextVersion',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('sid', models.CharField(max_length=64)),
                ('language', models.CharField(choices=[('ru', 'Русский'), ('en', 'English')], max_length=2)),
                ('title', models.CharField(blank=True, max_length=300)),
                ('body', models.TextField(blank=True)),
                ('since', models.PositiveIntegerField()),
                ('until', models.PositiveIntegerField(blank=True, null=True)),
                ('book', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='text_versions', to='reference.book')),
            ],
            options={
                'ordering': ['book', 'sid', 'language', 'since'],
                'indexes': [models.Index(fields=['book', 'since'], name='reference_tv_since'), models.Index(fields=['book', 'until'], name='reference_tv_until')],
                'constraints': [models.UniqueConstraint(fields=('book', 'sid', 'language', 'since'), name='unique_text_version')],
            },
        ),
        migrations.RunPython(first_revisions, migrations.RunPython.noop),
    ]
