#!/usr/bin/env python
"""A realistic rulebook of any size, in Russian and English, for measuring: ``generate(20_000)``.

What makes it realistic, as far as search, translation memory and page building can tell:

- **Vocabulary.** Words are drawn from the 50,000 most frequent real word forms of each language (wordfreq's
  lists, which keep inflections apart: подразделение, подразделения, подразделений … are separate entries), with
  their real frequencies — a Zipf law — mixed with the words of the project's own rulebooks at their frequency
  there, as a rulebook's text is dominated by its terms (перехват, кавалерия, hexes, Interception …). The shared
  search queries therefore find a realistic share of the sections, not all or none.
- **Structure.** Sections are numbered like the real books (chapters ``1``–``60``, then ``12.3``, ``12.3.4``,
  ``12.3.4.7``; no part above 99), with a realistic spread of children per section, parents with no text of their
  own, untitled sections, lettered clauses ``a) …``, lists, ``ПРИМЕЧАНИЕ:`` / ``NOTE:`` paragraphs, and
  cross-references in the printed forms of the real corpus (``(6.2.1)``, ``см. 11. 4. 5``, ``9.3.1c``), mostly to
  nearby sections, a few to sections the book lacks.
- **Two languages.** The English text mirrors the Russian block for block, with the same numbers and references
  (so translation QA finds them consistent) and ``src=`` marking it current; its words are its own.

It writes an ordinary corpus tree (``book.toml``, ``ru/*.md``, ``en/*.md``) that the real loading code reads and
validates: ``write(root, 20_000)`` then ``load_corpus(root)``, or ``load(20_000)`` to do both from Django. The
same size and seed always give the same bytes. ``python bench/corpus_gen.py 20000 DIR`` writes one from the shell.
"""
from __future__ import annotations

import argparse
import bisect
import itertools
import random
import re
import sys
import tempfile
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from rulesref.reference.corpus import SectionDoc, render_file, source_revision  # noqa: E402
from rulesref.reference.refs import find_references, normalise  # noqa: E402

LANGUAGES = ("ru", "en")
GENERAL_WORDS = 50_000
RULE_SHARE = 0.35  # of the words of a sentence, the share drawn from the rulebooks' own vocabulary
MAX_DEPTH = 4
WORD_RES = {"ru": re.compile(r"^[а-яё]+$"), "en": re.compile(r"^[a-z]+(?:'[a-z]+)?$")}
TOKEN_RE = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?", re.UNICODE)
SEE = {"ru": ["см. {}", "({})", "согласно {}", "(см. {})", "правило {}"],
       "en": ["see {}", "({})", "under {}", "(see {})", "rule {}"]}
NOTE = {"ru": "ПРИМЕЧАНИЕ: ", "en": "NOTE: "}
EXAMPLE = {"ru": "ПРИМЕР: ", "en": "EXAMPLE: "}
HEX = {"ru": ("гекс", "гекса", "гексов"), "en": ("hex", "hexes", "hexes")}


def hexes(lang: str, count: int) -> str:
    """The word for a number of hexes, with Russian's three plural forms (1 гекс, 2 гекса, 5 гексов)."""
    one, few, many = HEX[lang]
    if count % 10 == 1 and count % 100 != 11:
        return one
    if lang == "ru" and 2 <= count % 10 <= 4 and not 12 <= count % 100 <= 14:
        return few
    return many if lang == "ru" else few


# ---------------------------------------------------------------------------------------------- vocabulary


class Vocabulary:
    """Words of one language with cumulative weights, for drawing by frequency."""

    def __init__(self, weighted: dict[str, float]):
        self.words = list(weighted)
        self.cumulative = list(itertools.accumulate(weighted.values()))
        self.total = self.cumulative[-1]

    def draw(self, rng: random.Random, k: int) -> list[str]:
        cumulative, total, words, hi = self.cumulative, self.total, self.words, len(self.words) - 1
        return [words[bisect.bisect(cumulative, rng.random() * total, 0, hi)] for _ in range(k)]


@lru_cache(maxsize=None)
def vocabularies(lang: str) -> tuple[Vocabulary, Vocabulary]:
    """(general, rulebook) vocabularies of one language."""
    from wordfreq import get_frequency_dict

    pattern = WORD_RES[lang]
    general: dict[str, float] = {}
    for word, frequency in sorted(get_frequency_dict(lang).items(), key=lambda item: -item[1]):
        if pattern.match(word):
            general[word] = frequency
            if len(general) == GENERAL_WORDS:
                break
    rule: dict[str, float] = {}
    for path in sorted((ROOT / "fixtures" / "corpus").glob(f"*/{lang}/*.md")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.startswith("#"):
                continue
            for word in TOKEN_RE.findall(line.lower().replace("ё", "е")):
                if pattern.match(word):
                    rule[word] = rule.get(word, 0) + 1
    return Vocabulary(general), Vocabulary(rule)


# ---------------------------------------------------------------------------------------------- the tree


@dataclass
class GeneratedSection:
    sid: str
    level: int
    parent: str | None
    title: dict[str, str] = field(default_factory=dict)
    body: dict[str, str] = field(default_factory=dict)
    children: list[str] = field(default_factory=list)


@dataclass
class GeneratedBook:
    slug: str
    sections: list[GeneratedSection]  # in book order (pre-order of the tree)

    @property
    def chapters(self) -> list[str]:
        return [s.sid for s in self.sections if s.level == 1]

    def docs(self, lang: str) -> list[SectionDoc]:
        source = {s.sid: source_revision(s.title["ru"], s.body["ru"]) for s in self.sections} if lang == "en" else {}
        return [SectionDoc(id=s.sid, title=s.title[lang], level=s.level, body=s.body[lang], parent=s.parent,
                           attrs={"src": source[s.sid]} if lang == "en" else {}) for s in self.sections]

    def write(self, root: Path) -> Path:
        """The book as a corpus tree under ``root/<slug>/``; returns that folder."""
        book_dir = root / self.slug
        title = {"ru": f"Сгенерированные правила ({len(self.sections)} разделов)",
                 "en": f"Generated rules ({len(self.sections)} sections)"}
        chapters = ", ".join(f'"{c}"' for c in self.chapters)
        book_dir.mkdir(parents=True, exist_ok=True)
        (book_dir / "book.toml").write_text(
            f'slug = "{self.slug}"\nsource_language = "ru"\nposition = 100\nchapters = [{chapters}]\n\n'
            f'[title]\nru = "{title["ru"]}"\nen = "{title["en"]}"\n', encoding="utf-8")
        for lang in LANGUAGES:
            folder = book_dir / lang
            folder.mkdir(exist_ok=True)
            chapter: list[SectionDoc] = []
            for doc in self.docs(lang) + [None]:
                if (doc is None or doc.level == 1) and chapter:
                    (folder / f"{chapter[0].id}.md").write_text(render_file(chapter), encoding="utf-8")
                    chapter = []
                if doc is not None:
                    chapter.append(doc)
        return book_dir


def _capacity(levels: int) -> int:
    """How many sections a subtree ``levels`` deep can hold with no part of a number above 99."""
    return 1 if levels == 0 else 1 + 99 * _capacity(levels - 1)


def _tree(total: int, rng: random.Random) -> list[GeneratedSection]:
    """``total`` sections numbered like a rulebook, in pre-order."""
    chapters = max(2, min(60, round(total ** 0.5 / 4)))
    out: list[GeneratedSection] = []

    def split(budget: int, parts: int) -> list[int]:
        weights = [rng.uniform(0.4, 1.6) for _ in range(parts)]
        scale = (budget - parts) / sum(weights)
        sizes = [1 + int(w * scale) for w in weights]
        for i in rng.sample(range(parts), budget - sum(sizes)):
            sizes[i] += 1
        return sizes

    def grow(sid: str, level: int, parent: str | None, budget: int) -> None:
        section = GeneratedSection(sid=sid, level=level, parent=parent)
        out.append(section)
        below = budget - 1
        if below <= 0:
            return
        levels_left = MAX_DEPTH - level
        # Enough children that none outgrows what the levels under it can number (a share can reach 1.6/0.4 = 4
        # times the smallest), about the levels_left-th root of the budget, so the tree is as bushy as a rulebook.
        least = -(-4 * below // _capacity(levels_left - 1)) if levels_left > 1 else below
        count = round(below ** (1 / levels_left) * rng.uniform(0.7, 1.4))
        if below <= 30 and rng.random() < 0.4:
            count = below  # a section whose subsections go no deeper, as most do in a real rulebook
        count = max(1, least, min(count, below))
        for number, size in enumerate(split(below, count), start=1):
            child = f"{sid}.{number}"
            section.children.append(child)
            grow(child, level + 1, sid, size)

    if total > chapters * _capacity(MAX_DEPTH - 1) // 4:
        raise ValueError(f"{total} sections do not fit {chapters} chapters numbered up to 99 at each level")
    for number, size in enumerate(split(total, chapters), start=1):
        grow(str(number), 1, None, size)
    assert len(out) == total and all(s.level <= MAX_DEPTH for s in out), "the tree must hold every section"
    assert all(len(s.children) <= 99 for s in out), "no part of a number above 99"
    return out


# ---------------------------------------------------------------------------------------------- the text


def _targets(text: str) -> list[str]:
    return [r.target for r in find_references(text)]


class Writer:
    """Sentences and blocks for one section in both languages, the English mirroring the Russian's shape."""

    def __init__(self, rng: random.Random, sids: list[str]):
        self.rng = rng
        self.sids = sids
        self.position = {sid: i for i, sid in enumerate(sids)}
        self.vocab = {lang: vocabularies(lang) for lang in LANGUAGES}

    def words(self, lang: str, count: int) -> list[str]:
        general, rule = self.vocab[lang]
        rules = sum(1 for _ in range(count) if self.rng.random() < RULE_SHARE)
        drawn = rule.draw(self.rng, rules) + general.draw(self.rng, count - rules)
        self.rng.shuffle(drawn)
        return drawn

    def reference(self, sid: str) -> str:
        """A section this one refers to: mostly a neighbour, sometimes anywhere, now and then one the book lacks,
        printed as the real corpus prints them."""
        rng = self.rng
        roll = rng.random()
        if roll < 0.05:
            target = f"{rng.randint(61, 99)}.{rng.randint(1, 9)}"
        elif roll < 0.75:
            here = self.position[sid]
            target = self.sids[max(0, min(len(self.sids) - 1, here + rng.randint(-30, 30)))]
        else:
            target = rng.choice(self.sids)
        if "." in target and rng.random() < 0.1:
            target = target.replace(".", ". ")
        elif target.count(".") >= 2 and rng.random() < 0.1:
            target += rng.choice("abcd")
        return target

    def sentence_pair(self, sid: str) -> dict[str, str]:
        """One sentence in each language with the same references, numbers and die rolls."""
        for _ in range(20):
            extras = self._extras(sid)
            pair = {lang: self._sentence(lang, extras) for lang in LANGUAGES}
            wanted = [value for kind, value, _ in extras if kind == "ref"]
            # A word drawn next to a reference can make it read as a quantity ("4.2 hexes"): draw again then.
            if all(sorted(r.target for r in find_references(pair[lang])) ==
                   sorted(normalise(w) for w in wanted) for lang in LANGUAGES):
                return pair
        return {lang: self._sentence(lang, []) for lang in LANGUAGES}

    def _extras(self, sid: str) -> list[tuple[str, object, int]]:
        rng = self.rng
        extras: list[tuple[str, object, int]] = []
        if rng.random() < 0.18:
            extras.append(("ref", self.reference(sid), rng.randrange(len(SEE["ru"]))))
        if rng.random() < 0.12:
            extras.append(("hexes", rng.randint(1, 12), 0))
        if rng.random() < 0.05:
            extras.append(("roll", f"{rng.randint(0, 3)}-{rng.randint(4, 9)}", 0))
        return extras

    def _sentence(self, lang: str, extras: list[tuple[str, object, int]]) -> str:
        rng = self.rng
        length = max(4, int(rng.gauss(14, 6)))
        words = self.words(lang, length if lang == "ru" else max(4, int(length * 1.15)))
        for kind, value, form in extras:
            at = rng.randint(1, len(words))
            if kind == "ref":
                words.insert(at, SEE[lang][form].format(value))
            elif kind == "hexes":
                words.insert(at, f"{value} {hexes(lang, value)}")
            else:
                words.insert(at, value)
        for i in range(2, len(words) - 1):
            if rng.random() < 0.07 and words[i][-1].isalpha():
                words[i] += ","
        text = " ".join(words)
        return text[0].upper() + text[1:] + "."

    def paragraph(self, sid: str, sentences: int) -> dict[str, str]:
        pairs = [self.sentence_pair(sid) for _ in range(sentences)]
        return {lang: " ".join(p[lang] for p in pairs) for lang in LANGUAGES}

    def body(self, sid: str, has_children: bool) -> dict[str, str]:
        rng = self.rng
        if has_children and rng.random() < 0.6:
            return {lang: "" for lang in LANGUAGES}  # a heading whose text is its subsections, like 9.3
        blocks: list[dict[str, str]] = []
        for _ in range(1 if has_children else min(6, 1 + int(rng.expovariate(0.7)))):
            for _ in range(20):
                drawn = self.blocks(sid)
                # Sentences side by side can join into one reading ("see 93.8. A unit" reads as 93.8.A in one
                # language only): draw again until both languages refer to the same sections.
                if all(_targets(b["ru"]) == _targets(b["en"]) for b in drawn):
                    blocks += drawn
                    break
        return {lang: "\n\n".join(b[lang] for b in blocks) for lang in LANGUAGES}

    def blocks(self, sid: str) -> list[dict[str, str]]:
        """One paragraph, or a lead-in and its lettered clauses, a list, a note or an example."""
        rng = self.rng
        roll = rng.random()
        if roll < 0.12:
            clauses = [self.paragraph(sid, 1) for _ in range(rng.randint(2, 7))]
            return [self.paragraph(sid, 1)] + [{lang: f"{letter}) {clause[lang]}" for lang in LANGUAGES}
                                               for letter, clause in zip("abcdefg", clauses)]
        if roll < 0.2:
            items = [self.paragraph(sid, 1) for _ in range(rng.randint(2, 5))]
            return [{lang: "\n".join(f"- {item[lang]}" for item in items) for lang in LANGUAGES}]
        if roll < 0.27:
            note = self.paragraph(sid, rng.randint(1, 2))
            return [{lang: NOTE[lang] + note[lang] for lang in LANGUAGES}]
        if roll < 0.3:
            example = self.paragraph(sid, rng.randint(2, 4))
            return [{lang: EXAMPLE[lang] + example[lang] for lang in LANGUAGES}]
        return [self.paragraph(sid, max(1, min(5, int(rng.gauss(2.5, 1.2)))))]

    def title(self, level: int) -> dict[str, str]:
        rng = self.rng
        if level > 2 and rng.random() < 0.08:
            return {lang: "" for lang in LANGUAGES}  # untitled, like 9.3.4-9.3.7
        count = rng.choice((1, 1, 2, 2, 2, 3, 3, 4))
        out = {}
        for lang in LANGUAGES:
            _, rule = self.vocab[lang]
            words = rule.draw(rng, count) if rng.random() < 0.7 else self.words(lang, count)
            text = " ".join(words)
            out[lang] = text[0].upper() + text[1:]
        return out


def generate(sections: int, seed: int = 1, slug: str | None = None) -> GeneratedBook:
    """A book of exactly ``sections`` sections in both languages; the same arguments give the same book."""
    if sections < 2:
        raise ValueError("a generated book has at least 2 sections")
    rng = random.Random(f"rulesref-corpus-{seed}-{sections}")
    tree = _tree(sections, rng)
    writer = Writer(rng, [s.sid for s in tree])
    for section in tree:
        section.title = writer.title(section.level)
        section.body = writer.body(section.sid, bool(section.children))
    return GeneratedBook(slug=slug or f"gen{sections}", sections=tree)


def write(root: Path, sections: int, seed: int = 1, slug: str | None = None) -> Path:
    """Generate a book and write it as a corpus tree under ``root``; returns the book's folder."""
    return generate(sections, seed, slug).write(root)


def load(sections: int, seed: int = 1, slug: str | None = None, root: Path | None = None):
    """Generate a book, write it and load it through ``loadrules``'s own code (Django must be set up); returns the
    LoadReport. ``root`` defaults to a new temporary folder."""
    from rulesref.reference.loading import load_corpus

    root = root or Path(tempfile.mkdtemp(prefix="rulesref-corpus-"))
    write(root, sections, seed, slug)
    return load_corpus(root)


def main() -> None:
    parser = argparse.ArgumentParser(description="Write a generated rulebook as a corpus tree.")
    parser.add_argument("sections", type=int)
    parser.add_argument("root", type=Path)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--slug")
    args = parser.parse_args()
    print(write(args.root, args.sections, args.seed, args.slug))


if __name__ == "__main__":
    main()
