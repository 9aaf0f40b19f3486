"""What each cited clause says in the rulebook's translation when the ruling was confirmed (#32): a change of the
translation of a clause marks the ruling "may be outdated" for the translation's readers. The rulings confirmed
before this release are taken as confirmed against the translation as it stands now."""
from django.db import migrations, models


def record_translations(apps, schema_editor):
    from rulesref.rulings.citations import text_digest, translation_language
    from rulesref.reference.corpus import clause_label, split_blocks

    Citation = apps.get_model("rulings", "Citation")
    SectionText = apps.get_model("reference", "SectionText")
    changed = []
    for citation in Citation.objects.select_related("book").iterator():
        lang = translation_language(citation.book.source_language)
        text = SectionText.objects.filter(section__book=citation.book, section__sid=citation.sid,
                                          section__absent=False, language=lang).values_list("title", "body").first()
        title, body = text or ("", "")
        if citation.clause and not any(clause_label(b) == citation.clause for b in split_blocks(body)):
            citation.translated_digest = ""
        else:
            citation.translated_digest = text_digest(title, body, citation.clause) if (title or body) else ""
        changed.append(citation)
    Citation.objects.bulk_update(changed, ["translated_digest"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("rulings", "0002_rules_editors"),
        ("reference", "0011_text_facts"),
    ]

    operations = [
        migrations.AddField(
            model_name="citation",
            name="translated_digest",
            field=models.CharField(blank=True, help_text="digest of the clause's text in the rulebook's translation "
                                                         "when confirmed", max_length=32),
        ),
        migrations.RunPython(record_translations, migrations.RunPython.noop),
    ]
