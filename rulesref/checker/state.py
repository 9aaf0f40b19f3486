"""Where the editor's scenario comes from (a new map, a draft, a shared link, an example) and the view state
around it (selected unit, chosen hex, tool, question asked, measure picks) as it travels in URLs and forms.

Everything in the view state is in the address, so every state of the page can be linked, reloaded, and reached
with the back button; none of it changes the scenario.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, fields, replace
from typing import Any
from urllib.parse import urlencode

from django.urls import reverse
from django.utils import translation

from . import books
from .kinds import BoardKind
from .models import Draft, SavedScenario

PANELS = ("map", "edges", "wings", "moment", "tables", "terrain", "charges", "pursuit")
KEY_RE = re.compile(r"^[a-z0-9]{4,24}$")
LABEL_RE = re.compile(r"^[0-9]{4,8}$")
MAX_PARAM = 200
MAX_VALUES = 50
MEASURE_PICKS = 2


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


def origin_source(book: str, origin: str, kind: BoardKind) -> Source:
    """The source a chain of drafts started from (for undo past the first draft)."""
    if origin.startswith("s:"):
        saved = SavedScenario.objects.filter(book=book, code=origin[2:]).first()
        if saved is not None:
            return Source("shared", book, saved.data, saved=saved)
    if origin.startswith("x:"):
        example = books.example(book, origin[2:])
        if example is not None:
            return Source("example", book, example.data, example=example)
    return Source("new", book, kind.blank(book))


def _text(query, name: str, limit: int = 80) -> str:
    value = query.get(name, "")
    return value.strip()[:limit] if isinstance(value, str) else ""


def _values(query, name: str, limit: int = MAX_PARAM, most: int = MAX_VALUES) -> list[str]:
    return [v.strip()[:limit] for v in query.getlist(name) if isinstance(v, str) and v.strip()][:most]


@dataclass
class ViewState:
    sel: str = ""
    terrain: str = ""  # the selected terrain piece (tabletop boards)
    hex: str = ""
    tool: str = "select"
    side: str = ""
    kind: str = ""  # the type of a unit the place tool puts down
    two: bool = False
    paint: str = "woods"
    q: str = ""
    params: dict[str, list[str]] = field(default_factory=dict)
    redo: str = ""
    focus: str = ""  # a clause to point out in the answer (from "Check this rule")
    panel: str = ""  # the open part of the scenario panel (its forms are built only when open)
    measure: tuple[str, ...] = ()  # the measure tool's picks: u:<unit id>, h:<hex>, p:<x>,<y>

    @classmethod
    def read(cls, query, book: str, kind: BoardKind) -> "ViewState":
        """The view state in a query (GET or POST), every value checked and cut to size: what is not a known tool,
        hex label, question, unit type or draft key is dropped."""
        tool = _text(query, "tool")
        unit_type = _text(query, "kind")
        hex_ = _text(query, "hex", 8)
        redo = _text(query, "redo", 24)
        q = _text(query, "q")
        panel = _text(query, "panel")
        types = kind.unit_types()
        return cls(
            sel=_text(query, "sel"), terrain=_text(query, "terrain"), hex=hex_ if LABEL_RE.match(hex_) else "",
            tool=tool if tool in {t for t, _label, _key in kind.tools()} else "select", side=_text(query, "side", 40),
            kind=unit_type if unit_type in types else (types[0] if types else ""),
            two=query.get("two") in ("1", "on", "true"), paint=_text(query, "paint", 40) or "woods",
            q=q if q in books.question_ids(book) else "", params=_params(query, book, q),
            redo=redo if KEY_RE.match(redo) else "", focus=_text(query, "focus", 40),
            panel=panel if panel in PANELS else "", measure=tuple(_values(query, "m", 80, MEASURE_PICKS)),
        )

    def query(self) -> list[tuple[str, str]]:
        """The view state as query items, in a fixed order; defaults are left out."""
        items: list[tuple[str, str]] = []
        for name in ("sel", "terrain", "hex"):
            if getattr(self, name):
                items.append((name, getattr(self, name)))
        if self.tool != "select":
            items.append(("tool", self.tool))
        items.extend(self._tool_items())
        if self.q:
            items.append(("q", self.q))
            items.extend((f"p-{name}", v) for name, values in self.params.items() for v in values)
        for name in ("focus", "panel", "redo"):
            if getattr(self, name):
                items.append((name, getattr(self, name)))
        return items

    def _tool_items(self) -> list[tuple[str, str]]:
        """The options of the current tool: the new unit's side, type and size, the terrain painted, the picks."""
        if self.tool == "place":
            return [("side", self.side)] * bool(self.side) + [("kind", self.kind)] * bool(self.kind) + \
                [("two", "1")] * self.two
        if self.tool == "terrain":
            return [("paint", self.paint)]
        if self.tool == "measure":
            return [("m", pick) for pick in self.measure]
        return []

    def with_(self, **changes: Any) -> "ViewState":
        return replace(self, **changes)

    def ask_params(self, book: str) -> dict[str, Any]:
        """The question's parameters as the engine takes them (lists for multi-unit parameters)."""
        if not self.q:
            return {}
        return {p.name: (self.params[p.name] if p.type == "units" else self.params[p.name][0])
                for p in books.params(book, self.q) if self.params.get(p.name)}

    def renamed(self, old: str, new: str) -> "ViewState":
        """The view after unit ``old`` was renamed ``new``: the selection and the question's parameters follow it."""
        return self.with_(sel=new if self.sel == old else self.sel,
                          params={k: [new if v == old else v for v in vs] for k, vs in self.params.items()},
                          measure=tuple(f"u:{new}" if m == f"u:{old}" else m for m in self.measure))

    def without_unit(self, unit_id: str) -> "ViewState":
        """The view after unit ``unit_id`` was removed: no longer selected, asked about or measured."""
        params = {k: [v for v in vs if v != unit_id] for k, vs in self.params.items()}
        return self.with_(sel="" if self.sel == unit_id else self.sel, params={k: v for k, v in params.items() if v},
                          measure=tuple(m for m in self.measure if m != f"u:{unit_id}"))


VIEW_FIELDS = tuple(f.name for f in fields(ViewState))


def _params(query, book: str, q: str) -> dict[str, list[str]]:
    if q not in books.question_ids(book):
        return {}
    params: dict[str, list[str]] = {}
    for p in books.params(book, q):
        raw = _values(query, f"p-{p.name}")
        if p.type == "units":  # a list of units may also come as one comma-separated value
            raw = [part.strip() for v in raw for part in v.split(",") if part.strip()][:MAX_VALUES]
        if raw:
            params[p.name] = raw
    return params


def url(source: Source, view: ViewState, lang: str, **changes: Any) -> str:
    v = view.with_(**changes) if changes else view
    items = list(source.base_query().items()) + v.query()
    path = source.path(lang)
    return f"{path}?{urlencode(items)}" if items else path


def link_prefix(source: Source, view: ViewState, lang: str, name: str, **changes: Any) -> str:
    """The address that sets ``name`` once its value is appended (``…&hex=``, ``…&sel=``): the query is built once
    for the many links of a map or a board."""
    cleared = {name: ""} if name in VIEW_FIELDS else {}
    items = list(source.base_query().items()) + view.with_(**cleared, **changes).query()
    return source.path(lang) + "?" + (urlencode(items) + "&" if items else "") + name + "="
