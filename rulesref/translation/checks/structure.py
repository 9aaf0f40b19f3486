"""Structure: the translation's paragraphs align one to one with the source's, lists stay lists with as many items,
lettered clauses keep their letter, and nothing in a text would break the corpus file it is written to (a line
starting with ``#`` reads as a heading; braces or a line break in a title break the heading line).

``markup_problems`` is also what the editor form and the PO/XLIFF import call "broken placeholders".
"""
from __future__ import annotations

import re

from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

from rulesref.reference.corpus import clause_label

from .base import TITLE, WARNING, Check, CheckContext, Problem, TextUnits

HEADING_LINE_RE = re.compile(r"^#", re.M)


def is_list(block: str) -> bool:
    return block.startswith("- ")


def list_items(block: str) -> int:
    return sum(1 for line in block.split("\n") if line.startswith("- "))


def markup_problems(source: str, target: str, is_title: bool) -> list[tuple[str, dict]]:
    """What in ``target`` breaks the structure ``source`` has, as (message template, params) pairs."""
    out: list[tuple[str, dict]] = []
    if is_title:
        if "\n" in target:
            out.append((gettext_noop("A title is one line"), {}))
        if "{" in target or "}" in target:
            out.append((gettext_noop("A title may not contain braces { }: they mark the section id in the corpus"), {}))
        return out
    if HEADING_LINE_RE.search(target):
        out.append((gettext_noop("A line starts with “#”: the corpus would read it as a heading"), {}))
    if re.search(r"\n[ \t]*\n", target):
        out.append((gettext_noop("An empty line inside a paragraph would split it in two"), {}))
    if is_list(source) != is_list(target):
        if is_list(source):
            out.append((gettext_noop("The source is a list (lines starting “- ”); the translation is not"), {}))
        else:
            out.append((gettext_noop("The translation starts with “- ” (a list) but the source is not a list"), {}))
    elif is_list(source) and list_items(source) != list_items(target):
        out.append((gettext_noop("The source list has %(source)s items, the translation %(target)s"),
                    {"source": list_items(source), "target": list_items(target)}))
    src_label, tgt_label = clause_label(source), clause_label(target)
    if src_label != tgt_label:
        if src_label:
            out.append((gettext_noop("The clause must start with “%(label)s) ” as in the source"), {"label": src_label}))
        else:
            out.append((gettext_noop("The translation starts with the clause label “%(label)s) ” but the source "
                                     "is not a lettered clause"), {"label": tgt_label}))
    return out


class MarkupCheck(Check):
    check_id = "markup"
    name = _("Structure of a paragraph")
    description = _("Lists, lettered clauses and corpus syntax must survive translation.")

    def check(self, source: str, target: str, context: CheckContext) -> list[Problem]:
        return [self.problem(context, message, **params)
                for message, params in markup_problems(source, target, context.paragraph == TITLE)]


class ParagraphsCheck(Check):
    check_id = "paragraphs"
    name = _("Paragraphs")
    description = _("The translation has one paragraph for each paragraph of the source, and a title if it has one.")
    scope = "section"

    def check(self, source: TextUnits, target: TextUnits, context: CheckContext) -> list[Problem]:
        problems = []
        if len(source.blocks) != len(target.blocks):
            problems.append(self.problem(context, gettext_noop("The source has %(source)s paragraphs, the "
                                                               "translation %(target)s"),
                                         source=len(source.blocks), target=len(target.blocks)))
        else:
            for n, (src, tgt) in enumerate(zip(source.blocks, target.blocks, strict=True), start=1):
                if src.strip() and not tgt.strip():
                    problems.append(self.problem(context, gettext_noop("This paragraph is not translated"),
                                                 paragraph=n))
        if source.title.strip() and not target.title.strip():
            problems.append(self.problem(context, gettext_noop("The title is not translated"), severity=WARNING,
                                         paragraph=TITLE))
        return problems
