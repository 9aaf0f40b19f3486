"""One way to ask the engine from the web, shared by the JSON API and the ask panel.

The engine raises :class:`InvalidScenarioError` for input it cannot read and :class:`UnknownQuestionError` for a
question it does not know; a question still being built raises NotImplementedError. Anything else is an engine
bug: it is logged with the scenario's digest and reported as such, never passed on as a traceback.
"""
from __future__ import annotations

import hashlib
import json
import logging
import time
from dataclasses import dataclass, field
from typing import Any

from rulesref.engine import InvalidScenarioError, UnknownQuestionError, ask

log = logging.getLogger(__name__)


@dataclass
class Outcome:
    """``kind``: ruling | invalid | unknown | unavailable | failed."""

    kind: str
    ruling: Any = None
    problems: list[tuple[str, str]] = field(default_factory=list)
    message: str = ""
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return self.kind == "ruling"


def digest(data: Any) -> str:
    text = json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def run(book: str, question: str, scenario: Any, params: dict[str, Any] | None, lang: str = "en") -> Outcome:
    """The engine's answer, or what kept it from answering (the problems in ``lang``)."""
    start = time.perf_counter()
    try:
        ruling = ask(book, question, scenario, params or {})
    except InvalidScenarioError as exc:
        return Outcome("invalid", problems=exc.in_language(lang), seconds=time.perf_counter() - start)
    except UnknownQuestionError as exc:
        return Outcome("unknown", message=str(exc))
    except NotImplementedError as exc:
        return Outcome("unavailable", message=str(exc) or f"{question} is not implemented yet")
    except RecursionError:
        return Outcome("invalid", problems=[("", "the input is nested too deeply")])
    except Exception as exc:  # an engine bug: log it, answer with a clear error instead of a traceback
        try:
            key = digest(scenario)[:12]
        except (TypeError, ValueError):
            key = "?"
        log.exception("engine failed on %s %s (scenario %s, params %r)", book, question, key, params)
        return Outcome("failed", message=f"the {book} engine failed on this input ({type(exc).__name__}); "
                                         f"this is a bug in rulesref, logged as scenario {key}")
    return Outcome("ruling", ruling=ruling, seconds=time.perf_counter() - start)
