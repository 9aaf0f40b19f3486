"""What the checker knows about each rulebook, read only through the engine's public API.

Everything here is generic over books: the questions and their parameters (``PARAMS``), the scenario schema, the
example scenarios in ``fixtures/scenarios/<book>/``, and the texts in two languages that scenarios carry.
A new rulebook engine with the same shape (QUESTIONS, PARAMS, load_scenario, schema) joins without changes here;
which board its checker edits is the book's ``kind`` (:mod:`rulesref.checker.kinds`).
"""
from __future__ import annotations

import json
import os
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.conf import settings
from django.utils.translation import gettext_lazy as _

from rulesref.engine import BOOKS, book_engine
from rulesref.reference.numbering import EXAMPLE_OF_RE

LANGS = ("en", "ru")
EXAMPLE_OF = EXAMPLE_OF_RE

# Short names of the questions for menus; the engine's question id is the fallback for a question added later.
QUESTION_LABELS = {
    "facing-cost": _("What does this facing change cost?"),
    "orders-change": _("Can this wing change its orders?"),
    "mandatory-rally": _("Must this wing rally?"),
    "reactions": _("Which reactions are open to the inactive units?"),
    "can-intercept": _("Can this cavalry intercept?"),
    "interception-chance": _("What is the chance of interception?"),
    "retreat": _("Where must this unit retreat?"),
    "advance": _("May the winners advance after combat?"),
    "can-charge": _("May this unit declare a charge?"),
    "charge-reactions": _("Which charge reactions may the charged unit declare?"),
    "pursuit": _("Where do the pursuers end up?"),
}

# Labels of question parameters in the ask form (the engine describes each one; these name them briefly).
PARAM_LABELS = {
    "unit": _("Unit"),
    "target": _("Target"),
    "facing": _("New facing"),
    "pivot": _("Pivot hex"),
    "wing": _("Wing"),
    "to": _("Order wanted"),
    "result": _("Combat result"),
    "fought": _("Enemy units fought"),
    "hexes": _("Hexes to retreat"),
    "vacated": _("Units that left their hexes"),
    "winners": _("Winning units"),
    "role": _("The winners were"),
    "charger": _("Charging unit"),
}

CHOICE_LABELS = {
    "charge": _("Charge"),
    "make-ready": _("Make Ready"),
    "receive-charge": _("Receive Charge"),
    "rally": _("Rally"),
    "broken": _("Morale Broken"),
    "shaken": _("Morale Shaken"),
    "eliminated": _("Eliminated"),
    "attacker": _("the attackers"),
    "defender": _("the defenders"),
}


def is_book(book: str) -> bool:
    return book in BOOKS


def engine(book: str):
    return book_engine(book)


def question_ids(book: str) -> tuple[str, ...]:
    return tuple(engine(book).QUESTIONS)


def question_label(question: str) -> str:
    return str(QUESTION_LABELS.get(question, question))


def scenario_schema(book: str) -> dict[str, Any]:
    module = engine(book)
    if hasattr(module, "schema"):
        return module.schema()
    return json.loads(Path(module.SCHEMA_PATH).read_text(encoding="utf-8"))


@dataclass(frozen=True)
class ParamSpec:
    """One question parameter in a shape the API, the OpenAPI document and the ask form share."""

    name: str
    type: str  # unit, units, order, choice, facing, hex, int, wing (mpbs); unit-id (t9a) is read as unit
    required: bool
    choices: tuple[str, ...] = ()
    default: Any = None
    description: dict[str, str] = field(default_factory=dict)  # language -> text (only the languages it has)

    def describe(self, lang: str) -> str:
        return self.description.get(lang) or ""

    @property
    def label(self) -> str:
        return str(PARAM_LABELS.get(self.name, self.name))


def params(book: str, question: str) -> tuple[ParamSpec, ...]:
    """The parameters of a question, from the engine's PARAMS (either book's Param shape)."""
    spec = getattr(engine(book), "PARAMS", {}).get(question, ())
    out = []
    for p in spec:
        descriptions: dict[str, str] = {}
        raw = getattr(p, "description", "")
        if hasattr(raw, "render"):  # a translatable engine Message
            descriptions = {lang: raw.render(lang) for lang in LANGS}
        elif raw:
            descriptions = {"en": str(raw)}
        kind = getattr(p, "type", "string")
        if kind == "unit-id":
            kind = "unit"
        out.append(ParamSpec(
            name=p.name, type=kind, required=bool(getattr(p, "required", False)),
            choices=tuple(getattr(p, "choices", ()) or ()), default=getattr(p, "default", None),
            description=descriptions,
        ))
    return tuple(out)


# --- texts in two languages -----------------------------------------------------------------------------------


def text_in(value: Any, lang: str) -> tuple[str, str]:
    """A scenario text in ``lang`` and the language it is actually in.

    Scenarios carry ``"title": {"en": …, "ru": …}``; a plain string is taken as English (the fixtures' language
    until translated), and a missing language falls back to the other one.
    """
    if isinstance(value, dict):
        for candidate in (lang, "en", "ru", *value.keys()):
            text = value.get(candidate)
            if isinstance(text, str) and text.strip():
                return text, candidate
        return "", lang
    if isinstance(value, str):
        return value, "en"
    return "", lang


# --- example scenarios -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Example:
    book: str
    slug: str
    data: dict[str, Any]
    path: Path

    def title(self, lang: str) -> tuple[str, str]:
        text, in_lang = text_in(self.data.get("title"), lang)
        return (text or self.slug), in_lang

    def description(self, lang: str) -> tuple[str, str]:
        return text_in(self.data.get("description"), lang)

    def has_both_languages(self) -> bool:
        return all(isinstance(self.data.get(k), dict) and all(
            isinstance(self.data[k].get(lang), str) and self.data[k][lang].strip() for lang in LANGS)
            for k in ("title", "description"))

    @property
    def questions(self) -> list[dict[str, Any]]:
        items = self.data.get("questions") or []
        return [q for q in items if isinstance(q, dict) and isinstance(q.get("question"), str)
                and not (q.get("expect") or {}).get("error")]

    @property
    def example_of(self) -> str | None:
        """The section whose worked example this is (``example_of``; else read from ``source``)."""
        value = self.data.get("example_of")
        if isinstance(value, str) and value.strip():
            return value.split(":", 1)[-1].strip()
        source = self.data.get("source")
        m = EXAMPLE_OF.search(source) if isinstance(source, str) else None
        return m.group(1) if m else None


_examples_lock = threading.Lock()
_examples_cache: dict[str, tuple[tuple, dict[str, Example]]] = {}


def scenarios_dir(book: str) -> Path:
    return Path(settings.FIXTURES_DIR) / "scenarios" / book


def _stamp(directory: Path) -> tuple:
    """(name, modification time, size) of each ``*.json`` file of the folder, by name: what says a file changed.
    One directory scan (on every section page, through checker.links: a quarter of the cost of a glob)."""
    try:
        with os.scandir(directory) as found:
            return tuple(sorted((e.name, (s := e.stat()).st_mtime_ns, s.st_size) for e in found
                                if e.name.endswith(".json") and not e.name.startswith(".") and e.is_file()))
    except (FileNotFoundError, NotADirectoryError):
        return ()


def examples(book: str) -> dict[str, Example]:
    """The example scenarios of a book by slug (file name without .json), re-read when a file changes."""
    directory = scenarios_dir(book)
    stamp = _stamp(directory)
    cached = _examples_cache.get(book)
    if cached is not None and cached[0] == stamp:
        return cached[1]
    found: dict[str, Example] = {}
    for path in (directory / name for name, _mtime, _size in stamp):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue  # a broken fixture is the engine tests' business; the gallery shows the rest
        if isinstance(data, dict):
            found[path.stem] = Example(book, path.stem, data, path)
    with _examples_lock:
        _examples_cache[book] = (stamp, found)
    return found


def example(book: str, slug: str) -> Example | None:
    return examples(book).get(slug)
