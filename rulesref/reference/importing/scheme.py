"""The numbering scheme of a text: which labels begin headings."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..numbering import is_roman
from .labels import Head, parse_head
from .lexicon import MARKER_ONLY_RE, all_caps, split_title, title_like
from .lines import Line, content


@dataclass
class Scheme:
    """The numbering scheme read from the text: which chapters have sections under them, which prefixes occur."""

    chapters: set[str] = field(default_factory=set)  # first parts of dotted numbers ("3", "O22", "A", "XIII")
    dotted: int = 0
    prefixes: dict[str, bool] = field(default_factory=dict)  # prefix -> printed in Cyrillic somewhere
    spaced: bool = False
    roman: bool = False
    zero_chapters: bool = False
    clauses: int = 0
    markdown: int = 0  # lines marked as headings with Markdown's #
    hint: Head | None = None  # the label the configuration names as an example of a heading
    nested: bool = False  # headings introduced by a word (Раздел 1), each opening with plain numbers (1., 2.)

    def describe(self) -> list[str]:
        out = []
        if self.dotted:
            out.append("dotted numbers" + (" (some printed with spaces: 11. 4. 5)" if self.spaced else ""))
        for prefix, cyrillic in sorted(self.prefixes.items()):
            out.append(f"prefix {prefix}" + (f" (printed in Cyrillic too; the ids use the Latin {prefix})"
                                             if cyrillic else ""))
        if self.roman:
            out.append("Roman chapter numbers (XIII.7.C)")
        if self.zero_chapters:
            out.append("chapters printed as N.0")
        if self.nested:
            out.append("sections introduced by a word (Раздел 1, Section 1), the plain numbers under each (1., 2.) "
                       "their items: 1.1, 1.2")
        if self.clauses:
            out.append(f"{self.clauses} clauses numbered with a letter suffix (3.1a), kept as lettered clauses")
        return out


def infer_scheme(lines: list[Line], patterns: tuple[str, ...], known: set[str], hint: Head | None = None) -> Scheme:
    scheme = Scheme(hint=hint)
    heads = []
    for k in content(lines):
        if lines[k].cell >= 0 or lines[k].keep:
            continue
        scheme.markdown += lines[k].depth > 0
        head = parse_head(MARKER_ONLY_RE.sub("", lines[k].text), patterns)
        heads.append(head)
        if head is not None and not (head.rest and head.rest[0].islower()):
            _count(scheme, head)
    scheme.nested = not scheme.dotted and _words_then_numbers(heads)
    for sid in known:  # the book's own chapters count too (a translation, a second file of the source)
        scheme.chapters.add(sid.split(".", 1)[0])
    return scheme


def _words_then_numbers(heads: list[Head | None]) -> bool:
    """Two numberings in one text, the outer introduced by a word: every heading such as ``Раздел 1`` or
    ``Section 2`` is followed at once by a plain number (``1. …``), which so numbers an item under it, not a
    chapter of its own (a list inside an article comes after the article's words, and keeps it text)."""
    opened = [heads[n + 1] if n + 1 < len(heads) else None for n, head in enumerate(heads)
              if head is not None and head.kind == "chapter"]
    return bool(opened) and all(head is not None and head.kind == "bare" and not head.zero for head in opened)


def _count(scheme: Scheme, head: Head) -> None:
    if head.zero:
        scheme.zero_chapters = True
    if head.kind != "dotted":
        return
    scheme.dotted += 1
    scheme.spaced |= head.spaced
    scheme.chapters.add(head.chapter)
    scheme.clauses += bool(head.letter)
    prefix = re.match(r"^[A-Z]+", head.number)
    if prefix:
        name = prefix.group()
        if is_roman(name) and (len(name) > 1 or name in "IVX") and head.number[len(name):].startswith("."):
            scheme.roman = True
        else:
            scheme.prefixes[name] = scheme.prefixes.get(name, False) or head.cyrillic


def accepts(head: Head, scheme: Scheme, next_chapter: str | None, depth: int = 0) -> bool:
    """Whether a number at the start of a line begins a heading (or a clause), by the text's scheme.

    A dotted number does, unless the words after it start in small letters (``1.5 дюйма``, ``2.3 и далее``). A bare
    number (``6.``), a prefixed one (``O22``), a Roman numeral or a letter (``XIII.``, ``A.``) begins a chapter only
    where the text has sections under it — or, for a bare number, where the text has no dotted numbers at all, or
    the title is printed in capitals — so the numbered lists inside clauses stay text. In a text that marks its
    headings with Markdown's ``#``, a bare label begins one only on such a line (elsewhere it is a list item). A
    label of the shape the configuration's hint names begins a heading whatever its kind."""
    if head.rest and head.rest[0].islower():
        return False
    if scheme.hint is not None and head.shape == scheme.hint.shape:
        return True
    return _by_kind(head, scheme, next_chapter, depth)


def _by_kind(head: Head, scheme: Scheme, next_chapter: str | None, depth: int) -> bool:
    rest = head.rest
    if head.kind == "dotted":
        return not head.letter or bool(rest)
    if head.kind == "chapter":
        return not rest or title_like(split_title(rest)[0] or rest)
    if head.kind == "bare" and scheme.nested and not head.zero:
        return True  # an item under a heading introduced by a word: "Раздел 1", then "1. Лига проводит…"
    if scheme.markdown and not depth:
        return False
    title = split_title(rest)[0] if rest else ""
    if rest and not title:
        return False
    return _chapter(head, scheme, next_chapter, title)


def _chapter(head: Head, scheme: Scheme, next_chapter: str | None, title: str) -> bool:
    if head.kind == "bare":
        if head.zero:
            return True
        if head.number in scheme.chapters:
            return next_chapter is None or next_chapter == head.number or all_caps(title)
        return not scheme.dotted and bool(title) or (bool(title) and all_caps(title))
    if head.kind == "roman":
        return head.number in scheme.chapters or (is_roman(head.number) and bool(title) and not scheme.dotted)
    return head.number in scheme.chapters  # "prefixed" O22, "letter" A.
