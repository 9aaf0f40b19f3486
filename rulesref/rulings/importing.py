"""Rulings imported in bulk from a text file of questions and answers with their clause numbers.

The format (docs/rulings.md)::

    # A line starting with # is a comment.
    Clauses: 9.3.1f, 9.3.2
    Q: May a cavalry unit try to intercept twice in one activation?
    A: No. Under 9.3.1f it tries once per enemy activation.

    A blank line starts a new paragraph of the answer.
    Q/ru: Может ли кавалерийское подразделение перехватить дважды?
    A/ru: Нет. …
    ---
    Language: ru
    Q: …

Records are separated by a line of dashes (or begin again at a ``Clauses:`` or ``Q:`` line after an answer). Keys
are read in either language and any case: ``Clauses``/``Пункты``, ``Language``/``Язык``, ``Q``/``В``/``Question``/
``Вопрос``, ``A``/``О``/``Answer``/``Ответ``; ``Q/en``, ``A/ru`` give the text in that language (the ruling's
translation). Without ``Clauses`` the clauses are the references its question and answer make (``(9.3.1f)``).

Every record is checked first (clauses against the rulebook, lengths, both halves of a text); a file with any
problem imports nothing, each problem named by its line. A question the rulebook already has a ruling for (the
same words) is skipped, so a file can be imported again. The import is one content write of the rulebook
(rulesref/writes.py): one lock, one change of its content version, whatever the number of rulings.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from rulesref.reference.models import Book
from rulesref.reference.refs import find_references, section_part
from rulesref.translation.models import Status
from rulesref.writes import lock_book, retrying

from . import citations as citing
from .models import MAX_ANSWER, MAX_QUESTION, Ruling, RulingRevision, RulingText
from .workflow import NewRuling, _create_locked, one_paragraph

MAX_RULINGS = 500  # rulings one file may hold
MAX_BYTES = 1024 * 1024
KEY_RE = re.compile(r"^(?P<key>clauses|пункты|пункт|language|язык|q|в|question|вопрос|a|о|answer|ответ)"
                    r"(?:\s*/\s*(?P<lang>ru|en))?\s*:\s?(?P<rest>.*)$", re.IGNORECASE)
SEPARATOR_RE = re.compile(r"^-{3,}\s*$")
KEYS = {"clauses": "clauses", "пункты": "clauses", "пункт": "clauses", "language": "language", "язык": "language",
        "q": "q", "в": "q", "question": "q", "вопрос": "q", "a": "a", "о": "a", "answer": "a", "ответ": "a"}


@dataclass
class Record:
    line: int
    language: str
    clauses: str = ""
    clauses_line: int = 0
    texts: dict[str, dict[str, list[str]]] = field(default_factory=dict)  # language -> q/a -> lines
    cited: list[citing.Cited] = field(default_factory=list)

    def text(self, lang: str, part: str) -> str:
        lines = self.texts.get(lang, {}).get(part, [])
        return "\n".join(lines).strip()

    @property
    def question(self) -> str:
        return self.text(self.language, "q")

    @property
    def answered(self) -> bool:
        return any("a" in parts for parts in self.texts.values())


@dataclass
class Problem:
    line: int
    message: str

    def __str__(self) -> str:
        return _("line %(n)s: %(message)s") % {"n": self.line, "message": self.message}


@dataclass
class Plan:
    book: Book
    records: list[Record]
    problems: list[Problem]
    skipped: list[tuple[Record, int]] = field(default_factory=list)  # (record, the ruling that already answers it)
    made: list[Ruling] = field(default_factory=list)

    @property
    def clean(self) -> bool:
        return not self.problems

    @property
    def wanted(self) -> list[Record]:
        skipped = {id(r) for r, _n in self.skipped}
        return [r for r in self.records if id(r) not in skipped]


class _Reader:
    """Reads a file line by line: the records, and what is wrong with its form (a line that belongs nowhere)."""

    def __init__(self, default_language: str):
        self.default_language = default_language
        self.records: list[Record] = []
        self.problems: list[Problem] = []
        self.current: Record | None = None
        self.target: tuple[str, str] | None = None  # (language, "q" or "a") the next plain lines belong to

    def line(self, number: int, line: str) -> None:
        if line.lstrip().startswith("#"):
            return
        if SEPARATOR_RE.match(line):
            self.current, self.target = None, None
            return
        match = KEY_RE.match(line.strip())
        if match is not None:
            self.key(number, KEYS[match["key"].lower()], (match["lang"] or "").lower(), match["rest"].strip())
        elif self.target is not None and self.current is not None:
            self.current.texts[self.target[0]][self.target[1]].append(line.strip())
        elif line.strip():
            self.problems.append(Problem(number, _("this line is not part of a question or an answer: start it with "
                                                   "“Q:”, “A:” or “Clauses:”")))

    def key(self, number: int, key: str, lang: str, rest: str) -> None:
        current = self.current
        if current is None or (key in ("clauses", "q") and not lang and current.answered):
            current = self.current = Record(number, self.default_language)
            self.records.append(current)
        self.target = None
        if key == "clauses":
            current.clauses, current.clauses_line = rest, number
        elif key == "language" and rest.lower() in ("ru", "en"):
            current.language = rest.lower()
        elif key == "language":
            self.problems.append(Problem(number, _("the language must be ru or en")))
        else:
            language = lang or current.language
            current.texts.setdefault(language, {}).setdefault(key, []).append(rest)
            self.target = (language, key)


def read(text: str, default_language: str) -> tuple[list[Record], list[Problem]]:
    """The records of a file, and what is wrong with its form (a line that belongs nowhere)."""
    reader = _Reader(default_language)
    for number, raw in enumerate(text.replace("\r\n", "\n").replace("\r", "\n").split("\n"), start=1):
        reader.line(number, raw.rstrip())
    return reader.records, reader.problems


def _resolve(records: list[Record], book: Book) -> list[Problem]:
    problems = []
    for record in records:
        own = record.language
        question, answer = record.text(own, "q"), record.text(own, "a")
        if not question or not answer:
            problems.append(Problem(record.line, _("a ruling needs a question and an answer in %(lang)s, its "
                                                   "language") % {"lang": own}))
        other = "en" if own == "ru" else "ru"
        if bool(record.text(other, "q")) != bool(record.text(other, "a")):
            problems.append(Problem(record.line, _("give the translation's question and answer, or neither")))
        for lang in (own, other):
            if len(one_paragraph(record.text(lang, "q"))) > MAX_QUESTION or len(record.text(lang, "a")) > MAX_ANSWER:
                problems.append(Problem(record.line, _("the text is too long")))
        written = record.clauses or ", ".join(_referenced(f"{question}\n{answer}", book))
        if not written:
            problems.append(Problem(record.line, _("no clause: add a “Clauses:” line such as “Clauses: 9.3.1f”")))
            continue
        try:
            record.cited = citing.parse(written, book)
        except citing.CitationError as exc:
            problems.append(Problem(record.clauses_line or record.line, str(exc)))
    return problems


def _referenced(text: str, book: Book) -> list[str]:
    found = []
    for ref in find_references(text, book.number_patterns or ()):
        if ref.kind == "section":
            sid, clause = section_part(ref.target)
            found.append(f"{sid}{clause}")
    return list(dict.fromkeys(found))


def plan(book: Book, text: str, default_language: str | None = None) -> Plan:
    """Read and check a file: every problem, and the records already answered (skipped); nothing is written."""
    records, problems = read(text, default_language or book.source_language)
    if len(records) > MAX_RULINGS:
        problems.append(Problem(records[MAX_RULINGS].line, _("a file holds at most %(n)s rulings") % {
            "n": MAX_RULINGS}))
        records = records[:MAX_RULINGS]
    if not records and not problems:
        problems.append(Problem(1, _("the file holds no question")))
    problems += _resolve(records, book)
    result = Plan(book, records, sorted(problems, key=lambda p: p.line))
    known = _known_questions(book, records)
    seen: dict[str, int] = {}
    for record in records:
        key = _question_key(record.text(record.language, "q"))
        if key in known:
            result.skipped.append((record, known[key]))
        elif key in seen:
            result.problems.append(Problem(record.line, _("the same question is asked at line %(n)s") % {
                "n": seen[key]}))
        else:
            seen[key] = record.line
    return result


def _question_key(question: str) -> str:
    return " ".join(question.casefold().split())


def _known_questions(book: Book, records: list[Record]) -> dict[str, int]:
    """The questions of the file that a ruling of the book already asks: key -> its number. Reads only the rulings'
    texts that begin with the first word of one of the file's questions, never every ruling's."""
    wanted = {_question_key(r.text(r.language, "q")) for r in records}
    # The first word as written, and capitalised: SQLite's LIKE folds the case of ASCII letters only.
    firsts = {r.text(r.language, "q").split(maxsplit=1)[0] for r in records if r.text(r.language, "q")}
    starts = sorted({form for word in firsts for form in (word, word.lower(), word.capitalize())})
    known: dict[str, int] = {}
    for start in range(0, len(starts), 200):
        condition = Q()
        for word in starts[start:start + 200]:
            condition |= Q(question__startswith=word)
        for question, number in RulingText.objects.filter(condition, ruling__book=book).values_list(
                "question", "ruling__number"):
            key = _question_key(question)
            if key in wanted:
                known.setdefault(key, number)
    return known


def apply(result: Plan, *, user, status: str = Status.DRAFT) -> Plan:
    """Write the plan's rulings, all or nothing, in one content write of the rulebook (nothing when it has
    problems)."""
    if not result.clean:
        return result

    def write() -> list[Ruling]:
        made = []
        with transaction.atomic():
            book = lock_book(result.book.pk)
            for record in result.wanted:
                other = "en" if record.language == "ru" else "ru"
                new = NewRuling(source_language=record.language, question=record.text(record.language, "q"),
                                answer=record.text(record.language, "a"), cited=record.cited, status=status,
                                other_question=record.text(other, "q"), other_answer=record.text(other, "a"),
                                other_status=status,
                                comment=_("imported from a text file (line %(n)s)") % {"n": record.line},
                                origin=RulingRevision.Origin.IMPORT)
                made.append(_create_locked(book, new, user, bump=False))
            if status == Status.APPROVED and made:
                book.bump_version("ruling")
        return made

    result.made = retrying(write)
    return result
