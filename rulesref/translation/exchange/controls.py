"""Which characters an exchanged text may not carry: the one answer for every format (PO, XLIFF, TMX).

A rule text is plain text in lines and paragraphs, so of the control characters only the tab and the line feed
belong in it. Refused: every other C0 control (U+0000–U+001F, the carriage return included: readers turn line ends
into ``\\n`` before the check), DEL and the C1 controls (U+007F–U+009F), all of Unicode's category ``Cc``; and a
lone surrogate (category ``Cs``, U+D800–U+DFFF), which is no character at all and which no UTF-8 file can carry
back (``"\\ud800".encode("utf-8")`` raises).
"""
from __future__ import annotations

import unicodedata

ALLOWED = frozenset("\t\n")
REFUSED_CATEGORIES = frozenset({"Cc", "Cs"})
REPLACEMENT = "\ufffd"


def is_refused(char: str) -> bool:
    """Whether one character is a control character (other than tab and line feed) or a lone surrogate."""
    return char not in ALLOWED and unicodedata.category(char) in REFUSED_CATEGORIES


def control_characters(text: str) -> list[str]:
    """The refused characters of a text, each named once (``U+0007``), in the order they first occur."""
    return list(dict.fromkeys(f"U+{ord(c):04X}" for c in text if is_refused(c)))


def replace_controls(text: str) -> str:
    """The text with each refused character replaced by U+FFFD, for writing an older stored text to a file."""
    return "".join(REPLACEMENT if is_refused(c) else c for c in text)
