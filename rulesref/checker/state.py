"""Where the editor's scenario comes from (a new map, a draft, a shared link, an example) and the view state
around it (selected unit, chosen hex, tool, question asked) as it travels in URLs and forms.

Everything in the view state is in the address, so every state of the page can be linked, reloaded, and reached
with the back button; none of it changes the scenario.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any
from urllib.parse import urlencode

from django.urls import reverse
from django.utils import translation

from . import books, hexedit
from .models import Draft, SavedScenario

TOOLS = ("select", "place", "terrain", "dead", "los", "erase", "place-terrain")
PANELS = ("map", "edges", "wings", "moment", "tables", "terrain", "charges", "pursuit")
KEY_RE = re.compile(r"^[a-z0-9]{4,24}$")
LABEL_RE = re.compile(r"^[0-9]{4,8}$")
MAX_PARAM = 200


@dataclass
class Source:
    kind: str  # new | draft | shared | example
    book: str
    data: dict[str, Any]
    draft: Draft | None = None
    saved: SavedScenario | None = None
    example: books.Example | None = None

    @property
    def origin(self) -> str:
        if self.kind == "draft":
            return self.draft.origin
        if self.kind == "shared":
            return f"s:{self.saved.code}"
        if self.kind == "example":
            return f"x:{self.example.slug}"
        return ""

    def path(self, lang: str) -> str:
        with translation.override(lang):
            if self.kind == "shared":
                return reverse("checker:shared", kwargs={"book": self.book, "code": self.saved.code})
            if self.kind == "example":
                return reverse("checker:example", kwargs={"book": self.book, "slug": self.example.slug})
            return reverse("checker:editor", kwargs={"book": self.book})

    def base_query(self) -> dict[str, str]:
        return {"d": self.draft.key} if self.kind == "draft" else {}


def origin_source(book: str, origin: str) -> Source:
    """The source a chain of drafts started from (for undo past the first draft)."""
    if origin.startswith("s:"):
        saved = SavedScenario.objects.filter(book=book, code=origin[2:]).first()
        if saved is not None:
            return Source("shared", book, saved.data, saved=saved)
    if origin.startswith("x:"):
        example = books.example(book, origin[2:])
        if example is not None:
            return Source("example", book, example.data, example=example)
    return Source("new", book, hexedit.blank(book))


@dataclass
class ViewState:
    sel: str = ""
    terrain: str = ""  # the selected terrain piece (tabletop boards)
    hex: str = ""
    tool: str = "select"
    side: str = ""
    kind: str = "heavy-infantry"
    two: bool = False
    paint: str = "woods"
    q: str = ""
    params: dict[str, list[str]] = field(default_factory=dict)
    redo: str = ""
    focus: str = ""  # a clause to point out in the answer (from "Check this rule")
    panel: str = ""  # the open part of the scenario panel (its forms are built only when open)

    @classmethod
    def read(cls, query, book: str) -> "ViewState":
        def text(name: str, limit: int = 80) -> str:
            value = query.get(name, "")
            return value.strip()[:limit] if isinstance(value, str) else ""

        tool = text("tool")
        kind = text("kind")
        q = text("q")
        params: dict[str, list[str]] = {}
        if q in books.question_ids(book):
            for p in books.params(book, q):
                raw = query.getlist(f"p-{p.name}")
                if p.type == "units":  # a list of units may also come as one comma-separated value
                    raw = [part for v in raw for part in v.split(",")]
                values = [v.strip()[:MAX_PARAM] for v in raw if v.strip()][:50]
                if values:
                    params[p.name] = values
        else:
            q = ""
        redo = text("redo", 24)
        return cls(
            sel=text("sel"), terrain=text("terrain"), hex=text("hex", 8) if LABEL_RE.match(text("hex", 8)) else "",
            tool=tool if tool in TOOLS else "select", side=text("side", 40),
            kind=kind if kind in hexedit.UNIT_TYPES else "heavy-infantry", two=query.get("two") in ("1", "on", "true"),
            paint=text("paint", 40) or "woods", q=q, params=params, redo=redo if KEY_RE.match(redo) else "",
            focus=text("focus", 40), panel=text("panel") if text("panel") in PANELS else "",
        )

    def query(self) -> list[tuple[str, str]]:
        items: list[tuple[str, str]] = []
        if self.sel:
            items.append(("sel", self.sel))
        if self.terrain:
            items.append(("terrain", self.terrain))
        if self.hex:
            items.append(("hex", self.hex))
        if self.tool != "select":
            items.append(("tool", self.tool))
        if self.tool == "place":
            if self.side:
                items.append(("side", self.side))
            items.append(("kind", self.kind))
            if self.two:
                items.append(("two", "1"))
        if self.tool == "terrain":
            items.append(("paint", self.paint))
        if self.q:
            items.append(("q", self.q))
            for name, values in self.params.items():
                items.extend((f"p-{name}", v) for v in values)
        if self.focus:
            items.append(("focus", self.focus))
        if self.panel:
            items.append(("panel", self.panel))
        if self.redo:
            items.append(("redo", self.redo))
        return items

    def with_(self, **changes: Any) -> "ViewState":
        return replace(self, **changes)

    def ask_params(self, book: str) -> dict[str, Any]:
        """The question's parameters as the engine takes them (lists for multi-unit parameters)."""
        out: dict[str, Any] = {}
        if not self.q:
            return out
        for p in books.params(book, self.q):
            values = self.params.get(p.name)
            if not values:
                continue
            out[p.name] = values if p.type == "units" else values[0]
        return out


def url(source: Source, view: ViewState, lang: str, **changes: Any) -> str:
    v = view.with_(**changes) if changes else view
    items = list(source.base_query().items()) + v.query()
    path = source.path(lang)
    return f"{path}?{urlencode(items)}" if items else path


def hex_href_prefix(source: Source, view: ViewState, lang: str) -> str:
    """The map's hex links are this prefix and the hex label (the query is built once for all of them)."""
    v = view.with_(hex="")
    items = list(source.base_query().items()) + v.query()
    return source.path(lang) + "?" + (urlencode(items) + "&" if items else "") + "hex="
