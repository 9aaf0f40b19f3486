"""Every message the mpbs engine (and the shared engine code it uses) can show has a Russian translation."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po

from rulesref.engine.i18n import msg, nmsg

ROOT = Path(__file__).resolve().parents[2]
# The mpbs engine, the engine code both books share, and the ruling command.
SOURCES = sorted((ROOT / "rulesref" / "engine" / "mpbs").glob("*.py")) + sorted(
    (ROOT / "rulesref" / "engine").glob("*.py")) + [
    ROOT / "rulesref" / "checker" / "management" / "commands" / "ruling.py",
]
CATALOGS = [ROOT / "locale" / "ru" / "LC_MESSAGES" / name for name in ("engine.po", "engine_mpbs.po")]
PLACEHOLDER = re.compile(r"\{(\w+)(?:[:!][^}]*)?\}")


def extracted() -> list[tuple[str, int, str | tuple[str, str]]]:
    found = []
    for path in SOURCES:
        if not path.exists():
            continue
        for lineno, message, _, _ in extract_from_file("python", str(path), keywords={"msg": None, "nmsg": (1, 2)}):
            found.append((path.name, lineno, message))
    return found


def translations() -> dict:
    merged = {}
    for path in CATALOGS:
        with path.open("rb") as fh:
            for m in read_po(fh, locale="ru"):
                if m.id:
                    merged[m.id if isinstance(m.id, str) else tuple(m.id)] = m.string
    return merged


MESSAGES = extracted()


def test_extraction_finds_the_messages():
    assert len(MESSAGES) > 150


@pytest.mark.parametrize("where,lineno,message", MESSAGES, ids=[f"{w}:{n}" for w, n, _ in MESSAGES])
def test_message_has_russian_translation(where, lineno, message):
    catalog = translations()
    key = message if isinstance(message, str) else tuple(message)
    assert key in catalog, f"{where}:{lineno}: no Russian translation for {message!r}"
    translated = catalog[key]
    forms = [translated] if isinstance(translated, str) else list(translated)
    if not isinstance(message, str):
        assert len(forms) == 3, "Russian has three plural forms"
    names = set(PLACEHOLDER.findall(key if isinstance(key, str) else key[1]))
    for form in forms:
        assert form.strip(), f"{where}:{lineno}: empty translation"
        assert set(PLACEHOLDER.findall(form)) <= names | {"n"}, f"{where}:{lineno}: placeholders differ in {form!r}"


def test_catalogs_declare_russian_plural_forms():
    for path in CATALOGS:
        text = path.read_text(encoding="utf-8")
        assert "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);" in text


@pytest.mark.parametrize("n,expected", [(1, "1 гекс"), (2, "2 гекса"), (4, "4 гекса"), (5, "5 гексов"), (11, "11 гексов"), (21, "21 гекс"), (22, "22 гекса")])
def test_russian_plurals(n, expected):
    assert nmsg("{n} hex", "{n} hexes", n).render("ru") == expected


def test_nested_messages_render_in_the_same_language():
    assert msg("{id} ({type})", id="C1", type=msg("cavalry")).render("ru") == "C1 (кавалерия)"


def test_a_hex_label_the_map_cannot_read_is_explained_in_russian():
    from rulesref.engine.mpbs.scenario import load_scenario
    from rulesref.engine.ruling import InvalidScenarioError

    data = {"book": "mpbs", "map": {"columns": 10, "rows": 10}, "units": [
        {"id": "A", "side": "red", "type": "cavalry", "hexes": ["000101"], "facing": "NE"},
        {"id": "B", "side": "blue", "type": "cavalry", "hexes": ["0505"], "facing": "E"}]}
    with pytest.raises(InvalidScenarioError) as caught:
        load_scenario(data)
    russian = dict(caught.value.in_language("ru"))
    assert russian["units[0].hexes[0]"].startswith("номер гекса — 4 цифры")
    assert russian["units[1].facing"].startswith("ориентация на этой карте — один из углов гекса")
    assert dict(caught.value.problems)["units[0].hexes[0]"].startswith("a hex label is 4 digits")
