"""The import configuration (import.toml): corrections of the importer's guesses, kept for re-imports."""
from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from rulesref.text import fold_key

from ..corpus import valid_id


@dataclass
class ImportConfig:
    outline: dict[str, dict[str, str]] = field(default_factory=dict)
    headings: list[dict] = field(default_factory=list)
    files: list[dict] = field(default_factory=list)
    errata: list[dict] = field(default_factory=list)
    text_lines: list[str] = field(default_factory=list)
    junk_lines: list[str] = field(default_factory=list)
    tables: list[dict] = field(default_factory=list)
    hint: str = ""  # an example of a heading's label, or the word that introduces headings (importtext --hint)

    @classmethod
    def load(cls, path: Path | None) -> "ImportConfig":
        """The configuration in ``path`` (none: an empty one); ValueError naming the entry that is wrong."""
        if path is None or not path.exists():
            return cls()
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as exc:
            raise ValueError(f"{path}: invalid TOML: {exc}") from None
        except UnicodeDecodeError:
            raise ValueError(f"{path}: not UTF-8 text") from None
        problem = _config_problem(data)
        if problem:
            raise ValueError(f"{path}: {problem}")
        return cls(outline=data.get("outline", {}), headings=data.get("heading", []),
                   files=data.get("file", []), errata=data.get("erratum", []),
                   text_lines=[m for entry in data.get("text", []) for m in _matches(entry)],
                   junk_lines=[m for entry in data.get("junk", []) for m in _matches(entry)],
                   tables=data.get("table", []), hint=data.get("hint", ""))

    def __post_init__(self) -> None:
        self._headings = {fold_key(m): h for h in reversed(self.headings) for m in _matches(h)}
        self._text = {fold_key(m) for m in self.text_lines}
        self._junk = {fold_key(m) for m in self.junk_lines}
        self._tables = {fold_key(m): t for t in reversed(self.tables) for m in _matches(t)}

    def heading_for(self, text: str) -> dict | None:
        return self._headings.get(fold_key(text)) if self._headings else None

    def file_options(self, filename: str) -> dict:
        stem = filename.split(".", 1)[0]
        for options in self.files:
            if options.get("name", "").split(".", 1)[0] == stem:
                return options
        return {}

    def is_text(self, text: str) -> bool:
        return bool(self._text) and fold_key(text) in self._text

    def is_junk(self, text: str) -> bool:
        return bool(self._junk) and fold_key(text) in self._junk

    def table_at(self, text: str) -> dict | None:
        return self._tables.get(fold_key(text)) if self._tables else None


CONFIG_KEYS = {
    "heading": {"match": "lines", "id": "id", "parent": "id", "title": "title", "page": "page"},
    "text": {"match": "lines"},
    "junk": {"match": "lines"},
    "table": {"match": "lines", "columns": "count"},
    "file": {"name": "string", "page": "page"},
    "erratum": {"wrong": "string", "right": "string", "note": "string", "lang": "lang", "section": "id"},
}
OPEN_TABLES = {"erratum"}  # the translators' errata may carry keys of their own: those are not refused
OUTLINE_KEYS = {"ru": "string", "en": "string", "parent": "id", "page": "page", "create": "flag"}


def _lines(value) -> str | None:
    values = [value] if isinstance(value, str) else value
    ok = isinstance(values, list) and values and all(isinstance(v, str) and v.strip() for v in values)
    return None if ok else "a line or a list of lines"


def _title(value) -> str | None:
    ok = isinstance(value, str) or isinstance(value, dict) and all(
        k in ("ru", "en") and isinstance(v, str) for k, v in value.items())
    return None if ok else 'a title, or a title per language: { ru = "…", en = "…" }'


def _count(value) -> str | None:
    ok = isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 10_000
    return None if ok else "a whole number"


VALUE_CHECKS = {
    "lines": _lines,
    "id": lambda v: None if isinstance(v, str) and valid_id(v) else "a section id (9.3.1, O22.3, a-slug)",
    "title": _title,
    "page": _count,
    "count": _count,
    "flag": lambda v: None if isinstance(v, bool) else "true or false",
    "lang": lambda v: None if v in ("ru", "en") else "ru or en",
    "string": lambda v: None if isinstance(v, str) else "text in quotes",
}
REQUIRED = {"heading": "match", "text": "match", "junk": "match", "table": "match", "file": "name", "erratum": "wrong"}


def _entry_problem(table: str, n: int, entry: dict) -> str | None:
    keys = CONFIG_KEYS[table]
    for key, value in entry.items():
        if key not in keys:
            if table in OPEN_TABLES:
                continue
            return f"[[{table}]] entry {n}: unknown key {key!r} (known: {', '.join(keys)})"
        problem = VALUE_CHECKS[keys[key]](value)
        if problem:
            return f"[[{table}]] entry {n}: {key} must be {problem}"
    if REQUIRED[table] not in entry or table == "erratum" and "right" not in entry:
        return f"[[{table}]] entry {n}: {REQUIRED[table]} is required"
    return None


def _outline_problem(outline) -> str | None:
    if not isinstance(outline, dict):
        return 'outline: write each parent as [outline."9"]'
    for sid, entry in outline.items():
        if not valid_id(sid) or not isinstance(entry, dict):
            return f'[outline.{sid!r}]: a section id with its titles (ru = "…", en = "…")'
        for key, value in entry.items():
            if key not in OUTLINE_KEYS:
                return f"[outline.{sid!r}]: unknown key {key!r} (known: {', '.join(OUTLINE_KEYS)})"
            problem = VALUE_CHECKS[OUTLINE_KEYS[key]](value)
            if problem:
                return f"[outline.{sid!r}]: {key} must be {problem}"
    return None


def _config_problem(data: dict) -> str | None:
    """What is wrong with an import configuration, or None (see docs/corpus-format.md)."""
    for table in CONFIG_KEYS:
        entries = data.get(table, [])
        if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
            return f"{table}: write each entry as [[{table}]]"
        problem = next((p for n, e in enumerate(entries, start=1) if (p := _entry_problem(table, n, e))), None)
        if problem:
            return problem
    problem = _outline_problem(data.get("outline", {}))
    if problem:
        return problem
    if "hint" in data and not (isinstance(data["hint"], str) and data["hint"].strip() and "\n" not in data["hint"]):
        return 'hint must be one line: an example of a heading\'s label ("Article 1", "§ 1") or the word before it'
    unknown = set(data) - set(CONFIG_KEYS) - {"outline", "hint"}
    if unknown:
        return f"unknown table {sorted(unknown)[0]!r} (known: hint, outline, {', '.join(CONFIG_KEYS)})"
    return None


def _matches(entry: dict) -> list[str]:
    match = entry.get("match", [])
    return [match] if isinstance(match, str) else list(match)


