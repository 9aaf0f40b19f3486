"""``manage.py ruling``: ask the rules engine a question about a scenario file, or check scenario files' answers.

    python manage.py ruling mpbs can-intercept scenario.json --param unit=CAV-1 [--lang ru] [--format text]
    python manage.py ruling mpbs                      # the questions of a book and their parameters
    python manage.py ruling --check fixtures/scenarios/mpbs/*.json   # or a folder: fixtures/scenarios/

Every answer states what it was decided under: the book's revision and the engine's version (``decided_under``).

A scenario file names its book (``"book": "mpbs"``) and may carry questions with expected answers::

    "questions": [{"question": "can-intercept", "params": {"unit": "CAV-1"},
                   "expect": {"verdict": "yes", "findings": {"9.3.1a": "pass"}, "result": {"chance": 0.7}}}]

``--check`` runs each of them and exits non-zero on any mismatch. ``expect.findings`` maps a clause to the status
of its findings taken together (any fail: fail; else any unknown: unknown; else pass); ``expect.result`` must be
contained in the result (dicts by key, lists item by item, numbers to 1e-9). ``"expect": {"error": true}`` expects
the scenario or the parameters to be rejected.

The command is generic over books: it goes through ``rulesref.engine.ask`` / ``questions`` / ``book_engine``.
"""
from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.utils import translation
from django.utils.translation import gettext as _

from rulesref.engine import UnknownQuestionError, ask, book_engine, questions
from rulesref.engine.i18n import msg
from rulesref.engine.ruling import InvalidScenarioError, Ruling
from rulesref.security.text import TooDeep, check_depth

from rulesref.checker.books import QUESTION_LABELS
from rulesref.checker.decided import decided_under, stamped

VERDICT_NAMES = {"yes": msg("yes"), "no": msg("no"), "undetermined": msg("undetermined")}
STATUS_NAMES = {"pass": msg("pass"), "fail": msg("fail"), "unknown": msg("unknown")}
STATUS_ORDER = ("fail", "unknown", "pass")


class Command(BaseCommand):
    requires_system_checks: list[str] = []  # the engine needs neither the database nor the apps
    help = "Answer a rules question about a scenario file, or --check the expected answers in scenario files."

    def add_arguments(self, parser):
        parser.add_argument("args", nargs="*", metavar="book question scenario | files",
                            help="BOOK QUESTION SCENARIO.json, or with --check the scenario files to check")
        parser.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                            help="a question parameter (repeatable)")
        parser.add_argument("--lang", choices=("en", "ru"), default="en", help="language of the messages")
        parser.add_argument("--format", choices=("json", "text"), default="json", dest="output_format")
        parser.add_argument("--check", action="store_true", help="check the expected answers in scenario files")

    def handle(self, *args, **options):
        if options["check"]:
            return self.check_files(args, options["lang"])
        if len(args) == 1:
            return self.describe_book(args[0], options["lang"])
        if len(args) != 3:
            raise CommandError("usage: ruling BOOK QUESTION SCENARIO.json [--param NAME=VALUE …] | ruling --check FILES…",
                               returncode=2)
        book, question, path = args
        data = self._read(path)
        params = self._params(options["param"])
        try:
            ruling = ask(book, question, data, params)
        except InvalidScenarioError as exc:
            self.stderr.write(json.dumps(exc.to_dict(options["lang"]), ensure_ascii=False, indent=2))
            raise CommandError(f"{path}: invalid scenario or parameters", returncode=2) from None
        except UnknownQuestionError as exc:
            raise CommandError(str(exc), returncode=2) from None
        if options["output_format"] == "json":
            answer = ruling.to_dict(options["lang"], details=True)  # as the API gives it: with fields and sources
            self.stdout.write(json.dumps(stamped(book, answer), ensure_ascii=False, indent=2))
        else:
            self.stdout.write(render_text(ruling, options["lang"], decided_under(book)))

    # --- one question ------------------------------------------------------------------------------------------

    @staticmethod
    def _read(path: str) -> Any:
        try:
            data = Path(path).read_text(encoding="utf-8")
            check_depth(data)
            return json.loads(data)
        except TooDeep as exc:
            raise CommandError(f"{path}: {exc.message}", returncode=2) from None
        except FileNotFoundError:
            raise CommandError(f"{path}: no such file", returncode=2) from None
        except IsADirectoryError:
            raise CommandError(f"{path}: a folder, not a scenario file", returncode=2) from None
        except json.JSONDecodeError as exc:
            raise CommandError(f"{path}: not JSON: {exc}", returncode=2) from None
        except (OSError, UnicodeDecodeError) as exc:
            raise CommandError(f"{path}: cannot be read: {exc}", returncode=2) from None

    @staticmethod
    def _params(pairs: list[str]) -> dict[str, str]:
        params = {}
        for pair in pairs:
            name, sep, value = pair.partition("=")
            if not sep or not name.strip():
                raise CommandError(f"--param {pair!r}: expected NAME=VALUE", returncode=2)
            params[name.strip()] = value.strip()
        return params

    def describe_book(self, book: str, lang: str = "en") -> None:
        try:
            engine = book_engine(book)
        except UnknownQuestionError as exc:
            raise CommandError(str(exc), returncode=2) from None
        for name in questions(book):
            self.stdout.write(name)
            for p in engine.PARAMS.get(name, ()):
                data = p.to_dict(lang)
                flag = " (required)" if data.get("required") else ""
                self.stdout.write(f"    {data['name']}: {data['type']}{flag} — {data['description']}")

    # --- checking expected answers -----------------------------------------------------------------------------

    def check_files(self, files: tuple[str, ...], lang: str) -> None:
        if not files:
            raise CommandError("--check needs at least one scenario file", returncode=2)
        paths = expand(files)
        if not paths:
            raise CommandError(f"--check: no scenario files in {', '.join(files)}", returncode=2)
        failures = checked = 0
        for path in paths:
            data = self._read(path)
            book = data.get("book") if isinstance(data, dict) else None
            items = data.get("questions", []) if isinstance(data, dict) else []
            if not book:
                self.stdout.write(f"FAIL {path}: the file names no book")
                failures += 1
                continue
            if not items:
                self.stdout.write(f"FAIL {path}: the file carries no questions to check")
                failures += 1
                continue
            for i, item in enumerate(items):
                checked += 1
                label = f"{path} questions[{i}] {item.get('question')}"
                problems = check_one(book, data, item, item.get("lang", lang))
                if problems:
                    failures += 1
                    self.stdout.write(f"FAIL {label}")
                    for problem in problems:
                        self.stdout.write(f"    {problem}")
                else:
                    self.stdout.write(f"ok   {label}")
        self.stdout.write(f"{checked - failures} of {checked} expectations met")
        if failures:
            raise CommandError(f"{failures} expectation(s) not met", returncode=1)


def check_one(book: str, data: dict[str, Any], item: dict[str, Any], lang: str = "en") -> list[str]:
    """The differences between one question's expected and actual answer (empty when it matches)."""
    expect = item.get("expect", {})
    try:
        ruling = ask(book, item.get("question", ""), data, item.get("params", {}))
    except InvalidScenarioError as exc:
        if expect.get("error"):
            return []
        return [f"rejected: {p}: {m}" for p, m in exc.problems]
    except UnknownQuestionError as exc:
        return [str(exc)]
    except Exception as exc:  # a crash is a failed expectation, reported with the file, not a traceback
        return [f"the engine failed: {type(exc).__name__}: {exc}"]
    if expect.get("error"):
        return ["expected the scenario or parameters to be rejected, got a ruling"]
    answer = ruling.to_dict(lang)
    problems = differences(book, expect, answer)
    if problems:
        problems.append("findings: " + "; ".join(f"{f['clause']} {f['status']}: {f['message']}" for f in answer["findings"]))
    return problems


def differences(book: str, expect: dict[str, Any], answer: dict[str, Any]) -> list[str]:
    """Where an answer differs from what was expected of it: the verdict, a finding's status, the result."""
    problems = []
    if "verdict" in expect and expect["verdict"] != answer["verdict"]:
        problems.append(f"verdict: expected {expect['verdict']}, got {answer['verdict']}")
    statuses = clause_statuses(answer["findings"])
    for clause, status in expect.get("findings", {}).items():
        key = clause if ":" in clause else f"{book}:{clause}"
        if statuses.get(key) != status:
            problems.append(f"finding {key}: expected {status}, got {statuses.get(key, 'no finding')}")
    if "result" in expect:
        problems.extend(f"result{where}: {what}" for where, what in contained(expect["result"], answer["result"]))
    return problems


def clause_statuses(findings: list[dict[str, Any]]) -> dict[str, str]:
    result: dict[str, str] = {}
    for f in findings:
        before = result.get(f["clause"])
        if before is None or STATUS_ORDER.index(f["status"]) < STATUS_ORDER.index(before):
            result[f["clause"]] = f["status"]
    return result


def expand(paths: tuple[str, ...]) -> list[str]:
    """The files to check: each file as given, each folder as the JSON files under it, sorted."""
    out: list[str] = []
    for path in paths:
        folder = Path(path)
        out.extend(sorted(str(f) for f in folder.rglob("*.json")) if folder.is_dir() else [path])
    return out


def contained(expected: Any, actual: Any, where: str = "") -> list[tuple[str, str]]:
    """Where ``expected`` is not contained in ``actual``: dict keys recursively, lists item by item."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [(where, f"expected an object, got {actual!r}")]
        problems = []
        for key, value in expected.items():
            if key not in actual:
                problems.append((f"{where}.{key}", "missing"))
            else:
                problems.extend(contained(value, actual[key], f"{where}.{key}"))
        return problems
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return [(where, f"expected {json.dumps(expected, ensure_ascii=False)}, got {json.dumps(actual, ensure_ascii=False)}")]
        return [p for i, (e, a) in enumerate(zip(expected, actual)) for p in contained(e, a, f"{where}[{i}]")]
    if isinstance(expected, (int, float)) and isinstance(actual, (int, float)) and not isinstance(expected, bool):
        return [] if math.isclose(expected, actual, abs_tol=1e-9) else [(where, f"expected {expected}, got {actual}")]
    return [] if expected == actual else [(where, f"expected {expected!r}, got {actual!r}")]


def question_title(question: str, lang: str) -> str:
    """The question as the reader's language names it (the checker's own words for it), with its id:
    "Может ли эта кавалерия перехватить? (can-intercept)"; the id alone for a question without such words."""
    label = QUESTION_LABELS.get(question)
    if label is None:
        return question
    with translation.override(lang):
        return f"{label} ({question})"


def render_text(ruling: Ruling, lang: str, under: dict[str, Any] | None = None) -> str:
    answer = ruling.to_dict(lang, details=True)
    lines = [f"{question_title(answer['question'], lang)}: {VERDICT_NAMES[answer['verdict']].render(lang)}"]
    for f in answer["findings"]:
        lines.append(f"  [{STATUS_NAMES[f['status']].render(lang)}] {f['clause']}: {f['message']}")
        if f.get("field"):
            lines.append(f"      → {f['field']}")
    if answer["result"]:
        lines.append(json.dumps(answer["result"], ensure_ascii=False, indent=2))
    if under is not None:
        lines.append(decided_line(under, lang))
    return "\n".join(lines)


def decided_line(under: dict[str, Any], lang: str) -> str:
    """"Decided under revision 3 of mpbs, engine 1.0+…" in ``lang``."""
    with translation.override(lang):
        if under["book_revision"] is None:
            return _("Decided by engine %(engine)s; the text of %(book)s is not loaded, so its revision is "
                     "unknown.") % {"engine": under["engine_version"], "book": under["book"]}
        return _("Decided under revision %(revision)s of %(book)s, engine %(engine)s.") % {
            "revision": under["book_revision"], "book": under["book"], "engine": under["engine_version"]}
