"""Approved translations of rulings in the translation memory, beside those of sections: each unit of the
translation paired with the unit of the source text it was made from (``ruling:12:2``), so a ruling is offered as a
suggestion wherever a similar sentence is translated, and the other way round."""
from __future__ import annotations

from rulesref.translation import memory

from .models import Ruling, RulingText
from .units import QUESTION, text_units, unit_context


def pairs(ruling: Ruling, source: RulingText, target: RulingText) -> list[memory.Pair]:
    from .workflow import source_at

    made_from = source_at(source, target.source_revision)
    if made_from is None:
        return []
    src, tgt = text_units(*made_from), text_units(target.question, target.answer)
    creator = target.updated_by.get_username() if target.updated_by_id else ""
    out = []
    for paragraph in [QUESTION, *range(1, len(src.blocks) + 1)]:
        s, t = src.unit(paragraph), tgt.unit(paragraph)
        if s and t and s.strip() and t.strip():
            out.append(memory.Pair(ruling.source_language, target.language, s, t, book=ruling.book.slug,
                                   context=unit_context(ruling.number, paragraph), creator=creator,
                                   created=target.updated_at, changed=target.updated_at))
    return out


def remember(ruling: Ruling, source: RulingText, target: RulingText) -> int:
    """Put the published translation's units into the memory; the number of entries made."""
    return len(memory.add_pairs(pairs(ruling, source, target)))


def suggestions(ruling: Ruling, paragraph_source: str, context: str, current: str) -> list[memory.Match]:
    return memory.matches(paragraph_source, ruling.source_language, ruling.target_language,
                          exclude=(ruling.book.slug, context, current))
