"""An uploaded scenario shown as a tree of its fields, each problem printed next to the field it concerns.

Problem paths are the engine's (``units[0].facing``, ``map.terrain.0504``, ``(root)``). The file is untrusted: every
key and value is escaped; long strings are cut. A big file shows only the branches that hold a problem.
"""
from __future__ import annotations

import json
from typing import Any

from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe

MAX_NODES = 1500
MAX_TEXT = 120


def _child_path(parent: str, key: Any) -> str:
    if isinstance(key, int):
        return f"{parent}[{key}]"
    return f"{parent}.{key}" if parent else str(key)


def _normal(path: str) -> str:
    return "" if path in ("(root)", "") else path


def _count(value: Any, limit: int = MAX_NODES + 1) -> int:
    stack, n = [value], 0
    while stack and n < limit:
        v = stack.pop()
        n += 1
        if isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return n


def _scalar(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    if len(text) > MAX_TEXT:
        text = text[: MAX_TEXT - 1] + "…"
    return text


def render_tree(data: Any, problems: list[tuple[str, str]]) -> SafeString:
    by_path: dict[str, list[str]] = {}
    for path, message in problems:
        by_path.setdefault(_normal(path), []).append(message)
    prefixes = set()
    for path in by_path:
        prefixes.add(path)
        p = path
        while p:
            cut = max(p.rfind("."), p.rfind("["))
            p = p[:cut] if cut > 0 else ""
            prefixes.add(p)
    pruned = _count(data) > MAX_NODES
    placed: set[str] = set()

    def notes(path: str) -> str:
        if path not in by_path:
            return ""
        placed.add(path)
        return "".join(format_html('<span class="jt-problem" role="note">{}</span>', m) for m in by_path[path])

    def node(value: Any, path: str, depth: int) -> str:
        if isinstance(value, (dict, list)) and depth < 40:
            items = list(value.items()) if isinstance(value, dict) else list(enumerate(value))
            shown, hidden = [], 0
            for key, child in items:
                child_path = _child_path(path, key)
                if pruned and child_path not in prefixes:
                    hidden += 1
                    continue
                label = format_html('<span class="jt-key">{}</span>', key if isinstance(key, int) else key)
                bad = " jt-bad" if child_path in by_path else ""
                shown.append(f'<li class="jt-item{bad}">{label}{node(child, child_path, depth + 1)}</li>')
            if hidden:
                shown.append(format_html('<li class="jt-more">… {}</li>', hidden))
            brackets = ("{", "}") if isinstance(value, dict) else ("[", "]")
            return (f'<span class="jt-open">{brackets[0]}</span>{notes(path)}<ul class="jt">{"".join(shown)}</ul>'
                    f'<span class="jt-close">{brackets[1]}</span>')
        return f'<code class="jt-value">{escape(_scalar(value))}</code>{notes(path)}'

    body = node(data, "", 0)
    elsewhere = [(p, m) for p, m in problems if _normal(p) not in placed]
    head = ""
    if elsewhere:
        head = '<ul class="jt-elsewhere">' + "".join(
            format_html('<li><code>{}</code>: {}</li>', p or "(root)", m) for p, m in elsewhere) + "</ul>"
    return mark_safe(f'{head}<div class="jt-root">{body}</div>')
