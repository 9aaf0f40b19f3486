"""How a line reads: titles, labels such as ПРИМЕР:, sentence ends, capitals (no numbers: numbering.py)."""
from __future__ import annotations

import re

from ..numbering import CLAUSE_LABEL_RE

TITLE_PREFIX_RE = re.compile(r"^(?P<title>[^:.!?«»]{2,70}?):\s+(?P<body>\S.*)$")
CAPS_TITLE_RE = re.compile(r"^(?P<title>[A-ZА-ЯЁ][A-ZА-ЯЁ0-9 «»\"'()-]{1,68}[A-ZА-ЯЁ)»])\.\s+(?P<body>\S.*)$")
BARE_NUMBER_RE = re.compile(r"^\d{1,4}$")
BULLET_RE = re.compile(r"^[•·▪◦●○■□➢►✓\uf0b7*–—-]\s+")
MARKER_ONLY_RE = re.compile(r"^(>\s?>)\s*")
MARKDOWN_HEADING_RE = re.compile(r"^(#{1,6})\s+(?=\S)")
LABEL_RE = re.compile(
    r"^(?:ПРИМЕР|ПРИМЕРЫ|ПРИМЕЧАНИЕ|ПРИМЕЧАНИЯ|ИСКЛЮЧЕНИЕ|ВАЖНО|ПОЯСНЕНИЕ|ЗАМЕЧАНИЕ|ПРИМЕЧАНИЕ АВТОРА|"
    r"EXAMPLE|EXAMPLES|NOTE|NOTES|EXCEPTION|IMPORTANT|CLARIFICATION|DESIGNER'?S NOTE|PLAY NOTE)\b", re.I)
CAPTION_RE = re.compile(r"(?:^|\s)(?:таблиц[аы]|table|chart|схема)(?:\s|$|:)", re.I)
CONTENTS_RE = re.compile(r"^(?:contents|table of contents|содержание|оглавление)$", re.I)
TERMINAL = ".!?…:;"
CLOSING = ")»\"”'’]"
DANGLING_WORDS = {
    "и", "или", "в", "во", "на", "по", "к", "ко", "с", "со", "от", "до", "за", "из", "для", "при", "о", "об", "без",
    "через", "под", "над", "а", "но", "of", "and", "or", "the", "to", "in", "on", "with", "for", "a", "an", "at",
    "by", "from", "into", "vs",
}
NUMERIC_CELL_RE = re.compile(r"\d|^[—–\-−×x+]$|^[—–\-]{1,2}$")


def sentence_case(title: str) -> str:
    """``ОТХОД (Withdraw)`` -> ``Отход (Withdraw)``: words printed in capitals are lowered, the first raised."""
    words = re.sub(r"\([^()]*\)", "", title).split()
    if sum(1 for w in words if is_caps(w)) * 2 < len([w for w in words if any(c.isalpha() for c in w)]):
        return title
    lowered = [w.lower() if is_caps(w) else w for w in title.split(" ")]
    text = " ".join(lowered)
    for i, ch in enumerate(text):
        if ch.isalpha():
            return text[:i] + ch.upper() + text[i + 1:]
    return text


def is_caps(word: str) -> bool:
    letters = [c for c in word if c.isalpha()]
    return len(letters) >= 1 and all(c.isupper() for c in letters) and (len(letters) > 1 or len(word) == 1)


def all_caps(text: str) -> bool:
    letters = [c for c in text if c.isalpha()]
    return len(letters) >= 2 and all(c.isupper() for c in letters)


def ends_sentence(text: str) -> bool:
    return text.rstrip(CLOSING + " ")[-1:] in TERMINAL if text.rstrip(CLOSING + " ") else True


def title_like(text: str) -> bool:
    return (0 < len(text) <= 80 and text[-1] not in TERMINAL + "," and not BULLET_RE.match(text)
            and not CLAUSE_LABEL_RE.match(text) and (text[0].isupper() or text[0] in "«\"(")
            and not LABEL_RE.match(text))


def split_title(rest: str) -> tuple[str, str]:
    if not rest:
        return "", ""
    m = TITLE_PREFIX_RE.match(rest)
    if m and len(m.group("title").split()) <= 6:
        return m.group("title").strip(), m.group("body").strip()
    m = CAPS_TITLE_RE.match(rest)
    if m and len(m.group("title").split()) <= 8 and not LABEL_RE.match(rest):
        return m.group("title").strip(), m.group("body").strip()
    if len(rest) <= 80 and rest[-1] not in ".!?:;…":
        return rest, ""
    return "", rest


