"""The outline builder: logical lines into sections, every decision reported."""
from __future__ import annotations

from dataclasses import replace

from rulesref.text import slugify

from ..corpus import RESERVED_IDS, SectionDoc, is_numbered, render_table
from ..numbering import CORPUS_CLAUSE_RE, CYRILLIC_CLAUSE_RE, PAREN_CLAUSE_RE, clause_letter, counts_past_nine, follows
from .config import ImportConfig
from .labels import Head, parse_head
from .lexicon import BULLET_RE, CAPTION_RE, MARKER_ONLY_RE, all_caps, ends_sentence, sentence_case, split_title, title_like
from .lines import Item
from .report import Correction, Dropped, Glued, ImportResult, Note, Rejected
from .scheme import Scheme


def _leads_to(number: str, after: str | None) -> int:
    """How well the next heading continues a number: 2 a successor or first child (or no heading follows), 1 a skip
    forward, 0 not at all."""
    relation = follows(number, after) if after is not None else "next"
    return 2 if relation in ("next", "child") else 1 if relation == "skip" else 0


class Builder:
    """Turns logical lines into sections: one pass in reading order, every decision reported."""

    def __init__(self, result: ImportResult, config: ImportConfig, lang: str, filename: str, scheme: Scheme,
                 source: list[SectionDoc] | None, existing: dict[str, SectionDoc]):
        self.result, self.config, self.lang, self.scheme = result, config, lang, scheme
        self.page = config.file_options(filename).get("page")
        self.source, self.existing = source, existing
        self.current: SectionDoc | None = None
        self.unnumbered_parent: str | None = None  # where an unnumbered heading goes: under the last numbered one
        self.blocks: dict[str, list[list[str]]] = {}
        self.seen: dict[str, int] = {}  # id -> line of its heading
        self.clauses: dict[tuple[str, str], int] = {}
        self.chapter: str | None = None
        self.unnumbered_rank: dict[str | None, int] = {}
        self.anchored = 0  # headings with a number or named by the configuration
        self.last_number: str | None = None  # the last numbered heading: the next must continue its numbering
        self.outer: str | None = None  # the last heading introduced by a word (Раздел 2): plain numbers' parent
        self.decimals = True  # cases may be numbered as decimals (5.11 -> 5.2) until the text counts 3.9 -> 3.10
        self.upcoming: list[str | None] = []  # for each item, the number of the next numbered heading after it
        self.letters: tuple[str, str] | None = None  # (parent, letter) of the last section lettered under a number
        self.headings_only = False  # a text without numbers: its headings are its Markdown #s or lines in capitals
        self.depths: list[str] = []  # the open headings of a text without numbers, by Markdown depth
        self.titles: set[str] = set()  # every line of the text, as a heading's title would read it
        order = list(self.existing)
        self.successor = dict(zip(order, order[1:]))  # the book's sections as they stand, each to the next

    # -- reporting

    def guess(self, line: int, message: str) -> None:
        self.result.guesses.append(Note(line, message))

    def error(self, line: int, message: str) -> None:
        self.result.errors.append(Note(line, message))

    def record(self, section: SectionDoc, fixed: list[dict]) -> None:
        for erratum in fixed:
            self.result.corrections.append(Correction(section.id, self.lang, erratum["wrong"], erratum["right"],
                                                      erratum.get("note", "")))

    # -- building

    def build(self, items: list[Item]) -> None:
        candidates = [self.unnumbered_candidate(item) for item in items]
        upcoming = None
        for item in reversed(items):
            self.upcoming.insert(0, upcoming)
            if item.head is not None and not item.head.letter:
                upcoming = item.head.number
        self.headings_only = not any(item.head is not None or item.configured is not None for item in items)
        texts = [MARKER_ONLY_RE.sub("", item.text) for item in items if item.table is None]
        self.titles = set(texts) | {sentence_case(t) for t in texts}  # what a heading of this text may be titled
        for i, item in enumerate(items):
            if item.table is not None:
                self.add_table(item)
                continue
            text, marker = item.text, False
            m = MARKER_ONLY_RE.match(text)
            if m:
                text, marker = text[m.end():], True
            self.place(items, candidates, i, text, marker)
        self.finish(items)

    def place(self, items: list[Item], candidates: list[bool], i: int, text: str, marker: bool) -> None:
        item = items[i]
        if item.configured is not None:
            self.configured_heading(item, text, marker)
        elif item.head is not None and self.heading(item, item.head, text, marker, i):
            pass
        elif item.label is not None and self.lettered_child(item, item.label, marker):
            pass
        elif self.headings_only and self.marked_heading(items, candidates, i):
            self.top_heading(item, text, marker)
        elif item.depth and candidates[i] and self.current is not None:
            self.unnumbered_heading(item, text, marker)
        elif candidates[i] and self.current is not None and self.stands_alone(items, candidates, i):
            self.unnumbered_heading(item, text, marker)
        else:
            self.text(item, text, marker)

    # -- the numbering a heading must continue

    def continues(self, item: Item, head: Head, i: int) -> bool:
        """Whether a numbered heading continues the numbering read so far: a successor at some level or a first
        child (3.1 -> 3.2, 3.1 -> 3.1.1, II -> III), a skip forward (reported), or the first of a new sequence that
        the next heading continues (an appendix O22 then O22.1). Otherwise the line merely begins with a number (a
        quantity, a year, a wrapped line) and is rejected, with the reason."""
        if self.last_number is None or head.number in self.seen:
            return True  # the first number, or one repeated (an error start() reports)
        relation = follows(self.last_number, head.number, self.decimals)
        self.decimals &= not (relation == "next" and counts_past_nine(self.last_number, head.number))
        if relation == "skip":
            self.guess(item.line, f"{head.number} follows {self.last_number}: the numbers between are not in the text")
        if relation is not None:
            return True
        after = self.upcoming[i]
        if after is not None and follows(head.number, after) in ("next", "child"):
            self.guess(item.line, f"{head.number} does not continue {self.last_number}: a new sequence, continued by "
                                  f"{after}")
            return True
        self.result.rejected.append(Rejected(item.line, head.printed or head.number,
                                             f"does not continue {self.last_number}"
                                             + (f" and {after} does not continue it" if after else "")
                                             + ": kept as text"))
        return False

    def unglued(self, item: Item, head: Head, i: int) -> Head:
        """A label with a page number glued before it by a PDF extraction (``176.2 Resolving Combat`` where 17 is
        the page): when the label continues nothing but the rest of it continues the numbering (6.1 -> 6.2, and the
        next heading goes on from it), that rest is the label; the page number is dropped, and reported."""
        if self.last_number is None or head.kind != "dotted" or head.number in self.seen or \
                follows(self.last_number, head.number, self.decimals) in ("next", "child"):
            return head
        first, _, parts = head.number.partition(".")
        after = self.upcoming[i]
        for cut in range(1, len(first) if first.isdigit() else 0):
            number = f"{first[cut:]}.{parts}"
            if first[cut] != "0" and follows(self.last_number, number) in ("next", "child") and \
                    _leads_to(number, after) >= max(1, _leads_to(head.number, after)):
                page = first[:cut]
                self.result.glued.append(Glued(item.line, head.printed or head.number, number, page))
                self.result.dropped.append(Dropped(item.line, "page number glued to a label", page))
                self.guess(item.line, f"{head.printed or head.number} read as {number}: page number {page} glued to "
                                      "it by the PDF extraction")
                return replace(head, number=number, printed=head.printed[len(page):] if head.printed else "")
        return head

    def lettered_child(self, item: Item, label: Head, marker: bool) -> bool:
        """``A. Rank of cards`` under a numbered heading (LAW 1): section 1.A, and B., C. after it."""
        if label.kind != "letter" or self.current is None or not is_numbered(self.current.id) or not label.rest:
            return False
        parent, expected = self.next_letter()
        title, body = split_title(label.rest)
        if label.number != expected or not title or not parent[-1:].isdigit():
            return False
        section = SectionDoc(id=f"{parent}.{expected}", title=title, level=0, line=item.line, parent=parent)
        if not self.start(section, item.fixed, marker or label.marker):
            return True
        self.letters = (parent, expected)
        self.anchored += 1
        if body:
            self.add_block(body)
        return True

    def next_letter(self) -> tuple[str, str]:
        """The numbered section a lettered heading would go under, and the letter it would have to carry."""
        if self.letters and self.current.id.startswith(self.letters[0] + "."):
            return self.letters[0], chr(ord(self.letters[1]) + 1)
        return self.current.id, "A"

    # -- a text without numbers

    def marked_heading(self, items: list[Item], candidates: list[bool], i: int) -> bool:
        """In a text without numbers: a Markdown heading, or a line in capitals that stands alone."""
        item = items[i]
        if item.depth:
            return True
        return candidates[i] and all_caps(item.text) and i + 1 < len(items) and not candidates[i + 1]

    def top_heading(self, item: Item, text: str, marker: bool) -> None:
        depth = item.depth or 1
        del self.depths[depth - 1:]
        parent = self.depths[-1] if self.depths else None
        section_id = self.source_counterpart(parent, item) if self.source is not None else \
            self.slug_for(item, text, parent)
        if section_id is None:
            return
        if self.start(SectionDoc(id=section_id, title=sentence_case(text), level=0, line=item.line, parent=parent),
                      item.fixed, marker):
            self.anchored += 1
            self.depths += [section_id] * (depth - len(self.depths))

    def unnumbered_candidate(self, item: Item) -> bool:
        if item.table is not None or item.keep or item.head is not None or item.configured is not None:
            return False
        text = MARKER_ONLY_RE.sub("", item.text)
        return len(text) <= 70 and title_like(text) and not CAPTION_RE.search(text)

    def stands_alone(self, items: list[Item], candidates: list[bool], i: int) -> bool:
        """An unnumbered heading is a short line followed by text (or by the numbered sections it is the title of),
        not one of a run of short lines (a list without bullets, cells the importer could not read as a table)."""
        if i + 1 >= len(items):
            return False  # a short line at the very end is text (and reported if it ends mid-sentence)
        if candidates[i + 1] or (i > 0 and candidates[i - 1]):
            self.guess(items[i].line, f"{items[i].text!r} kept as text, not as a heading: it is one of a run of "
                                      "short lines, and a heading is followed by its text")
            return False
        return True

    def start(self, section: SectionDoc, fixed: list[dict], marker: bool) -> bool:
        if section.id in self.seen:
            self.error(section.line, f"number {section.id} repeated: its heading is on line {self.seen[section.id]} "
                                     "too")
            return False
        self.seen[section.id] = section.line
        if self.page is not None and "page" not in section.attrs:
            section.attrs["page"] = str(self.page)
        if marker:
            section.flags.add("changed")
        self.result.sections.append(section)
        self.blocks[section.id] = []
        self.current = section
        self.record(section, fixed)
        return True

    def configured_heading(self, item: Item, text: str, marker: bool) -> None:
        configured = item.configured
        head = parse_head(text)
        section_id = configured.get("id") or (head.number if head else None)
        if not section_id:
            self.error(item.line, f"[[heading]] for {text!r} in the import configuration has no id (and the line "
                                  "starts with no number)")
            return
        title, body = (split_title(head.rest) if head and not configured.get("id") else (text, ""))
        if head and not configured.get("id"):
            title = sentence_case(title)
        named = configured.get("title", {})
        named = named.get(self.lang) if isinstance(named, dict) else named  # a title per language, or one for all
        section = SectionDoc(id=section_id, title=named or title, level=0, line=item.line,
                             parent=configured.get("parent"))
        if configured.get("page") is not None:
            section.attrs["page"] = str(configured["page"])
        if self.start(section, item.fixed, marker):
            self.anchored += 1
            self.unnumbered_parent = section.id if is_numbered(section.id) else section.parent
            if is_numbered(section.id):
                self.last_number = section.id
            if body:
                self.add_block(body)

    def heading(self, item: Item, head: Head, text: str, marker: bool, i: int) -> bool:
        """A numbered line: a chapter, a section or a lettered clause. False if it turns out to be text."""
        marker = marker or head.marker
        if head.letter:
            return self.clause(item, head)
        if head.kind == "bare" and self.scheme.nested and self.outer is not None:
            head = self.item_under_outer(item, head)
        if head.kind == "bare" and self.breaks_chapter_order(head):
            self.guess(item.line, f"{text[:60]!r} read as text (an item of a numbered list), not as chapter "
                                  f"{head.number}: chapter {self.chapter} is already open")
            return False
        head = self.unglued(item, head, i)
        if not self.continues(item, head, i):
            return False
        if head.zero:
            self.guess(item.line, f"{head.printed} read as chapter {head.number}")
        self.chapter = head.chapter
        title, body = ("", head.rest) if head.rest[:1].islower() else split_title(head.rest)  # 3.2 the unit may…
        section = SectionDoc(id=head.number, title=sentence_case(title), level=0, line=item.line)
        if self.start(section, item.fixed, marker):
            self.anchored += 1
            self.unnumbered_parent = self.last_number = section.id
            self.letters = None
            self.outer = section.id if head.kind == "chapter" else self.outer
            if body:
                self.add_block(body)
        return True

    def item_under_outer(self, item: Item, head: Head) -> Head:
        """``1.`` under ``Раздел 2`` in a text numbered so (the scheme's ``nested``): item 2.1; the numbering
        introduced by a word is the outer level, so the plain numbers of two sections do not collide."""
        number = f"{self.outer}.{head.number}"
        self.guess(item.line, f"item {head.printed or head.number} under {self.outer} read as {number}")
        return replace(head, number=number, kind="dotted")

    def breaks_chapter_order(self, head: Head) -> bool:
        if self.chapter is None or not self.chapter.isdigit():
            return False
        return int(head.number) <= int(self.chapter)

    def clause(self, item: Item, head: Head) -> bool:
        base, letter = head.number, head.letter
        if (base, letter) in self.clauses:
            self.error(item.line, f"number {base}{letter} repeated: it is on line {self.clauses[(base, letter)]} too")
            return True
        self.clauses[(base, letter)] = item.line
        if base not in self.blocks:
            self.guess(item.line, f"clause {base}{letter} has no heading {base} before it: section {base} made for "
                                  "it, without a title")
            if not self.start(SectionDoc(id=base, title="", level=0, line=item.line), [], head.marker):
                return True
            self.anchored += 1
            self.chapter = head.chapter
            self.unnumbered_parent = base
        elif self.current is None or self.current.id != base:
            self.guess(item.line, f"clause {base}{letter} comes after section {self.current.id}: placed in {base}")
        target = next(s for s in self.result.sections if s.id == base)
        self.record(target, item.fixed)
        self.blocks[base].append([f"{letter}) {head.rest}"])
        return True

    def unnumbered_heading(self, item: Item, text: str, marker: bool) -> None:
        parent = self.unnumbered_parent
        section_id = self.source_counterpart(parent, item) if self.source is not None else \
            self.slug_for(item, text, parent)
        if section_id is None:
            return
        section = SectionDoc(id=section_id, title=text, level=0, line=item.line, parent=parent)
        self.start(section, item.fixed, marker)

    def slug_for(self, item: Item, text: str, parent: str | None) -> str:
        """A readable id for an unnumbered heading: its slug, made unique by its parent's id where it must be
        (a re-import of the same heading under the same parent keeps its id)."""
        base = slugify(text)
        kept = self.renamed(item, text, parent, base)
        if kept is not None:
            return kept
        candidate, n = base, 2
        while candidate in self.seen or candidate in RESERVED_IDS or (candidate in self.existing and (
                self.existing[candidate].parent != parent or self.existing[candidate].title != text)):
            candidate = f"{base}-{slugify(parent)}" if parent and n == 2 else f"{base}-{n}"
            n += 1
        where = f"under {parent}" if parent else "as a new chapter"
        self.guess(item.line, f"unnumbered heading {text!r}: id {candidate!r} {where} (name its id, parent and "
                              "title in the import configuration's [[heading]] if that is wrong)")
        return candidate

    def renamed(self, item: Item, text: str, parent: str | None, base: str) -> str | None:
        """A re-import where only an unnumbered heading's title changed: the heading keeps the id it had (and with
        it, once loaded, its database row: its translations, history and rulings) rather than take a new slug. It
        is the heading the book has in the same place — right after the section this text gave last, under the
        same parent — whose title the text no longer has, while the new title is new to the book. (The first
        heading of a text has no section before it to place it by: it is not looked for.)"""
        previous = self.result.sections[-1].id if self.result.sections else None
        following = self.successor.get(previous) if previous is not None else None
        if base in self.existing or following is None:
            return None
        old = self.existing[following]
        if is_numbered(old.id) or old.parent != parent or old.absent or old.id in self.seen or old.title in self.titles:
            return None
        self.guess(item.line, f"unnumbered heading {text!r} stands where {old.title!r} stood, after {previous}: "
                              f"renamed, it keeps the id {old.id!r}")
        return old.id

    def source_counterpart(self, parent: str | None, item: Item) -> str | None:
        """In a translation: the id of the source's unnumbered heading in the same place (same parent, same rank)."""
        rank = self.unnumbered_rank.get(parent, 0)
        self.unnumbered_rank[parent] = rank + 1
        siblings = [s for s in self.source if s.parent == parent and not is_numbered(s.id) and not s.absent]
        if rank < len(siblings):
            self.guess(item.line, f"unnumbered heading {item.text!r} takes the id {siblings[rank].id!r} of the "
                                  f"source's heading {siblings[rank].title!r} in the same place")
            return siblings[rank].id
        self.error(item.line, f"unnumbered heading {item.text!r} has no counterpart in the source text under "
                              f"{parent or 'the top level'}; name its id in the import configuration's [[heading]]")
        return None

    def text(self, item: Item, text: str, marker: bool) -> None:
        if self.current is None:
            self.result.unplaced.append(Dropped(item.line, "text before the first heading; to keep it, name it as a "
                                                           "heading in the import configuration", item.text))
            return
        self.record(self.current, item.fixed)
        if marker:
            # A change marker before the first paragraph flags the section (6.1 prints it there).
            self.current.flags.add("changed")
        m = PAREN_CLAUSE_RE.match(text)
        if m:
            text = f"{m.group('letter')}) {text[m.end():]}"
        text = self.cyrillic_clause(item, text)
        if BULLET_RE.match(text):
            entry = "- " + BULLET_RE.sub("", text, count=1)
            blocks = self.blocks[self.current.id]
            if blocks and blocks[-1][0].startswith("- "):
                blocks[-1].append(entry)
            else:
                blocks.append([entry])
        else:
            self.add_block(text)

    def cyrillic_clause(self, item: Item, text: str) -> str:
        """«а)», «б)», «в)» under a numbered section: its lettered clauses a), b), c), as a clause numbered 3.1a is
        (the Latin letter of the same place, the clause's address: 3.1a), when the letters run on from а or from
        the section's last clause; otherwise the line stays as printed."""
        m = CYRILLIC_CLAUSE_RE.match(text)
        if not m or not is_numbered(self.current.id):
            return text
        letter = clause_letter(m.group("letter"))
        if letter is None or letter != self.next_clause():
            return text
        self.guess(item.line, f"«{m.group('letter')})» in {self.current.id} kept as its lettered clause {letter}) "
                              f"({self.current.id}{letter})")
        return f"{letter}) {text[m.end():]}"

    def next_clause(self) -> str:
        """The letter the current section's next lettered clause must carry: a, or the one after its last."""
        last = next((m.group(1) for block in reversed(self.blocks[self.current.id])
                     if (m := CORPUS_CLAUSE_RE.match(block[0]))), None)
        return chr(ord(last) + 1) if last else "a"

    def add_block(self, text: str) -> None:
        self.blocks[self.current.id].append([text])

    def add_table(self, item: Item) -> None:
        if self.current is None:
            self.result.unplaced.append(Dropped(item.line, "a table before the first heading",
                                                " | ".join(item.table.header)))
            return
        self.blocks[self.current.id].append([render_table(item.table.header, item.table.rows)])

    def finish(self, items: list[Item]) -> None:
        for section in self.result.sections:
            section.body = "\n\n".join("\n".join(b) for b in self.blocks[section.id])
        last = items[-1] if items else None
        if last is not None and last.table is None:
            if last.head is not None or last.configured is not None:
                if self.result.sections and not self.result.sections[-1].body:
                    self.result.warnings.append(f"line {last.line}: the text ends with a heading and no text after "
                                                "it; was the paste cut short?")
            elif not ends_sentence(last.text):
                self.result.warnings.append(f"line {last.last or last.line}: the text ends mid-sentence "
                                            f"({last.text[-40:]!r}); was the paste cut short?")
        if not self.anchored and not self.result.errors:
            self.error(0, "no line starts with a rule number (9.2.1, 3.1a, O22.2, XIII.7.C, Article 5, § 4) that "
                          "continues a numbering, no line is a heading (Markdown #, a title in capitals followed by "
                          "text) and the import configuration names no heading: nothing to import (give an example "
                          "of a heading with --hint, or name the headings in [[heading]] entries)")


