"""The t9a engine speaks Russian: every message has its translation; every clause it cites is in the corpus."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from rulesref.engine import t9a
from rulesref.engine.i18n import nmsg

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "rulesref" / "engine" / "t9a"
CATALOG = ROOT / "locale" / "ru" / "LC_MESSAGES" / "engine_t9a.po"
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def engine_messages():
    """Every msg()/nmsg() call in the t9a engine: (file:line, singular, plural or None)."""
    for path in sorted(ENGINE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("msg", "nmsg"):
                where = f"{path.name}:{node.lineno}"
                texts = node.args[:2] if node.func.id == "nmsg" else node.args[:1]
                assert all(isinstance(t, ast.Constant) and isinstance(t.value, str) for t in texts), (
                    f"{where}: a message must be a string literal so that it can be extracted")
                yield where, texts[0].value, (texts[1].value if node.func.id == "nmsg" else None)


@pytest.fixture(scope="module")
def catalog():
    with CATALOG.open("rb") as fh:
        return read_po(fh, locale="ru")


def test_the_engine_has_messages():
    assert len(list(engine_messages())) > 40


def test_every_t9a_message_has_a_russian_translation(catalog):
    missing = []
    for where, singular, plural in engine_messages():
        entry = catalog.get(singular)
        if entry is None or entry.fuzzy:
            missing.append(f"{where}: {singular}")
            continue
        strings = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        if not all(strings):
            missing.append(f"{where}: {singular} (empty)")
        if plural is not None and (not isinstance(entry.id, tuple) or entry.id[1] != plural or len(strings) != 3):
            missing.append(f"{where}: {singular} (needs msgid_plural and three Russian forms)")
    assert missing == [], "add to locale/ru/LC_MESSAGES/engine_t9a.po:\n" + "\n".join(missing)


def test_translations_keep_the_placeholders(catalog):
    for where, singular, plural in engine_messages():
        entry = catalog.get(singular)
        strings = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        wanted = set(PLACEHOLDER.findall(singular)) | ({"n"} if plural else set())
        for string in strings:
            assert set(PLACEHOLDER.findall(string)) == wanted, f"{where}: {string}"


def test_catalog_declares_russian_plural_forms(catalog):
    assert catalog.plural_forms.startswith("nplurals=3;")
    forms = [nmsg("{n} pursuer moves, in the order of the pursuit rolls: {order}",
                  "{n} pursuers move one at a time, in the order of their pursuit rolls: {order}", n, order="x")
             .render("ru").split(" ", 2)[1] for n in (1, 2, 5, 11, 21, 22)]
    assert forms == ["преследующее", "преследующих", "преследующих", "преследующих", "преследующее", "преследующих"]


def test_no_stale_entries(catalog):
    used = {singular for _, singular, _ in engine_messages()}
    stale = [m.id for m in catalog if m.id and (m.id if isinstance(m.id, str) else m.id[0]) not in used]
    assert stale == []


def corpus_ids() -> set[str]:
    ids = set()
    for path in (ROOT / "fixtures" / "corpus" / "t9a").glob("*/*.md"):
        ids |= set(re.findall(r"\{#([^\s}]+)", path.read_text(encoding="utf-8")))
    return ids


def test_every_citable_clause_is_in_the_corpus():
    ids = corpus_ids()
    if not ids:
        pytest.skip("the t9a corpus is not in fixtures/corpus/t9a yet")
    assert set(t9a.CITABLE_CLAUSES) - ids == set()


def test_every_cited_clause_is_citable():
    """Findings only cite clauses listed in CITABLE_CLAUSES (scanned from the code)."""
    text = (ENGINE / "text.py").read_text(encoding="utf-8")
    cited = set(re.findall(r'cite\("([^"]+)"', text))
    assert cited == set(t9a.CITABLE_CLAUSES)


@pytest.mark.parametrize("lang, value, inches_text, degrees_text", [
    ("en", 2.5, "2.5″", "2.5°"), ("ru", 2.5, "2,5″", "2,5°"), ("en", 1234.567, "1,234.57″", "1,234.6°"),
    ("ru", 1234.567, "1\xa0234,57″", "1\xa0234,6°"), ("ru", -0.004, "0″", "0°"), ("en", -0.5, "-0.5″", "-0.5°"), ("en", 7.0, "7″", "7°")])
def test_lengths_and_angles_are_written_in_the_readers_number_format(lang, value, inches_text, degrees_text):
    from rulesref.engine.t9a.text import degrees, inches

    assert inches(value).render(lang) == inches_text and degrees(value).render(lang) == degrees_text
