"""Change markers and quotation style.

The corpus turns the source's change markers (``>>``, ``> >``) into the ``.changed`` flag of a heading, so a marker
left in a text, or one that the two texts do not share, is a mistake. Russian quotes with «ёлочки»; English with
“curly quotes”; quotes must be balanced.
"""
from __future__ import annotations

import re

from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

from .base import WARNING, Check, CheckContext, Problem

MARKER_RE = re.compile(r"(?:^|(?<=\s))>\s?>(?=\s|$)", re.M)


class ChangeMarkerCheck(Check):
    check_id = "change-markers"
    name = _("Change markers")
    description = _("Change markers (>>) belong in the section's “changed” flag, not in the text; the texts must agree.")

    def check(self, source: str, target: str, context: CheckContext) -> list[Problem]:
        src, tgt = len(MARKER_RE.findall(source)), len(MARKER_RE.findall(target))
        if src > tgt:
            return [self.problem(context, gettext_noop("The source has a change marker “>>” that the translation lacks"))]
        if tgt > src:
            return [self.problem(context, gettext_noop("Change marker “>>” in the translation: mark the section as "
                                                       "changed instead"))]
        return []


class QuotesCheck(Check):
    check_id = "quotes"
    name = _("Quotation marks")
    description = _("Russian text uses «…»; English text uses “…”; every quotation is closed.")
    severity = WARNING

    def check(self, source: str, target: str, context: CheckContext) -> list[Problem]:
        problems = []
        if context.target_language == "ru":
            if re.search(r"[\"“”„]", target):
                problems.append(self.problem(context, gettext_noop("Use «…» quotation marks in Russian text")))
            if target.count("«") != target.count("»"):
                problems.append(self.problem(context, gettext_noop("Unbalanced «…» quotation marks")))
        else:
            if re.search(r"[«»„]", target):
                problems.append(self.problem(context, gettext_noop("Use “…” quotation marks in English text")))
            if target.count("“") != target.count("”") or target.count('"') % 2:
                problems.append(self.problem(context, gettext_noop("Unbalanced quotation marks")))
        return problems
