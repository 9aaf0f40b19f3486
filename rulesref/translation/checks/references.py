"""Section references: the set of references (``(6.2.1)``, ``11. 4. 5``, ``XIII.7.C``, ``на странице 58``) must be
the same in the source and the translation."""
from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

from typing import Iterable

from rulesref.reference.refs import find_references

from .base import Check, CheckContext, Problem, quoted


def reference_targets(text: str, patterns: Iterable[str] = ()) -> set[str]:
    """The sections (and pages) a text refers to, in the seeds' forms and the book's own (``patterns``)."""
    return {f"p. {r.target}" if r.kind == "page" else r.target for r in find_references(text, patterns)}


class ReferencesCheck(Check):
    check_id = "references"
    name = _("Section references")
    description = _("The source and the translation must refer to the same sections.")

    def check(self, source: str, target: str, context: CheckContext) -> list[Problem]:
        src, tgt = reference_targets(source, context.patterns), reference_targets(target, context.patterns)
        problems = []
        if src - tgt:
            problems.append(self.problem(context, gettext_noop("Reference %(refs)s in the source, not in the translation"),
                                         refs=quoted(sorted(src - tgt))))
        if tgt - src:
            problems.append(self.problem(context, gettext_noop("Reference %(refs)s in the translation, not in the source"),
                                         refs=quoted(sorted(tgt - src))))
        return problems
