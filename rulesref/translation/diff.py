"""Word diffs of texts, and their HTML built on escaped text (the texts are untrusted)."""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe

TOKEN_RE = re.compile(r"\n\n|\s+|[^\W_]+|[^\w\s]", re.UNICODE)
EQUAL, INSERT, DELETE = "equal", "insert", "delete"


@dataclass(frozen=True)
class Op:
    kind: str  # equal | insert | delete
    text: str


def tokens(text: str) -> list[str]:
    return TOKEN_RE.findall(text)


def word_diff(old: str, new: str) -> list[Op]:
    """The edit from ``old`` to ``new`` as runs of equal, deleted and inserted text, word by word."""
    a, b = tokens(old), tokens(new)
    ops: list[Op] = []
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            ops.append(Op(EQUAL, "".join(a[i1:i2])))
        else:
            if i2 > i1:
                ops.append(Op(DELETE, "".join(a[i1:i2])))
            if j2 > j1:
                ops.append(Op(INSERT, "".join(b[j1:j2])))
    return ops


def changed(ops: list[Op]) -> bool:
    return any(op.kind != EQUAL for op in ops)


def _escaped(text: str) -> str:
    """Escaped text with paragraph and line breaks shown."""
    return escape(text).replace("\n\n", "¶<br><br>").replace("\n", "<br>")


def render_diff(ops: list[Op]) -> SafeString:
    out = []
    for op in ops:
        if op.kind == EQUAL:
            out.append(_escaped(op.text))
        elif op.kind == DELETE:
            out.append(format_html("<del>{}</del>", mark_safe(_escaped(op.text))))
        else:
            out.append(format_html("<ins>{}</ins>", mark_safe(_escaped(op.text))))
    return mark_safe("".join(out))


def html_diff(old: str, new: str) -> SafeString:
    return render_diff(word_diff(old, new))


def block_diffs(old_blocks: list[str], new_blocks: list[str]) -> list[SafeString | None]:
    """For each new paragraph, the word diff from the old paragraph it replaces (None when unchanged); a wholly new
    paragraph shows as inserted, removed paragraphs show as deleted text before the paragraph that follows them."""
    result: list[SafeString | None] = [None] * len(new_blocks)
    pending_deleted: list[str] = []
    matcher = difflib.SequenceMatcher(None, old_blocks, new_blocks, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            if pending_deleted and j1 < len(new_blocks):
                result[j1] = render_diff([Op(DELETE, "\n\n".join(pending_deleted) + "\n\n"),
                                          Op(EQUAL, new_blocks[j1])])
                pending_deleted = []
            continue
        old_part, new_part = old_blocks[i1:i2], new_blocks[j1:j2]
        for k, block in enumerate(new_part):
            ops = []
            if pending_deleted:
                ops.append(Op(DELETE, "\n\n".join(pending_deleted) + "\n\n"))
                pending_deleted = []
            if k < len(old_part):
                ops += word_diff(old_part[k], block)
                if k == len(new_part) - 1 and len(old_part) > len(new_part):
                    ops.append(Op(DELETE, "\n\n" + "\n\n".join(old_part[k + 1:])))
            else:
                ops.append(Op(INSERT, block))
            result[j1 + k] = render_diff(ops)
        if not new_part:
            pending_deleted += old_part
    if pending_deleted and new_blocks:
        last = len(new_blocks) - 1
        result[last] = mark_safe((result[last] or render_diff([Op(EQUAL, new_blocks[last])]))
                                 + render_diff([Op(DELETE, "\n\n" + "\n\n".join(pending_deleted))]))
    return result
