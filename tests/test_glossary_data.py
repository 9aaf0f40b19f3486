"""Shape and consistency of the glossary data in fixtures/glossary/<book>.toml.

No Django here: the files are read with tomllib only, so these tests run with `-p no:django`.
"""

import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GLOSSARY_DIR = ROOT / "fixtures" / "glossary"
CORPUS_FORMAT = ROOT / "docs" / "corpus-format.md"
BOOKS = ("mpbs", "t9a")

FIELD_TYPES = {
    "id": str,
    "en": str,
    "en_variants": list,
    "ru": str,
    "ru_variants": list,
    "ru_forbidden": list,
    "abbr_en": str,
    "abbr_ru": str,
    "definition_en": str,
    "definition_ru": str,
    "confidence": str,
    "sections": list,
    "category": str,
}
# Optional: the senses of the term's words that the entry does not cover (see rulesref/reference/glossary.py).
OPTIONAL_FIELD_TYPES = {"en_other_senses": list, "ru_other_senses": list}
CONFIDENCES = {"sure", "likely"}
CATEGORIES = {
    "order", "unit", "state", "formation", "marker", "table", "reaction", "movement",
    "combat", "geometry", "procedure", "terrain", "measure", "other",
}
SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
CYRILLIC = re.compile(r"[\u0400-\u04FF]")
LATIN = re.compile(r"[A-Za-z]")
# A label printed in English on a counter may stand inside «…» in a Russian term («Fired», «Backstep»).
QUOTED = re.compile(r"«[^»]*»")


def load(book):
    with open(GLOSSARY_DIR / f"{book}.toml", "rb") as f:
        return tomllib.load(f)["term"]


def section_ids():
    """The section ids per book, as listed under "Section ids in the corpus" in docs/corpus-format.md."""
    text = CORPUS_FORMAT.read_text(encoding="utf-8")
    text = text.split("## Section ids in the corpus", 1)[1]
    text = text.split("\n## ", 1)[0]
    parts = re.split(r"^(mpbs|t9a) \(.*$", text, flags=re.M)
    ids = {}
    for book, body in zip(parts[1::2], parts[2::2]):
        found = set(re.findall(r"`([^`]+)`", body))
        # A range such as `9.3.4`–`9.3.7` stands for every id between the two.
        for prefix, lo, hi in re.findall(r"`((?:\d+\.)+)(\d+)`\s*[–-]\s*`\1(\d+)`", body):
            found.update(f"{prefix}{n}" for n in range(int(lo), int(hi) + 1))
        ids[book] = found
    return ids


SECTION_IDS = section_ids()


def norm(term):
    """Comparison key for Russian terms: case, ё/е, quotes and punctuation do not make two terms different."""
    term = term.casefold().replace("ё", "е")
    term = re.sub(r"[«»\"'“”„,.;:()]", " ", term)
    return " ".join(term.split())


def accepted_ru(entry):
    return [entry["ru"], *entry["ru_variants"]]


def is_russian(text):
    return bool(CYRILLIC.search(text)) and not LATIN.search(QUOTED.sub("", text))


def is_english(text):
    return bool(LATIN.search(text)) and not CYRILLIC.search(text)


def test_section_ids_parsed_from_corpus_format():
    assert set(SECTION_IDS) == set(BOOKS)
    assert {"5.7", "9.3.1", "9.3.5", "9.3.6", "11.4.10"} <= SECTION_IDS["mpbs"]
    assert {"declaring-charges", "stand-and-shoot", "XIII.7.C", "pursuit-enemy-unit"} <= SECTION_IDS["t9a"]


@pytest.mark.parametrize("book", BOOKS)
def test_entries_have_all_keys_with_right_types(book):
    entries = load(book)
    assert entries, f"{book}: no [[term]] entries"
    for entry in entries:
        where = f"{book}:{entry.get('id', '?')}"
        assert set(FIELD_TYPES) <= set(entry), f"{where}: missing keys {sorted(set(FIELD_TYPES) - set(entry))}"
        unknown = set(entry) - set(FIELD_TYPES) - set(OPTIONAL_FIELD_TYPES)
        assert not unknown, f"{where}: unknown keys {sorted(unknown)}"
        for key, kind in {**FIELD_TYPES, **OPTIONAL_FIELD_TYPES}.items():
            if key not in entry:
                continue
            assert isinstance(entry[key], kind), f"{where}: {key} should be {kind.__name__}"
            if kind is list:
                assert all(isinstance(item, str) for item in entry[key]), f"{where}: {key} holds a non-string"
                assert all(item.strip() == item and item for item in entry[key]), f"{where}: {key} blank/padded"
        for key in ("id", "en", "ru", "definition_en", "definition_ru"):
            assert entry[key].strip() == entry[key] and entry[key], f"{where}: {key} empty or padded"


@pytest.mark.parametrize("book", BOOKS)
def test_ids_are_unique_slugs(book):
    ids = [entry["id"] for entry in load(book)]
    assert all(SLUG.match(i) for i in ids), [i for i in ids if not SLUG.match(i)]
    duplicates = {i for i in ids if ids.count(i) > 1}
    assert not duplicates, f"{book}: duplicate ids {sorted(duplicates)}"


@pytest.mark.parametrize("book", BOOKS)
def test_confidence_and_category(book):
    for entry in load(book):
        assert entry["confidence"] in CONFIDENCES, f"{book}:{entry['id']}: {entry['confidence']}"
        assert entry["category"] in CATEGORIES, f"{book}:{entry['id']}: {entry['category']}"


@pytest.mark.parametrize("book", BOOKS)
def test_russian_fields_are_cyrillic_and_english_fields_latin(book):
    for entry in load(book):
        where = f"{book}:{entry['id']}"
        for term in [*accepted_ru(entry), *entry["ru_forbidden"]]:
            assert is_russian(term), f"{where}: not a Russian term: {term!r}"
        for term in [entry["en"], *entry["en_variants"], *entry.get("en_other_senses", [])]:
            assert is_english(term), f"{where}: not an English term: {term!r}"
        for term in entry.get("ru_other_senses", []):
            assert is_russian(term), f"{where}: not a Russian phrase: {term!r}"
        assert not entry["abbr_ru"] or is_russian(entry["abbr_ru"]), f"{where}: abbr_ru {entry['abbr_ru']!r}"
        assert not entry["abbr_en"] or is_english(entry["abbr_en"]), f"{where}: abbr_en {entry['abbr_en']!r}"
        assert CYRILLIC.search(entry["definition_ru"]), f"{where}: definition_ru is not Russian"
        assert is_english(entry["definition_en"]), f"{where}: definition_en is not English"


@pytest.mark.parametrize("book", BOOKS)
def test_no_russian_term_belongs_to_two_entries(book):
    owner = {}
    for entry in load(book):
        for term in accepted_ru(entry):
            key = norm(term)
            assert owner.setdefault(key, entry["id"]) == entry["id"], (
                f"{book}: {term!r} is listed for both {owner[key]} and {entry['id']}"
            )


@pytest.mark.parametrize("book", BOOKS)
def test_no_english_term_belongs_to_two_entries(book):
    # Case counts here: mpbs distinguishes the order "Rally" from the action "rally" (11.4.5, "a free rally").
    owner = {}
    for entry in load(book):
        for term in [entry["en"], *entry["en_variants"]]:
            key = term
            assert owner.setdefault(key, entry["id"]) == entry["id"], (
                f"{book}: {term!r} is listed for both {owner[key]} and {entry['id']}"
            )


@pytest.mark.parametrize("book", BOOKS)
def test_forbidden_forms_are_not_also_accepted(book):
    for entry in load(book):
        accepted = {norm(t) for t in accepted_ru(entry)}
        forms = [norm(t) for t in accepted_ru(entry)]
        assert len(forms) == len(accepted), f"{book}:{entry['id']}: a variant repeats the term"
        clash = accepted & {norm(t) for t in entry["ru_forbidden"]}
        assert not clash, f"{book}:{entry['id']}: both accepted and forbidden: {clash}"


@pytest.mark.parametrize("book", BOOKS)
def test_forbidden_forms_are_no_other_entrys_term(book):
    # A checker flags forbidden forms wherever they occur, so one entry must not forbid another entry's term.
    entries = load(book)
    accepted = {norm(t): e["id"] for e in entries for t in accepted_ru(e)}
    for entry in entries:
        for term in entry["ru_forbidden"]:
            assert norm(term) not in accepted, (
                f"{book}:{entry['id']}: forbids {term!r}, the term of {accepted[norm(term)]}"
            )


@pytest.mark.parametrize("book", BOOKS)
def test_sections_exist_in_corpus(book):
    for entry in load(book):
        assert entry["sections"], f"{book}:{entry['id']}: no sections"
        unknown = set(entry["sections"]) - SECTION_IDS[book]
        assert not unknown, f"{book}:{entry['id']}: unknown section ids {sorted(unknown)}"


def test_mpbs_formation_hits_variant():
    entry = {e["id"]: e for e in load("mpbs")}["formation-hits"]
    assert entry["en"] == "formation hits"
    assert entry["ru"] == "хиты построения"
    assert "хиты формирования" in entry["ru_variants"]


def test_books_keep_their_own_meaning_of_shared_words():
    """"отступать" is Retreat in mpbs but Flee in t9a; "нападение" is a charge in t9a."""
    mpbs = {norm(t): e["id"] for e in load("mpbs") for t in accepted_ru(e)}
    t9a = {norm(t): e["id"] for e in load("t9a") for t in accepted_ru(e)}
    assert mpbs["отступать"] == "retreat"
    assert t9a["отступать"] == "flee"
    assert t9a["нападение"] == "charge"
    assert "нападение" not in mpbs
