"""The board kinds the checker edits, and which kind a rulebook uses.

A rulebook says what it is played on in its ``book.toml`` (``kind = "hex"``, ``"tabletop"``, ``"none"``), loaded into
:attr:`Book.kind <rulesref.reference.models.Book.kind>`: that is the only place the fact is kept. Each board kind is
one class (:class:`BoardKind`) with a stable ``id`` matching that value, listed in ``settings.CHECKER_BOARD_KINDS``
and loaded here; the views ask :func:`kind_of` and never branch on the kind themselves. A book has a checker when
its kind is listed and the engine has a package for it; any other book (``kind = "none"``, or no engine) has no
checker pages and no checker links.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Callable, ClassVar, Mapping

from django.conf import settings
from django.core.signals import setting_changed
from django.utils.module_loading import import_string

from rulesref.engine import BOOKS as ENGINE_BOOKS
from rulesref.reference.models import Book


class BoardKind:
    """One kind of board: what the editor needs of it. Subclasses live in packages of their own (``checker/hex``,
    ``checker/tabletop``) and fill in every method. Each method is given the :class:`~rulesref.checker.page.Page`
    being built (page.py imports this module, so the type is not named here)."""

    id: ClassVar[str] = ""
    verbose_name: ClassVar[Any] = ""
    #: Templates with the kind's own parts of the editor: the tools above the map, the side panel's parts before
    #: and after the ask panel, the help under the map.
    tools_template: ClassVar[str] = ""
    selection_template: ClassVar[str] = ""
    scenario_template: ClassVar[str] = ""
    help_template: ClassVar[str] = ""  # how the map is used, under it
    #: POST ``action`` -> handler(request, source, view) -> (new data or None, new view, message); a handler raises
    #: EditError or Rejected for an edit it refuses (rulesref.checker.changes runs them).
    actions: ClassVar[Mapping[str, Callable]] = {}
    #: Whether the page needs the engine's reading of a scenario it did not just make (the drawing uses it).
    loads_every_page: ClassVar[bool] = False

    def blank(self, book: str) -> dict[str, Any]:
        """A new, empty position."""
        raise NotImplementedError

    def tools(self) -> list[tuple[str, str, str]]:
        """(tool id, label, shortcut key) of the tools the map offers."""
        raise NotImplementedError

    def unit_types(self) -> tuple[str, ...]:
        """The unit types a new unit may have (the ``kind`` in the address), first the default."""
        return ()

    def drawing(self, page):
        """The map or board, with what the answer and the measure tool draw on it."""
        raise NotImplementedError

    def panels(self, page) -> dict[str, Any]:
        """The template context of the kind's own panels."""
        raise NotImplementedError

    def answer_extras(self, page, answer) -> None:
        """Add to an answer what this kind shows with it: marks to draw, a legend, key figures."""

    def question_defaults(self, page, question: str) -> dict[str, list[str]]:
        """Parameter values to offer first for ``question``, from the position (the selection, declared charges)."""
        return {}

    def lacking(self, page, question: str) -> str:
        """What the position must hold before ``question`` means anything (said instead of asking), or ""."""
        return ""

    def reading_for(self, page, question: str, params: dict[str, Any]):
        """The engine's reading of the position as ``question`` is asked of it (the page's own by default)."""
        return page.loaded

    def param_options(self, page, question: str, param, chosen: dict[str, list[str]]) -> list | None:
        """(value, label) pairs a parameter of type unit, units, wing or facing may take, given the parameters
        already chosen (a target is never the unit that acts, a unit fought is an enemy)."""
        raise NotImplementedError

    def shortcuts(self, page) -> list[dict[str, str]]:
        """Questions the position itself suggests, each one click away: [{"label", "url"}]."""
        return []

    def pick(self, data: dict[str, Any], value: str) -> str:
        """What a click with the measure tool picks (``u:<unit>``, ``h:<hex>``, ``p:<x>,<y>``): a hex holding a unit
        picks the unit."""
        return value

    def measure(self, page):
        """What the measure tool shows (a :class:`rulesref.checker.measuring.MeasureView`): what was picked, and once
        two are, the engine's measurements between them."""
        return None


@lru_cache(maxsize=1)
def registry() -> dict[str, BoardKind]:
    """The board kinds by id, loaded from ``settings.CHECKER_BOARD_KINDS``."""
    kinds: dict[str, BoardKind] = {}
    for path in settings.CHECKER_BOARD_KINDS:
        kind = import_string(path)()
        if not kind.id or kind.id in kinds:
            raise ValueError(f"{path}: a board kind needs an id of its own (got {kind.id!r})")
        kinds[kind.id] = kind
    return kinds


def _forget(setting, **kwargs) -> None:
    if setting == "CHECKER_BOARD_KINDS":
        registry.cache_clear()


setting_changed.connect(_forget)


def kind_of(book: str, kind: str | None = None) -> BoardKind | None:
    """The board kind of a rulebook with a checker, or None (no such book, kind "none", or no engine for it).
    ``kind``: the book's ``kind`` when the caller has its row already (no query then)."""
    if book not in ENGINE_BOOKS:
        return None
    if kind is None:
        kind = Book.objects.filter(slug=book).values_list("kind", flat=True).first()
    return registry().get(kind) if kind else None


def checker_books() -> list[tuple[Book, BoardKind]]:
    """The rulebooks that have a checker, in the library's order, with their board kinds."""
    kinds = registry()
    return [(book, kinds[book.kind]) for book in Book.objects.all() if book.slug in ENGINE_BOOKS and book.kind in kinds]
