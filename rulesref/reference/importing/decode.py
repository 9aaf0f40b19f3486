"""The text of a file to import, or why it cannot be read."""
from __future__ import annotations

import re
import unicodedata

MAX_TEXT_BYTES = 5_000_000


def decode_text(raw: bytes, name: str = "text") -> str:
    """The text of an uploaded or pasted file; ValueError saying what is wrong with it otherwise."""
    if not raw.strip():
        raise ValueError(f"{name}: the file is empty")
    if len(raw) > MAX_TEXT_BYTES:
        raise ValueError(f"{name}: {len(raw)} bytes; a text to import is at most {MAX_TEXT_BYTES} bytes")
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            text = raw.decode("utf-16")
        except UnicodeDecodeError:
            raise ValueError(f"{name}: starts like UTF-16 text but is not") from None
    else:
        nul = raw.find(b"\x00")
        if nul >= 0:
            raise ValueError(f"{name}: a binary file (a NUL byte at offset {nul}), not text")
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            line = raw[:exc.start].count(b"\n") + 1
            hint = ""
            try:
                if re.search("[а-яА-Я]{3}", raw.decode("cp1251")):
                    hint = " (it looks like Windows-1251: convert it, e.g. iconv -f cp1251 -t utf-8)"
            except UnicodeDecodeError:
                pass
            raise ValueError(f"{name}:{line}: not UTF-8 text{hint}") from None
    bad = next((i for i, ch in enumerate(text) if unicodedata.category(ch) in ("Cc", "Cs") and ch not in "\t\n\r\f"),
               None)
    if bad is not None:
        line = text[:bad].count("\n") + 1
        raise ValueError(f"{name}:{line}: a control character U+{ord(text[bad]):04X}; is this a binary file?")
    if not text.strip():
        raise ValueError(f"{name}: the file holds only blank lines")
    return text


