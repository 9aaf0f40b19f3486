"""Line joins: the lines a paste broke, joined back into logical lines (items).

Each kind of join is a small class with ``name``, ``priority``, ``test(item, nxt, reader) -> bool`` and
``run(item, nxt, reader)``, listed in ``JOINS`` (``build_joins``): a line first becomes an item (or a bare number
on its line is joined with the title after it, or dropped as a page number), then the first join whose test passes
takes the next line into the item, and the continuation joins (``CONTINUATIONS``) go on taking lines while one
passes. ``Reader`` holds what they share: the lines, the labels read, which of them begin headings.
"""
from __future__ import annotations

import re

from ..numbering import CLAUSE_LABEL_RE, PAREN_CLAUSE_RE, follows
from .labels import Head, parse_head
from .lexicon import (BARE_NUMBER_RE, BULLET_RE, DANGLING_WORDS, LABEL_RE, MARKER_ONLY_RE, TITLE_PREFIX_RE, all_caps,
                      ends_sentence, title_like)
from .lines import Item, Line, Table, content, mark
from .report import ImportResult, Note, Rejected
from .scheme import Scheme, accepts

SUFFIXES_KEPT_RE = re.compile(r"(?:то|либо|нибудь|таки|ка)\b")  # "кто-" + "то": the hyphen is the word's own


class Reader:
    """The lines being read, in order, and what the joins ask of them."""

    def __init__(self, lines: list[Line], scheme: Scheme, result: ImportResult, patterns: tuple[str, ...]):
        self.lines, self.scheme, self.result, self.patterns = lines, scheme, result, patterns
        self.order = content(lines)
        self.heads = {k: parse_head(MARKER_ONLY_RE.sub("", lines[k].text), patterns) for k in self.order
                      if lines[k].cell < 0}
        self.lowercase: set[int] = set()
        self.next_chapter = self._next_chapters()
        self.lowercase = self._lowercase_items()
        if self.lowercase:  # their chapters have sections under them too ("5. Scoring", then "5.1 at the end…")
            scheme.chapters |= {self.heads[k].chapter for k in self.lowercase}
            self.next_chapter = self._next_chapters()

    def _next_chapters(self) -> dict[int, str | None]:
        out: dict[int, str | None] = {}
        upcoming = None
        for k in reversed(self.order):
            out[k] = upcoming
            head = self.heads.get(k)
            if head and head.kind == "dotted" and (k in self.lowercase or accepts(head, self.scheme, None)):
                upcoming = head.chapter
        return out

    def _lowercase_items(self) -> set[int]:
        """Lines whose number is followed by a word in small letters (``3.2 the unit may…``) that are items all the
        same: the number continues the numbering so far (a successor or a first child) and the line before ends
        a sentence or is a heading. A wrapped line that merely begins with a number (``… a cost of`` + ``3.2
        points``) fails one or the other and stays text."""
        found: set[int] = set()
        last, ended = None, True
        for k in self.order:
            head = self.heads.get(k)
            if head is not None and not self.lines[k].keep and not head.letter:
                if self._heading(k, head):
                    last = head.number
                elif head.kind == "dotted" and head.rest[:1].islower() and \
                        self._continues_numbering(k, head, last, ended):
                    found.add(k)
                    last = head.number
            ended = ends_sentence(self.lines[k].text) or self._heading(k, head) or (
                head is not None and title_like(head.rest))  # "5. Scoring": a title, whatever its number
        return found

    def _continues_numbering(self, k: int, head: Head, last: str | None, ended: bool) -> bool:
        """Whether a number followed by small letters is an item; if not, why, in the report."""
        relation = follows(last, head.number) if last is not None else None
        if ended and relation in ("next", "child"):
            return True
        why = "the line before it does not end its sentence (a wrapped line)" if not ended else \
            f"it does not continue {last}" if last is not None else "no numbering comes before it"
        self.result.rejected.append(Rejected(self.lines[k].number, head.printed or head.number,
                                             f"the words after it start in small letters and {why}: kept as text"))
        return False

    def _heading(self, k: int, head: Head | None) -> bool:
        return head is not None and not self.lines[k].keep and accepts(head, self.scheme, self.next_chapter[k],
                                                                       self.lines[k].depth)

    def accepted(self, k: int) -> bool:
        return k in self.lowercase or self._heading(k, self.heads.get(k))

    def free(self, k: int | None) -> bool:
        """Whether line ``k`` may be joined to the line before it: text, not named by the configuration."""
        return k is not None and self.lines[k].cell < 0 and not self.lines[k].keep and not self.lines[k].configured

    def guess(self, line: int, message: str) -> None:
        self.result.guesses.append(Note(line, message))

    def head_of(self, text: str) -> Head | None:
        return parse_head(MARKER_ONLY_RE.sub("", text), self.patterns)


# ---------------------------------------------------------------- joins of the next line


class Join:
    name = ""
    priority = 0

    def test(self, item: Item, nxt: Line, reader: Reader) -> bool:
        raise NotImplementedError

    def run(self, item: Item, nxt: Line, reader: Reader) -> None:
        raise NotImplementedError


def _take(item: Item, nxt: Line, text: str, continued: bool = True) -> None:
    item.text = text
    item.fixed += nxt.fixed
    if continued:
        item.last = nxt.number


class NumberThenTitle(Join):
    """``7.3`` (or ``3.1a``, ``LAW 2``) on a line of its own, its title (or its text) on the next one."""

    name, priority = "number then title", 100

    def test(self, item, nxt, reader):
        head = item.head
        return head is not None and not head.rest and (bool(head.letter) or title_like(nxt.text))

    def run(self, item, nxt, reader):
        kind = "clause" if item.head.letter else "heading"
        reader.guess(item.line, f"the number {item.text!r} and line {nxt.number} read as one {kind}")
        _take(item, nxt, f"{item.text.rstrip()} {nxt.text}", continued=False)
        item.head = reader.head_of(item.text)


class LabelAlone(Join):
    """``ПРИМЕР:`` on a line of its own: the example is the next paragraph."""

    name, priority = "label alone", 90

    def test(self, item, nxt, reader):
        text = item.text
        return item.head is None and not item.configured and bool(LABEL_RE.match(text)) and label_only(text)

    def run(self, item, nxt, reader):
        glue = " " if item.text.rstrip()[-1:] in ":." else ": "
        reader.guess(item.line, f"the label {item.text!r} and line {nxt.number} read as one paragraph")
        _take(item, nxt, item.text.rstrip() + glue + nxt.text, continued=False)


def label_only(text: str) -> bool:
    """``ПРИМЕР:``, ``EXAMPLE OF PLAY`` alone on a line: a label waiting for its text on the next line."""
    return len(text) <= 40 and (text.endswith(":") or text.rstrip(".").isupper() or len(text.split()) <= 3) \
        and not TITLE_PREFIX_RE.match(text)


# ---------------------------------------------------------------- continuations


def _starts_apart(text: str) -> bool:
    """A line that begins something of its own: a bullet, a clause label, a change marker, a label."""
    return bool(BULLET_RE.match(text) or CLAUSE_LABEL_RE.match(text) or PAREN_CLAUSE_RE.match(text)
                or MARKER_ONLY_RE.match(text) or LABEL_RE.match(text))


class Hyphenation(Join):
    """``подраз-`` + ``деление``: a word the line end broke is joined without its hyphen (``кто-`` + ``то`` keeps
    it: the hyphen is the word's own)."""

    name, priority = "a word broken by a hyphen", 80

    def test(self, item, nxt, reader):
        return not ends_sentence(item.text) and nxt.text[0].islower() and bool(re.search(r"[^\W\d_]-$", item.text))

    def run(self, item, nxt, reader):
        own = bool(SUFFIXES_KEPT_RE.match(nxt.text))
        reader.guess(nxt.number, f"line {nxt.number} continues line {item.line}"
                     + ("" if own else " (a word broken by a hyphen joined)"))
        _take(item, nxt, (item.text if own else item.text[:-1]) + nxt.text)


class WrappedLine(Join):
    """A paragraph or heading the paste wrapped mid-sentence: the next line starts in small letters, or (in a
    paragraph) with a number that is not an item's label."""

    name, priority = "a wrapped line", 70

    def test(self, item, nxt, reader):
        text, previous = nxt.text, item.text
        if ends_sentence(previous):
            return False
        if text[0].islower():
            return True
        paragraph = item.head is None or item.head.rest[:1].islower()  # "3.2 the unit may…" is one too
        return paragraph and text[0].isdigit() and not title_like(previous) \
            and not re.match(r"\d+[.)]\s", text)  # "1. …", "2) …" begin items of a list

    def run(self, item, nxt, reader):
        reader.guess(nxt.number, f"line {nxt.number} continues line {item.line}")
        _take(item, nxt, f"{item.text} {nxt.text}")


class CapitalsTitle(Join):
    """A title in capitals split over two lines after a word that cannot end it (``… РЕКИ И`` + ``БРОДЫ``)."""

    name, priority = "a title in capitals split over two lines", 60

    def test(self, item, nxt, reader):
        title = item.head.rest if item.head is not None else item.text
        heading = item.head is not None or title_like(item.text)
        return heading and bool(title.split()) and all_caps(title) and all_caps(nxt.text) and len(nxt.text) <= 60 \
            and title.split()[-1].casefold() in DANGLING_WORDS

    def run(self, item, nxt, reader):
        reader.guess(nxt.number, f"line {nxt.number} continues line {item.line}")
        _take(item, nxt, f"{item.text} {nxt.text}")


def build_joins() -> tuple[list[Join], list[Join]]:
    """The joins of the next line into an item, and the continuations, by priority: a new kind is one class and
    one line here."""
    first = [NumberThenTitle(), LabelAlone()]
    continuations = [Hyphenation(), WrappedLine(), CapitalsTitle()]
    return sorted(first, key=lambda j: -j.priority), sorted(continuations, key=lambda j: -j.priority)


JOINS, CONTINUATIONS = build_joins()


# ---------------------------------------------------------------- the loop


def logical_lines(lines: list[Line], tables: list[Table], scheme: Scheme, result: ImportResult,
                  patterns: tuple[str, ...]) -> list[Item]:
    """Join the lines the paste broke; a table becomes one item; page numbers left alone become junk."""
    reader = Reader(lines, scheme, result, patterns)
    items: list[Item] = []
    n = 0
    while n < len(reader.order):
        k = reader.order[n]
        if lines[k].cell >= 0:
            items.append(Item(lines[k].number, "", [], table=tables[lines[k].cell]))
            n = _past_table(reader, n)
        elif BARE_NUMBER_RE.match(lines[k].text) and not lines[k].keep and not lines[k].configured:
            n = _bare_number(reader, n, items)
        else:
            n = _item(reader, n, items)
    return items


def _past_table(reader: Reader, n: int) -> int:
    cell = reader.lines[reader.order[n]].cell
    while n < len(reader.order) and reader.lines[reader.order[n]].cell == cell:
        n += 1
    return n


def _following(reader: Reader, n: int) -> int | None:
    return reader.order[n + 1] if n + 1 < len(reader.order) else None


def _bare_number(reader: Reader, n: int, items: list[Item]) -> int:
    """A number alone on its line: a chapter's, its title on the next line, or a page number."""
    line = reader.lines[reader.order[n]]
    following = _following(reader, n)
    chapter = line.text.lstrip("0") or "0"
    if reader.free(following) and not reader.heads.get(following) and title_like(reader.lines[following].text):
        nxt = reader.lines[following]
        split = parse_head(f"{chapter}. {nxt.text}", reader.patterns)
        if split is not None and chapter in reader.scheme.chapters and \
                accepts(split, reader.scheme, reader.next_chapter[following]):
            items.append(Item(line.number, f"{chapter}. {nxt.text}", [*line.fixed, *nxt.fixed], head=split))
            reader.guess(line.number, f"the number {line.text} on a line of its own and the title on line "
                                      f"{nxt.number} read as one heading")
            return n + 2
    mark(reader.lines, reader.order[n], junk="page number")
    return n + 1


def _item(reader: Reader, n: int, items: list[Item]) -> int:
    k = reader.order[n]
    line = reader.lines[k]
    item = Item(line.number, line.text, list(line.fixed), head=reader.heads.get(k) if reader.accepted(k) else None,
                configured=line.configured, keep=line.keep, depth=line.depth,
                label=reader.heads.get(k))
    n += 1
    following = reader.order[n] if n < len(reader.order) else None
    if reader.free(following) and not reader.heads.get(following) and not reader.lines[following].depth:
        join = next((j for j in JOINS if j.test(item, reader.lines[following], reader)), None)
        if join is not None:
            join.run(item, reader.lines[following], reader)
            n += 1
    while n < len(reader.order) and _continues(reader, item, reader.order[n]):
        cont = reader.lines[reader.order[n]]
        join = next((j for j in CONTINUATIONS if j.test(item, cont, reader)), None)
        if join is None:
            break
        join.run(item, cont, reader)
        if item.head is not None:
            item.head = reader.head_of(item.text)
        n += 1
    items.append(item)
    return n


def _continues(reader: Reader, item: Item, k: int) -> bool:
    """Whether line ``k`` may continue ``item`` at all (which join, the joins decide)."""
    cont = reader.lines[k]
    if item.configured or item.table is not None or item.depth or cont.depth or not reader.free(k):
        return False
    return bool(cont.text) and not reader.accepted(k) and not BARE_NUMBER_RE.match(cont.text) \
        and not _starts_apart(cont.text)
