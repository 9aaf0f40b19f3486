"""UI strings: every message in the code and templates has its Russian translation; plurals come from the catalog."""
from django.utils import translation
from django.utils.translation import ngettext

from rulesref import catalogs


def test_every_ui_string_has_a_russian_translation():
    missing = catalogs.untranslated("ru")
    assert missing == [], f"add these to locale/ru/LC_MESSAGES/django.po: {missing}"


def test_templates_are_extracted():
    ids = {m.id if isinstance(m.id, str) else m.id[0] for m in catalogs.extract()}
    assert "Copy link" in ids  # from a template
    assert "Section %(id)s is not in this corpus" in ids  # from Python


def test_russian_plural_forms_from_the_catalog():
    singular = "English translation: %(done)s of %(total)s section (%(percent)s)"
    plural = "English translation: %(done)s of %(total)s sections (%(percent)s)"
    with translation.override("ru"):
        forms = [ngettext(singular, plural, n) % {"done": 1, "total": n, "percent": "x"} for n in (1, 2, 5, 21)]
    assert forms == ["Перевод на английский: 1 из 1 раздела (x)", "Перевод на английский: 1 из 2 разделов (x)",
                     "Перевод на английский: 1 из 5 разделов (x)", "Перевод на английский: 1 из 21 раздела (x)"]


def test_compiling_the_catalogs_makes_a_running_process_read_them():
    """A process that used Russian before the .mo files existed kept an empty catalog (#30 point 1): compiling
    drops what it kept, so its next Russian page is Russian without a restart."""
    import gettext

    from django.utils.translation import trans_real

    with translation.override("ru"):
        translation.gettext("Rules reference")
    trans_real._translations["ru"] = gettext.NullTranslations()  # what it kept before the catalogs were compiled
    with translation.override("ru"):
        assert translation.gettext("Rules reference") == "Rules reference"
    catalogs.compile_all()
    with translation.override("ru"):
        assert translation.gettext("Rules reference") == "Справочник по правилам"
