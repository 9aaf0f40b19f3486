"""The browser's stemmer (static/offline/stem.js) gives PyStemmer's stem for every word: those of the corpus, the
raw sources and the glossaries, a large list of other inflected forms made from them, and random strings of each
alphabet (the algorithms must agree on any input, not only on real words). The oracle is PyStemmer itself."""
from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from rulesref.reference.glossary import normalise_word
from rulesref.text import WORD_RE, script_of, stem_word

ROOT = Path(__file__).resolve().parent.parent
STEM_JS = ROOT / "rulesref" / "static" / "offline" / "stem.js"
pytestmark = pytest.mark.browser

RUSSIAN_ENDINGS = [
    "а", "я", "ы", "и", "у", "ю", "е", "о", "ь", "ов", "ев", "ей", "ам", "ям", "ами", "ями", "ах", "ях", "ом", "ем",
    "ие", "ия", "ий", "ый", "ой", "ая", "ое", "ые", "ого", "его", "ему", "ому", "ыми", "ими", "ую", "юю", "их", "ых",
    "ть", "ться", "лся", "лась", "лись", "ла", "ло", "ли", "в", "вши", "вшись", "ив", "ивши", "ившись", "ывши",
    "ющий", "ующих", "ущий", "ащий", "ящими", "вший", "ивший", "ённый", "енный", "нный", "нно", "ость", "ости",
    "остью", "ейший", "ейшая", "ейше", "ешь", "ете", "ите", "йте", "ет", "ит", "ят", "ут", "ют", "ешься", "ание",
    "ения", "ением", "ья", "ье", "ьи", "ью", "иями", "иях", "ией", "ием", "ии", "ию", "уют", "ует", "ен", "ена",
]
ENGLISH_ENDINGS = [
    "s", "es", "ies", "ied", "sses", "'s", "s'", "'", "ed", "ing", "ingly", "edly", "eed", "eedly", "ly", "ness",
    "ful", "fully", "fulness", "ation", "ational", "ationally", "tional", "ize", "izer", "ization", "ism", "ist",
    "ogist", "ogy", "ogi", "ous", "ously", "ousness", "ive", "ively", "iveness", "iviti", "able", "ably", "ibly",
    "ability", "biliti", "bli", "li", "lessli", "alli", "aliti", "alism", "ement", "ment", "ent", "ence", "enci",
    "ance", "anci", "ic", "ical", "ically", "icate", "iciti", "alize", "ative", "er", "ers", "est", "y", "ion", "al",
    "ant", "ate", "iti", "ll", "e", "at", "bl", "iz", "ying", "yed",
]


def vocabulary() -> list[str]:
    texts = [p.read_text(encoding="utf-8") for pattern in ("corpus/**/*.md", "glossary/*.toml", "sources/**/*.txt")
             for p in sorted((ROOT / "fixtures").glob(pattern))]
    return sorted({normalise_word(w) for text in texts for w in WORD_RE.findall(text)})


def inflected(words: list[str], rng: random.Random) -> set[str]:
    """Each word with a dozen endings of its language, and with its last one or two letters replaced by them."""
    forms = set()
    for word in words:
        endings = RUSSIAN_ENDINGS if script_of(word) == "ru" else ENGLISH_ENDINGS
        for ending in rng.sample(endings, 12):
            forms.add(word + ending)
            if len(word) > 3:
                forms.add(word[:-1] + ending)
                forms.add(word[:-2] + ending)
    for _ in range(10_000):
        n = rng.randint(1, 14)
        forms.add("".join(rng.choice("абвгдеёжзийклмнопрстуфхцчшщъыьэюя") for _ in range(n)))
        forms.add("".join(rng.choice("abcdefghijklmnopqrstuvwxyz'") for _ in range(n)))
        forms.add("".join(rng.choice("aeiouyYsdlgtnbpr") for _ in range(n)))
    return forms


def js_stems(page, words: list[str]) -> list[str]:
    page.set_content("<!doctype html><meta charset=utf-8><title>stem</title>")
    page.add_script_tag(path=str(STEM_JS))
    out = []
    for start in range(0, len(words), 20_000):
        out += page.evaluate("words => words.map(w => RulesrefStem.stemWord(w))", words[start:start + 20_000])
    return out


def test_every_word_of_the_corpus_and_glossaries_and_their_forms_stems_as_on_the_server(page_factory):
    page = page_factory()
    words = vocabulary()
    forms = sorted(set(words) | inflected(words, random.Random(18)))
    assert len(words) > 2500 and len(forms) > 100_000
    expected = [stem_word(w) for w in forms]
    got = js_stems(page, forms)
    different = [(w, e, g) for w, e, g in zip(forms, expected, got) if e != g]
    assert different == [], f"{len(different)} of {len(forms)} differ, e.g. {different[:10]}"
    assert sum(w != s for w, s in zip(forms, expected)) > len(forms) // 3  # most forms lose an ending


def test_words_are_split_and_normalised_as_on_the_server(page_factory):
    page = page_factory()
    page.set_content("<!doctype html><meta charset=utf-8><title>stem</title>")
    page.add_script_tag(path=str(STEM_JS))
    text = "Ёж «перехватывает» l’unité, 9.3.1c; co-operate ПД/MP 3D6 naïve Straße İstanbul сло\u0301во"
    expected = [stem_word(normalise_word(w)) for w in WORD_RE.findall(text)]
    got = page.evaluate(
        "text => (text.match(/[\\p{L}\\p{N}]+/gu) || []).map(w => RulesrefStem.stemWord(RulesrefStem.normaliseWord(w)))",
        text)
    assert got == expected
    assert re.search("ё", text.lower())
