"""Checker pages: the examples gallery, the scenario editor (hex map), shared scenarios, upload and download.

One URL serves the full page or, for htmx, the editor fragment (a template partial). Reading never writes: a hex
click without JavaScript is a link that chooses the hex, an answer is a GET of the question and its parameters.
Every change of the scenario is a POST that makes a new immutable draft (its parent is the state it came from) and
answers with the new state's address: a redirect, or for htmx the fragment with ``HX-Push-Url``.
"""
from __future__ import annotations

import json
import re
from typing import Any

from babel.numbers import format_decimal, format_percent
from django.http import Http404, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse, translate_url
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _, ngettext, pgettext
from django.views.decorators.http import require_http_methods, require_safe
from django.views.decorators.vary import vary_on_headers

from rulesref.languages import current_language
from rulesref.engine import InvalidScenarioError
from rulesref.security import text as storable

from . import answer as answers
from . import asking, boardedit, boardsvg, books, forms, hexedit, svg
from .jsontree import render_tree
from .models import Draft, SavedScenario
from .state import Source, ViewState, hex_href_prefix, origin_source, url

MAX_UPLOAD = 1024 * 1024
MAX_REDO_WALK = 500


def _book_or_404(book: str) -> None:
    if not books.is_book(book):
        raise Http404(_("No rulebook %(book)s in the checker.") % {"book": book})


def validate(book: str, data: Any) -> list[tuple[str, str]]:
    try:
        books.engine(book).load_scenario(data)
    except InvalidScenarioError as exc:
        return exc.in_language(current_language())
    except RecursionError:
        return [("", _("The file is nested too deeply."))]
    return []


# --- gallery ----------------------------------------------------------------------------------------------------


@require_safe
def index(request):
    lang = current_language()
    groups = []
    for book in books.BOOKS:
        items = []
        for slug, ex in sorted(books.examples(book).items()):
            title, title_lang = ex.title(lang)
            description, description_lang = ex.description(lang)
            items.append({"slug": slug, "title": title, "title_lang": title_lang, "description": description,
                          "description_lang": description_lang, "example_of": ex.example_of,
                          "url": reverse("checker:example", kwargs={"book": book, "slug": slug}),
                          "questions": [books.question_label(q["question"]) for q in ex.questions]})
        groups.append({"book": book, "hex": book in books.HEX_BOOKS, "items": items,
                       "editor_url": reverse("checker:editor", kwargs={"book": book})})
    return render(request, "checker/index.html", {"groups": groups})


# --- sources ----------------------------------------------------------------------------------------------------


def _draft_source(book: str, key: str) -> Source:
    draft = Draft.open(book, key)
    if draft is None:
        raise Http404(_("This draft no longer exists. Drafts are kept for a while; share a scenario to keep it."))
    return Source("draft", book, draft.data, draft=draft)


def editor(request, book):
    _book_or_404(book)
    key = request.GET.get("d") or request.POST.get("d") or ""
    if key:
        source = _draft_source(book, key[:24])
    else:
        source = Source("new", book, hexedit.blank(book))
    return _dispatch(request, source)


def shared(request, book, code):
    _book_or_404(book)
    saved = SavedScenario.objects.filter(book=book, code=code).first()
    if saved is None:
        raise Http404(_("No shared scenario %(code)s.") % {"code": code})
    return _dispatch(request, Source("shared", book, saved.data, saved=saved))


def example(request, book, slug):
    _book_or_404(book)
    ex = books.example(book, slug)
    if ex is None:
        raise Http404(_("No example %(slug)s.") % {"slug": slug})
    data = {k: v for k, v in ex.data.items() if k != "questions"}
    source = Source("example", book, data, example=ex)
    if request.method == "GET" and "q" not in request.GET and ex.questions:
        # An example opens with its first question asked, so the answer is there at once.
        first = ex.questions[0]
        query = request.GET.copy()
        query["q"] = first["question"]
        for name, value in (first.get("params") or {}).items():
            query.setlist(f"p-{name}", [str(v) for v in value] if isinstance(value, list) else [str(value)])
        return HttpResponseRedirect(f"{request.path}?{query.urlencode()}")
    return _dispatch(request, source)


@vary_on_headers("HX-Request")
@require_http_methods(["GET", "HEAD", "POST"])
def _dispatch(request, source: Source):
    if request.method == "POST":
        return _post(request, source)
    view = ViewState.read(request.GET, source.book)
    if request.GET.get("download") == "json":
        return download(source)
    return _page(request, source, view)


def download(source: Source) -> HttpResponse:
    data = source.data
    if source.kind == "shared":
        name = f"{source.book}-{source.saved.code}.json"
    elif source.kind == "example":
        name = f"{source.example.slug}.json"
        data = source.example.data
    else:
        name = f"{source.book}-scenario.json"
    response = HttpResponse(json.dumps(data, ensure_ascii=False, indent=2) + "\n",
                            content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


# --- the page ---------------------------------------------------------------------------------------------------


def _labels() -> dict[str, str]:
    """Words drawn on the map, in the current language."""
    return {
        "map": _("Map"), "dead_zone": _("dead zone"), "blocks_los": _("blocks line of sight"),
        "edge_of": _("Friendly map edge of {side}"), "facing": _("facing"), "morale_rating": _("morale"),
        "order_charge": pgettext("order on a counter", "C"), "order_make-ready": pgettext("order on a counter", "MR"),
        "order_receive-charge": pgettext("order on a counter", "RC"), "order_rally": pgettext("order on a counter", "R"),
        "ms": pgettext("morale on a counter", "MS"), "mb": pgettext("morale on a counter", "MB"),
        "dis": pgettext("formation on a counter", "D"),
        "order_name_charge": _("Charge"), "order_name_make-ready": _("Make Ready"),
        "order_name_receive-charge": _("Receive Charge"), "order_name_rally": _("Rally"),
        "morale_shaken": _("Morale Shaken"), "morale_broken": _("Morale Broken"),
        "type_cavalry": _("cavalry"), "type_light-infantry": _("light infantry"),
        "type_heavy-infantry": _("heavy infantry"), "type_artillery": _("artillery"), "type_leader": _("leader"),
        "type_wagon": _("wagons"),
    }


FACT_LABELS = {
    "distance": lambda: _("Distance in hexes"), "cost": lambda: _("Path cost in MP"),
    "mp_available": lambda: _("MP available"), "chance": lambda: _("Chance"),
    "success_range": lambda: _("Success on a roll of"), "modifier": lambda: _("Modifier"),
    "outcome": lambda: _("Outcome"), "edge": lambda: _("Toward the map edge"),
    "distance_inches": lambda: _("Distance between the Unit Boundaries"),
    "max_charge_range": lambda: _("Longest possible charge (Advance Rate + 12)"),
    "charge_chance": lambda: _("Chance the charge reaches if the target stays"),
    "flee_chance": lambda: _("Chance the charge still reaches if the target Flees"),
    "catch_chance": lambda: _("Chance a pursuit roll catches the fleeing unit"),
}


def _ask(source: Source, view: ViewState, lang: str, loaded) -> dict[str, Any]:
    """The ask panel: the question's parameter fields and, when asked, the answer or the problems."""
    book = source.book
    ctx: dict[str, Any] = {"questions": [(q, books.question_label(q)) for q in books.question_ids(book)],
                           "q": view.q, "fields": [], "answer": None, "ask_problems": [], "ask_error": ""}
    if not view.q:
        return ctx
    units = [u for u in source.data.get("units") or [] if isinstance(u, dict)]
    wings = [w for w in source.data.get("wings") or [] if isinstance(w, dict)]
    hexmap = svg.hexmap_of(source.data) if book in books.HEX_BOOKS else None
    for p in books.params(book, view.q):
        values = view.params.get(p.name, [])
        if p.type in ("unit", "units"):
            options = [(str(u.get("id")), f"{u.get('id')} ({u.get('side')}, {_labels().get('type_' + str(u.get('type')), u.get('type', ''))})"
                        if book in books.HEX_BOOKS else f"{u.get('id')} ({u.get('side')})") for u in units]
        elif p.type == "wing":
            options = [(str(w.get("id")), f"{w.get('id')} ({w.get('side')})") for w in wings]
        elif p.type == "facing" and hexmap is not None:
            from rulesref.engine.hexgrid import VERTEX_NAMES

            options = [(n, n) for n in VERTEX_NAMES[hexmap.layout]]
        elif p.choices:
            options = [(c, str(books.CHOICE_LABELS.get(c, c))) for c in p.choices]
        else:
            options = None
        if p.type == "unit" and not values and view.sel and p.name in ("unit", "charger") and \
                any(u.get("id") == view.sel for u in units):
            values = [view.sel]
        ctx["fields"].append({"name": f"p-{p.name}", "label": p.label, "help": p.describe(lang), "required": p.required,
                              "multiple": p.type == "units", "options": options, "values": values,
                              "value": values[0] if values else (str(p.default) if p.default is not None else ""),
                              "errors": []})
    params = view.ask_params(book)
    missing = [f for f in ctx["fields"] if f["required"] and not f["values"]]
    if missing:
        for f in missing:
            f["errors"].append(_("Choose this to ask the question."))
        return ctx
    outcome = asking.run(book, view.q, loaded if loaded is not None else source.data, params, lang=lang)
    if outcome.kind == "invalid":
        by_name = {f["name"][2:]: f for f in ctx["fields"]}
        for path, message in outcome.problems:
            name = path.split(".", 1)[1] if path.startswith("params.") else None
            if name in by_name:
                by_name[name]["errors"].append(message)
            else:
                ctx["ask_problems"].append((path, message))
    elif outcome.kind in ("unavailable", "unknown"):
        ctx["ask_error"] = _("The engine cannot answer this question yet.")
    elif outcome.kind == "failed":
        ctx["ask_error"] = _("The engine failed on this scenario. This is a bug in rulesref; it has been logged.")
    else:
        ruling = outcome.ruling.to_dict(lang)
        view_ = answers.build(book, ruling, lang, params, loaded)
        view_.facts = [(FACT_LABELS[k]() if k in FACT_LABELS else k, _fact(k, v, lang)) for k, v in view_.facts]
        ctx["answer"] = view_
    return ctx


def _percent(value: float, lang: str) -> str:
    """A chance as a percentage to a tenth, in the reader's notation: 2.7% / 2,7 %."""
    return format_percent(round(value, 3), locale=lang, decimal_quantization=False)


def _fact(key: str, value: Any, lang: str) -> str:
    if key == "chance" and isinstance(value, (int, float)):
        return format_percent(value, locale=lang)
    if key in ("distance_inches", "max_charge_range"):
        return format_decimal(round(value, 2), format="#,##0.##", locale=lang) + "″"
    if isinstance(value, tuple):  # (at least, at most): some outcomes are not placed by the corpus
        low, high = (_percent(v.get("float", 0), lang) for v in value)
        return _("from %(low)s to %(high)s (some Flee rolls end where the corpus does not say)") % {
            "low": low, "high": high}
    if isinstance(value, dict) and "fraction" in value:
        return f"{value['fraction']} ({_percent(value.get('float', 0), lang)})"
    if key == "modifier" and isinstance(value, int):
        return f"{value:+d}".replace("-", "−")
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _undo_redo(source: Source, view: ViewState, lang: str) -> tuple[str | None, str | None]:
    base = view.with_(redo="")
    undo = redo = None
    if source.kind == "draft":
        tip = view.redo or source.draft.key
        parent = source.draft.parent
        if parent is not None:
            undo = url(Source("draft", source.book, parent.data, draft=parent), base.with_(redo=tip), lang)
        elif source.draft.parent_id is None:
            undo = url(origin_source(source.book, source.draft.origin), base.with_(redo=tip), lang)
    if view.redo:
        target = _redo_target(source, view.redo)
        if target is not None:
            redo_view = base.with_(redo=view.redo if target.key != view.redo else "")
            redo = url(Source("draft", source.book, target.data, draft=target), redo_view, lang)
    return undo, redo


def _redo_target(source: Source, tip_key: str) -> Draft | None:
    node = Draft.objects.filter(book=source.book, key=tip_key).select_related("parent").first()
    current = source.draft.pk if source.kind == "draft" else None
    steps = 0
    while node is not None and steps < MAX_REDO_WALK:
        if (current is not None and node.parent_id == current) or (
                current is None and node.parent_id is None and node.origin == source.origin):
            return node
        node = node.parent
        steps += 1
    return None


def _context(request, source: Source, view: ViewState, *, forms_: dict | None = None, message: str = "",
             problems: list | None = None, upload_report: dict | None = None) -> dict[str, Any]:
    lang = current_language()
    book = source.book
    data = source.data
    forms_ = forms_ or {}
    hex_book = book in books.HEX_BOOKS
    # The engine reads the scenario only when something needs it: an answer, or a scenario not made here (an
    # example, a shared link) that must be checked against the engine as it is today.
    loaded = None
    scenario_problems: list = []
    if view.q or source.kind in ("example", "shared") or not hex_book:
        try:
            loaded = books.engine(book).load_scenario(data)
        except InvalidScenarioError as exc:
            scenario_problems = exc.in_language(lang)
        except RecursionError:
            scenario_problems = [("", _("The file is nested too deeply."))]
    ask = _ask(source, view, lang, loaded) if not scenario_problems else {
        "questions": [(q, books.question_label(q)) for q in books.question_ids(book)], "q": view.q, "fields": [],
        "answer": None, "ask_problems": [], "ask_error": _("Correct the scenario before asking.")}
    if scenario_problems:
        hex_book = False  # a scenario the engine cannot read is not drawn or edited; its problems are listed
    units = [u for u in data.get("units") or [] if isinstance(u, dict)]
    selected = next((u for u in units if u.get("id") == view.sel), None)
    sel_id = selected.get("id") if selected else ""
    ctx: dict[str, Any] = {
        "book": book, "source": source, "view": view, "data": data, "hex_book": hex_book, "message": message,
        "problems": problems or [], "scenario_problems": scenario_problems, "upload_report": upload_report,
        "selected": selected, "units": units, "ask": ask, "tools": TOOL_CHOICES(), "lang": lang,
        "page_url": url(source, view, lang),
        "page_path": source.path(lang),
        "hidden": view.query() + list(source.base_query().items()),
        "hidden_inputs": _hidden_inputs(view.query() + list(source.base_query().items())),
        "title": _scenario_title(source, lang),
        "cols": _int((data.get("map") or {}).get("columns"), 12) if hex_book else 12,
    }
    ctx["language_switch_url"] = translate_url(source.path(lang), "ru" if lang == "en" else "en")
    query = url(source, view, lang).partition("?")[2]
    if query:
        ctx["language_switch_url"] += "?" + query
    ctx["undo_url"], ctx["redo_url"] = _undo_redo(source, view, lang)
    ctx["upload_form"] = forms_.get("upload") or forms.UploadForm(prefix="up")
    ctx["download_url"] = url(source, view.with_(redo=""), lang) + ("&" if "?" in url(source, view.with_(redo=""), lang) else "?") + "download=json"
    if source.kind == "shared":
        ctx["share_url"] = request.build_absolute_uri(url(source, view.with_(redo="", sel="", hex="", tool="select"), lang))
    if hex_book:
        answer = ask.get("answer")
        sectors = answer.sectors if answer is not None and answer.sectors else {}
        if not sectors and selected and selected.get("facing"):
            sectors = answers.adjacent_sectors(data, selected)
        ctx["svg"] = mark_safe(svg.render_map(
            data, href_prefix=hex_href_prefix(source, view, lang), labels=_labels(), selected=sel_id or None,
            focus=view.hex or (selected.get("hexes") or [""])[0] if selected else view.hex,
            marks=answer.marks if answer is not None else (), sectors=sectors))
        ctx.update(_panels(source, view, selected, forms_, data))
    elif not scenario_problems:
        if book in BOARD_BOOKS:
            ctx["board_book"] = True
            ctx["tools"] = BOARD_TOOL_CHOICES()
            ctx["svg"] = mark_safe(_editable_board_svg(source, loaded, ask.get("answer"), view, sel_id, lang))
            ctx.update(_board_panels(source, view, selected, forms_, data))
        else:
            ctx["svg"] = mark_safe(_board_svg(book, loaded, ask.get("answer"), view))
    else:
        ctx["svg"] = ""
    return ctx


def _hidden_inputs(items, skip=()) -> str:
    from django.utils.html import format_html_join

    return format_html_join("", '<input type="hidden" name="{}" value="{}">',
                            ((k, v) for k, v in items if k not in skip))


def _int(value: Any, default: int) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def _board_svg(book: str, loaded, answer, view: ViewState) -> str:
    """A tabletop board drawn by the engine's own SVG module (its text is escaped there)."""
    if loaded is None:
        return ""
    try:
        from importlib import import_module

        drawing = import_module(f"rulesref.engine.{book}.svg")
        result = answer.result if answer is not None else None
        return drawing.render(loaded, result, arcs_of=view.sel or None)
    except Exception:  # the drawing is an extra; the page stays usable without it
        import logging

        logging.getLogger(__name__).exception("board drawing failed for %s", book)
        return ""


BOARD_BOOKS = frozenset({"t9a"})  # tabletop books with a board editor (rulesref/checker/boardedit.py)


def _editable_board_svg(source: Source, loaded, answer, view: ViewState, sel_id: str, lang: str) -> str:
    """The board with units that select themselves and carry their centre for the script (``boardsvg``)."""
    if loaded is None:
        return ""
    try:
        return boardsvg.render(loaded, answer.result if answer is not None else None, selected=sel_id or None,
                               href_prefix=unit_href_prefix(source, view, lang),
                               selected_terrain=view.terrain or None,
                               terrain_href_prefix=unit_href_prefix(source, view, lang, "terrain"),
                               labels={"board": _("Board"), "unit": _("Unit {unit}"),
                                       "terrain": _("Terrain piece {terrain}")})
    except Exception:  # the drawing is an extra; the page stays usable without it
        import logging

        logging.getLogger(__name__).exception("board drawing failed for %s", source.book)
        return ""


def unit_href_prefix(source: Source, view: ViewState, lang: str, name: str = "sel") -> str:
    """The address that selects a unit (``sel``) or a terrain piece (``terrain``) once its id is added; selecting
    one clears the other."""
    from urllib.parse import urlencode

    items = list(source.base_query().items()) + view.with_(sel="", terrain="").query()
    return source.path(lang) + "?" + (urlencode(items) + "&" if items else "") + name + "="


def BOARD_TOOL_CHOICES():
    return [("select", _("Select and drag"), "s"), ("place", _("Place units"), "p"),
            ("place-terrain", _("Place terrain"), "t")]


def board_panels() -> list[tuple[str, str]]:
    """The tabs of the board's scenario panel, in the reader's language."""
    return [("terrain", _("Terrain pieces")), ("charges", _("Declared charges")), ("pursuit", _("Pursuit"))]


def _board_panels(source: Source, view: ViewState, selected, forms_: dict, data) -> dict[str, Any]:
    sides = boardedit.sides(data)
    board = data.get("board") or {}
    out: dict[str, Any] = {
        "sides": sides, "place_side": view.side if view.side in sides else sides[0],
        "place_form": forms_.get("place") or {"x": "", "y": "", "width": boardedit.DEFAULT_SIZE[0],
                                               "depth": boardedit.DEFAULT_SIZE[1],
                                               "advance_rate": boardedit.DEFAULT_ADVANCE_RATE, "missile": ""},
        "missile_choices": boardedit.MISSILE_CHOICES,
        "board_width": board.get("width", ""), "board_depth": board.get("depth", ""),
        "rotations": [(d, ("⟲ " if d < 0 else "⟳ ") + f"{abs(d)}°", key,
                       (_("Turn %(n)s° back") if d < 0 else _("Turn %(n)s° clockwise")) % {"n": abs(d)})
                      for d, key in ((-90, ""), (-15, "rotate-back"), (15, "rotate"), (90, ""))],
    }
    move = forms_.get("move") or {}
    out["move_errors"] = move.get("errors") or {}
    out["place_errors"] = (forms_.get("place") or {}).get("errors") or {}
    if selected is not None:
        out["bunit_form"] = forms_.get("bunit") or boardedit.BoardUnitForm(
            prefix="bu", initial=boardedit.BoardUnitForm.initial_for(selected))
        centre = selected.get("centre") or [0, 0]
        out["sel_x"], out["sel_y"] = move.get("x", centre[0]), move.get("y", centre[1])
        out["sel_facing"] = move.get("facing", selected.get("facing", 0))
    out.update(_board_scenario_panels(source, view, forms_, data))
    return out


def _board_scenario_panels(source: Source, view: ViewState, forms_: dict, data) -> dict[str, Any]:
    """The selected terrain piece and the scenario panel's tabs: terrain, declared charges, pursuit (the open tab's
    forms only; with the place-terrain tool the terrain tab is open, for its form takes the board's clicks)."""
    lang = current_language()
    panel = "terrain" if view.tool == "place-terrain" else view.panel
    tab_view = view.with_(tool="select") if view.tool == "place-terrain" else view
    out: dict[str, Any] = {"board_panel": panel, "board_tabs": [
        (key, label, url(source, tab_view.with_(panel="" if panel == key else key), lang))
        for key, label in board_panels()]}
    pieces = [t for t in data.get("terrain") or [] if isinstance(t, dict)]
    piece = next((t for t in pieces if t.get("id") == view.terrain), None)
    if piece is not None:
        out["sel_terrain"] = piece
        out["terrain_form"] = forms_.get("terrain") or boardedit.TerrainForm(
            prefix="te", initial=boardedit.TerrainForm.initial_for(piece))
    units = boardedit.unit_choices(data)
    labels = dict(units)
    if panel == "terrain":
        select = unit_href_prefix(source, view, lang, "terrain")
        out["pieces"] = [{"id": t.get("id"), "name": t.get("name", ""), "impassable": t.get("impassable"),
                          "obscuring": t.get("obscuring"), "url": select + str(t.get("id")),
                          "selected": t is piece} for t in pieces]
        board = data.get("board") or {}
        out["new_terrain_form"] = forms_.get("newterrain") or boardedit.NewTerrainForm(prefix="nt", initial={
            "x": boardedit.number((board.get("width") or 0) / 2), "y": boardedit.number((board.get("depth") or 0) / 2),
            "width": boardedit.DEFAULT_TERRAIN_SIZE[0], "depth": boardedit.DEFAULT_TERRAIN_SIZE[1], "rotation": 0})
    elif panel == "charges":
        out["charges"] = [{"charger": labels.get(c.get("charger"), c.get("charger")),
                           "target": labels.get(c.get("target"), c.get("target"))}
                          for c in data.get("declared_charges") or [] if isinstance(c, dict)]
        out["charge_form"] = forms_.get("charge") or boardedit.ChargeForm(prefix="ch", units=units)
    elif panel == "pursuit":
        pursuit = data.get("pursuit") if isinstance(data.get("pursuit"), dict) else {}
        fled = [f for f in pursuit.get("fled") or [] if isinstance(f, dict)]
        out["fled"] = [{"unit": labels.get(f.get("unit"), f.get("unit")), "roll": boardedit.roll_text(f.get("roll")),
                        "roll_input": boardedit.roll_input(f.get("roll")), "destroyed": f.get("destroyed")}
                       for f in fled]
        out["pursuers"] = [{"unit": labels.get(p.get("unit"), p.get("unit")),
                            "pursues": labels.get(p.get("pursues"), p.get("pursues")),
                            "roll": boardedit.roll_text(p.get("roll")), "roll_input": boardedit.roll_input(p.get("roll"))}
                           for p in pursuit.get("pursuers") or [] if isinstance(p, dict)]
        out["has_pursuit"] = bool(pursuit)
        out["fled_form"] = forms_.get("fled") or boardedit.FledForm(prefix="fl", units=units)
        if fled:
            out["pursuer_form"] = forms_.get("pursuer") or boardedit.PursuerForm(
                prefix="pu", units=units, fled=boardedit.fled_choices(data))
            out["melee_form"] = forms_.get("melee") or boardedit.MeleeForm(
                prefix="me", units=units, initial={"melee": list(pursuit.get("melee") or [])})
    return out


def _scenario_title(source: Source, lang: str) -> str:
    if source.kind == "example":
        return source.example.title(lang)[0]
    title, _in = books.text_in(source.data.get("title"), lang)
    return title


def TOOL_CHOICES():
    return [("select", _("Select and move"), "s"), ("place", _("Place units"), "p"), ("terrain", _("Paint terrain"), "t"),
            ("dead", _("Dead zones"), "z"), ("los", _("Blocks line of sight"), "l"), ("erase", _("Remove units"), "x")]


def _panels(source: Source, view: ViewState, selected, forms_: dict, data) -> dict[str, Any]:
    sides = hexedit.sides(data)
    out: dict[str, Any] = {"sides": sides, "place_side": view.side if view.side in sides else sides[0],
                           "unit_types": forms.UNIT_TYPE_CHOICES, "two_hex_types": hexedit.TWO_HEX_TYPES,
                           "order_choices": forms.ORDER_CHOICES}
    m = data.get("map") or {}
    terrain_names = set(books_terrain_types(data)) | set((m.get("terrain") or {}).values()) | {m.get("terrain_default", "clear")}
    out["terrain_names"] = sorted(terrain_names)
    if selected is not None:
        out["unit_form"] = forms_.get("unit") or forms.UnitForm(prefix="u", scenario=data, unit=selected,
                                                                initial=forms.UnitForm.initial_for(selected))
        event = (data.get("moment") or {}).get("event") or {}
        is_event = event.get("unit") == selected.get("id")
        out["is_event_unit"] = is_event
        out["event_form"] = forms_.get("event") or forms.EventForm(prefix="ev", initial={
            "action": event.get("action", "move") if is_event else "move",
            "from_hexes": " ".join(event.get("from", [])) if is_event else " ".join(hexedit.step_back(data, selected)),
            "mp": event.get("mp", 1) if is_event else 1})
        out["can_rotate"] = bool(selected.get("facing"))
    lang = current_language()
    out["panels"] = [(key, label, url(source, view.with_(panel="" if view.panel == key else key), lang))
                     for key, label in (("map", _("Map and title")), ("edges", _("Friendly map edges")),
                                        ("wings", _("Wings and orders")), ("moment", _("The moment of play")),
                                        ("tables", _("Table rows the corpus lacks")))]
    moment = data.get("moment") or {}
    out["moment"] = moment
    # Only the open part of the scenario panel is built: forms are the slowest part of the page.
    if view.panel == "map":
        out["map_form"] = forms_.get("map") or forms.MapForm(prefix="m", initial=forms.MapForm.initial_for(data))
    elif view.panel == "edges":
        out["edges_form"] = forms_.get("edges") or forms.EdgesForm(prefix="e", sides=sides,
                                                                   initial=forms.EdgesForm.initial_for(data, sides))
    elif view.panel == "wings":
        out["wing_form"] = forms_.get("wing") or forms.WingForm(prefix="w", initial={"side": sides[0],
                                                                                     "order": "charge"})
        out["wings"] = [w for w in data.get("wings") or [] if isinstance(w, dict)]
    elif view.panel == "moment":
        out["moment_form"] = forms_.get("moment") or forms.MomentForm(prefix="mo", initial={
            "phase": moment.get("phase", ""), "wing_has_acted": moment.get("wing_has_acted", False)})
    elif view.panel == "tables":
        out["rows_form"] = forms_.get("rows") or forms.InterceptionRowsForm(
            prefix="ir", initial=forms.InterceptionRowsForm.initial_for(data))
        out["tables_form"] = forms_.get("tables") or forms.TablesForm(prefix="tb",
                                                                      initial=forms.TablesForm.initial_for(data))
    if view.hex:
        out["hex_units"] = [{"id": u.get("id"), "side": u.get("side"), "type": u.get("type"),
                             "url": url(source, view.with_(sel=str(u.get("id"))), current_language())}
                            for u in hexedit.units_at(data, view.hex)]
        out["hex_terrain"] = (m.get("terrain") or {}).get(view.hex, m.get("terrain_default", "clear"))
        out["hex_dead"] = view.hex in (m.get("dead_zones") or [])
        out["hex_los"] = view.hex in (m.get("los_blocking") or [])
    return out


def books_terrain_types(data) -> list[str]:
    from rulesref.engine.mpbs import tables as mpbs_tables  # the defaults the engine reads

    try:
        types = mpbs_tables.build_tables(data.get("tables", {}), data.get("terrain_types", {})).terrain
        return list(types)
    except Exception:
        return ["clear", "woods", "rough", "town"]


def _page(request, source: Source, view: ViewState, status: int = 200, **extra) -> HttpResponse:
    ctx = _context(request, source, view, **extra)
    if request.htmx and not request.htmx.boosted:
        response = render(request, "checker/editor.html#editor", ctx, status=200)
        return response
    return render(request, "checker/editor.html", ctx, status=status)


# --- changes ----------------------------------------------------------------------------------------------------


PANEL_OF = {"map": "map", "edges": "edges", "wing": "wings", "moment": "moment", "rows": "tables", "tables": "tables",
            "newterrain": "terrain", "charge": "charges", "fled": "pursuit", "pursuer": "pursuit", "melee": "pursuit"}


class Rejected(Exception):
    """An edit the engine (or the form) refused: the page is shown again with the problems, nothing is stored."""

    def __init__(self, message: str = "", problems=None, forms_=None):
        super().__init__(message)
        self.message = message
        self.problems = problems or []
        self.forms = forms_ or {}


def _post(request, source: Source):
    view = ViewState.read(request.POST, source.book)
    action = request.POST.get("action", "")
    handler = ACTIONS.get(action)
    # Each kind of book has its own edits; the shared ones (share, upload) are in both.
    if source.book in BOARD_BOOKS:
        handler = BOARD_ACTIONS.get(action) or (handler if action in SHARED_ACTIONS else None)
    elif action in BOARD_ACTIONS:
        handler = None
    if handler is None:
        return _page(request, source, view, status=400, message=_("Unknown action."))
    try:
        result = handler(request, source, view)
    except hexedit.EditError as exc:
        return _page(request, source, view, status=422, message=str(exc))
    except Rejected as exc:
        panel = next((PANEL_OF[k] for k in exc.forms if k in PANEL_OF), view.panel)
        view = view.with_(panel=panel)
        return _page(request, source, view, status=422, message=exc.message, problems=exc.problems, forms_=exc.forms,
                     upload_report=getattr(exc, "upload_report", None))
    if isinstance(result, HttpResponse):
        return result
    new_data, new_view, message = result
    if new_data is None or new_data == source.data:
        target = source
    else:
        problems = validate(source.book, new_data)
        if problems:
            raise_message = message_for(problems)
            return _page(request, source, view, status=422, message=raise_message, problems=problems)
        parent = source.draft if source.kind == "draft" else None
        draft = Draft.make(source.book, new_data, parent, origin=source.origin)
        target = Source("draft", source.book, new_data, draft=draft)
        new_view = new_view.with_(redo="")
    return _moved(request, target, new_view, message)


def message_for(problems: list[tuple[str, str]]) -> str:
    return ngettext("The change was not made: %(n)s problem.", "The change was not made: %(n)s problems.",
                    len(problems)) % {"n": len(problems)}


def _moved(request, target: Source, view: ViewState, message: str = "") -> HttpResponse:
    lang = current_language()
    address = url(target, view, lang)
    if request.htmx:
        if target.kind == "draft":
            target.draft.note_opened()  # shown right here, as the redirect's page would open it
        response = render(request, "checker/editor.html#editor", _context(request, target, view, message=message))
        response["HX-Push-Url"] = address
        return response
    return _see_other(address)


def _see_other(address: str) -> HttpResponse:
    response = HttpResponse(status=303)
    response["Location"] = address
    return response


def _hex_from(request) -> str:
    label = (request.POST.get("at") or "").strip()
    if not label:
        raise hexedit.EditError(_("Choose a hex first."))
    return label[:8]


def act_click(request, source: Source, view: ViewState):
    """A click on a hex with the current tool."""
    label = _hex_from(request)
    data = source.data
    here = hexedit.units_at(data, label)
    tool = view.tool
    if tool == "place":
        if here:
            return None, view.with_(sel=here[-1]["id"], hex=label), ""
        side = view.side if view.side else hexedit.sides(data)[0]
        new, uid = hexedit.place_unit(data, label, side, view.kind, view.two)
        return new, view.with_(sel=uid, hex=label), _("%(unit)s placed in %(hex)s.") % {"unit": uid, "hex": label}
    if tool == "terrain":
        return hexedit.paint_terrain(data, label, view.paint), view.with_(hex=label), ""
    if tool == "dead":
        return hexedit.toggle_hex_list(data, label, "dead_zones"), view.with_(hex=label), ""
    if tool == "los":
        return hexedit.toggle_hex_list(data, label, "los_blocking"), view.with_(hex=label), ""
    if tool == "erase":
        if not here:
            return None, view.with_(hex=label), ""
        uid = here[-1]["id"]
        return hexedit.remove_unit(data, uid), view.with_(sel="" if view.sel == uid else view.sel, hex=label), \
            _("%(unit)s removed.") % {"unit": uid}
    # select and move
    selected_here = [u for u in here if u.get("id") == view.sel]
    if here and not selected_here:
        return None, view.with_(sel=here[-1]["id"], hex=label), ""
    if selected_here:
        if len(here) > 1:  # a stack: cycle through its units
            ids = [u["id"] for u in here]
            return None, view.with_(sel=ids[(ids.index(view.sel) + 1) % len(ids)], hex=label), ""
        return None, view.with_(hex=label), ""
    if view.sel and any(u.get("id") == view.sel for u in data.get("units") or []):
        return hexedit.move_unit(data, view.sel, label), view.with_(hex=label), \
            _("%(unit)s moved to %(hex)s.") % {"unit": view.sel, "hex": label}
    return None, view.with_(hex=label), ""


def act_place(request, source, view):
    label = _hex_from(request)
    side = (request.POST.get("place_side") or view.side or hexedit.sides(source.data)[0]).strip()
    kind = request.POST.get("place_kind") or view.kind
    two = request.POST.get("place_two") in ("1", "on")
    new, uid = hexedit.place_unit(source.data, label, side, kind, two)
    return new, view.with_(sel=uid, hex=label), _("%(unit)s placed in %(hex)s.") % {"unit": uid, "hex": label}


def act_move(request, source, view):
    label = _hex_from(request)
    return hexedit.move_unit(source.data, view.sel, label), view.with_(hex=label), \
        _("%(unit)s moved to %(hex)s.") % {"unit": view.sel, "hex": label}


def act_paint(request, source, view):
    label = _hex_from(request)
    kind = (request.POST.get("paint") or view.paint).strip()[:40]
    return hexedit.paint_terrain(source.data, label, kind), view.with_(hex=label, paint=kind), ""


def act_toggle(request, source, view):
    label = _hex_from(request)
    key = "dead_zones" if request.POST.get("what") == "dead" else "los_blocking"
    return hexedit.toggle_hex_list(source.data, label, key), view.with_(hex=label), ""


def act_rotate(request, source, view):
    try:
        steps = int(request.POST.get("steps", "1"))
    except ValueError:
        steps = 1
    steps = max(-3, min(3, steps))
    pivot = view.hex or None
    return hexedit.rotate_unit(source.data, view.sel, steps, pivot), view, ""


def act_remove(request, source, view):
    uid = view.sel
    return hexedit.remove_unit(source.data, uid), view.with_(sel=""), _("%(unit)s removed.") % {"unit": uid}


def act_unit(request, source, view):
    data = source.data
    i = hexedit.unit_index(data, view.sel)
    unit = data["units"][i]
    form = forms.UnitForm(request.POST, prefix="u", scenario=data, unit=unit)
    if not form.is_valid():
        raise Rejected(_("Check the unit's fields."), forms_={"unit": form})
    new, new_id = form.apply(data, view.sel)
    problems = validate(source.book, new)
    if problems:
        # Find the unit's new index: the form's fields take the problems of that unit.
        j = hexedit.unit_index(new, new_id)
        rest = forms.attach_problems(form, problems, prefix=f"units[{j}]")
        raise Rejected(message_for(problems), problems=rest, forms_={"unit": form})
    params = dict(view.params)
    for name, values in params.items():
        params[name] = [new_id if v == view.sel else v for v in values]
    return new, view.with_(sel=new_id, params=params), ""


def _form_edit(request, source, view, key: str, form, prefix_paths: str = ""):
    if not form.is_valid():
        raise Rejected(_("Check the fields."), forms_={key: form})
    new = form.apply(source.data)
    problems = validate(source.book, new)
    if problems:
        rest = forms.attach_problems(form, problems, prefix=prefix_paths)
        raise Rejected(message_for(problems), problems=rest, forms_={key: form})
    return new, view, ""


def act_map(request, source, view):
    return _form_edit(request, source, view, "map", forms.MapForm(request.POST, prefix="m"))


def act_edges(request, source, view):
    sides = hexedit.sides(source.data)
    return _form_edit(request, source, view, "edges", forms.EdgesForm(request.POST, prefix="e", sides=sides))


def act_tables(request, source, view):
    return _form_edit(request, source, view, "tables", forms.TablesForm(request.POST, prefix="tb"))


def act_rows(request, source, view):
    return _form_edit(request, source, view, "rows", forms.InterceptionRowsForm(request.POST, prefix="ir"))


def act_moment(request, source, view):
    form = forms.MomentForm(request.POST, prefix="mo")
    if not form.is_valid():
        raise Rejected(_("Check the fields."), forms_={"moment": form})
    new = hexedit._copy(source.data)
    moment = new.setdefault("moment", {})
    if form.cleaned_data["phase"]:
        moment["phase"] = form.cleaned_data["phase"]
    else:
        moment.pop("phase", None)
    if form.cleaned_data["wing_has_acted"]:
        moment["wing_has_acted"] = True
    else:
        moment.pop("wing_has_acted", None)
    if not moment:
        new.pop("moment")
    return new, view, ""


def act_wing_add(request, source, view):
    form = forms.WingForm(request.POST, prefix="w")
    if not form.is_valid():
        raise Rejected(_("Check the wing's fields."), forms_={"wing": form})
    new = hexedit._copy(source.data)
    wing = {"id": form.cleaned_data["id"].strip(), "side": form.cleaned_data["side"].strip(),
            "order": form.cleaned_data["order"]}
    if any(w.get("id") == wing["id"] for w in new.get("wings") or []):
        form.add_error("id", _("There is already a wing %(id)s.") % {"id": wing["id"]})
        raise Rejected(_("Check the wing's fields."), forms_={"wing": form})
    new.setdefault("wings", []).append(wing)
    problems = validate(source.book, new)
    if problems:
        rest = forms.attach_problems(form, problems, prefix=f"wings[{len(new['wings']) - 1}]")
        raise Rejected(message_for(problems), problems=rest, forms_={"wing": form})
    return new, view, ""


def act_wing_order(request, source, view):
    wid = request.POST.get("wing", "")
    order = request.POST.get("order", "")
    if order not in hexedit.ORDERS:
        raise hexedit.EditError(_("Choose an order."))
    new = hexedit._copy(source.data)
    for w in new.get("wings") or []:
        if w.get("id") == wid:
            w["order"] = order
            return new, view, ""
    raise hexedit.EditError(_("No wing %(id)s.") % {"id": wid})


def act_wing_remove(request, source, view):
    wid = request.POST.get("wing", "")
    new = hexedit._copy(source.data)
    before = len(new.get("wings") or [])
    new["wings"] = [w for w in new.get("wings") or [] if w.get("id") != wid]
    if len(new["wings"]) == before:
        raise hexedit.EditError(_("No wing %(id)s.") % {"id": wid})
    for u in new.get("units") or []:
        if u.get("wing") == wid:
            u.pop("wing")
    moment = new.get("moment") or {}
    if moment.get("active_wing") == wid:
        moment.pop("active_wing")
    return new, view, ""


def act_event(request, source, view):
    data = source.data
    unit = data["units"][hexedit.unit_index(data, view.sel)]
    form = forms.EventForm(request.POST, prefix="ev")
    if not form.is_valid():
        raise Rejected(_("Check the fields."), forms_={"event": form})
    c = form.cleaned_data
    mp = float(c["mp"]) if c["mp"] is not None else None
    if mp is not None and mp.is_integer():
        mp = int(mp)
    new = hexedit.set_event(data, unit["id"], c["action"], hexedit.parse_labels(c["from_hexes"]), mp)
    problems = validate(source.book, new)
    if problems:
        rest = forms.attach_problems(form, problems, prefix="")
        raise Rejected(message_for(problems), problems=rest, forms_={"event": form})
    return new, view, _("%(unit)s is now the moving unit.") % {"unit": unit["id"]}


def act_event_clear(request, source, view):
    return hexedit.clear_event(source.data), view, ""


def act_share(request, source, view):
    saved = SavedScenario.share(source.book, source.data)
    target = Source("shared", source.book, saved.data, saved=saved)
    return _moved(request, target, view.with_(redo="", hex=""), _("Saved. Copy the link to share this position."))


def act_upload(request, source, view):
    form = forms.UploadForm(request.POST, request.FILES, prefix="up")
    if not form.is_valid():
        raise Rejected(_("Choose a file to upload."), forms_={"upload": form})
    upload = form.cleaned_data["file"]
    if upload.size > MAX_UPLOAD:
        form.add_error("file", _("The file is over 1 MB."))
        raise Rejected(_("The file is over 1 MB."), forms_={"upload": form})
    raw = upload.read(MAX_UPLOAD + 1)
    report = {"name": upload.name[:120], "problems": [], "tree": "", "syntax": None}
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        report["problems"] = [("", _("The file is not UTF-8 text (byte %(n)s).") % {"n": exc.start})]
        raise _upload_rejected(report, form)
    try:
        data = storable.loads(text)
    except storable.UnstorableText as exc:
        report["problems"] = exc.problems
        raise _upload_rejected(report, form)
    except storable.NotJSON as exc:
        if exc.line:
            report["syntax"] = _syntax_excerpt(text, exc)
            report["problems"] = [("", _("The file is not JSON: %(error)s at line %(line)s, column %(col)s.") % {
                "error": exc.message, "line": exc.line, "col": exc.column})]
        else:
            report["problems"] = [("", _("The file is not JSON that can be read."))]
        raise _upload_rejected(report, form)
    if isinstance(data, dict) and isinstance(data.get("book"), str) and data["book"] != source.book \
            and books.is_book(data["book"]):
        report["problems"] = [("book", _("This is a %(other)s scenario: open it in the %(other)s checker.") % {
            "other": data["book"]})]
        report["tree"] = render_tree(data, report["problems"])
        raise _upload_rejected(report, form)
    problems = validate(source.book, data)
    if problems:
        report["problems"] = problems
        report["tree"] = render_tree(data, problems)
        raise _upload_rejected(report, form)
    parent = source.draft if source.kind == "draft" else None
    draft = Draft.make(source.book, data, parent, origin=source.origin)
    target = Source("draft", source.book, data, draft=draft)
    return _moved(request, target, ViewState(), _("%(name)s loaded.") % {"name": report["name"]})


def _upload_rejected(report: dict, form) -> Rejected:
    exc = Rejected(ngettext("The file was not loaded: %(n)s problem.", "The file was not loaded: %(n)s problems.",
                            len(report["problems"])) % {"n": len(report["problems"])}, forms_={"upload": form})
    exc.upload_report = report
    return exc


def _syntax_excerpt(text: str, exc: storable.NotJSON) -> dict[str, Any]:
    lines = text.splitlines() or [""]
    n = max(1, min(exc.line, len(lines)))
    start = max(1, n - 2)
    return {"lines": [(i, lines[i - 1][:200], i == n) for i in range(start, min(len(lines), n + 2) + 1)],
            "column": exc.column}


ACTIONS = {
    "click": act_click, "place": act_place, "move": act_move, "paint": act_paint, "toggle": act_toggle,
    "rotate": act_rotate, "remove": act_remove, "unit": act_unit, "map": act_map, "edges": act_edges,
    "tables": act_tables, "rows": act_rows, "moment": act_moment, "wing-add": act_wing_add,
    "wing-order": act_wing_order, "wing-remove": act_wing_remove, "event": act_event, "event-clear": act_event_clear,
    "share": act_share, "upload": act_upload,
}


# --- the tabletop board (t9a) ----------------------------------------------------------------------------------


def _inches(request, name: str, what: str):
    value = (request.POST.get(name) or "").strip()
    if not value:
        raise hexedit.EditError(_("Give a number for %(what)s.") % {"what": what})
    return boardedit.number(value[:40], what)


def validate_unit_edit(book: str, new: dict, unit_id: str) -> list[tuple[str, str]]:
    """The engine's problems with ``new``, where the unit just edited is blamed for its overlaps.

    The engine reports an overlap at the later of the two units: ask again with the edited unit last, so the
    problem lands at the field the player just changed, and map the paths (and indexes in messages) back."""
    problems = validate(book, new)
    if not problems:
        return problems
    try:
        index = boardedit.unit_index(new, unit_id)
    except hexedit.EditError:
        return problems
    units = new["units"]
    last = len(units) - 1
    again = validate(book, {**new, "units": units[:index] + units[index + 1:] + [units[index]]})

    def back(match):
        k = int(match.group(1))
        return f"units[{index if k == last else (k if k < index else k + 1)}]"

    return [(re.sub(r"^units\[(\d+)\]", back, path), re.sub(r"\bunits\[(\d+)\]", back, message))
            for path, message in again] or problems


def _board_checked(source, new: dict, unit_id: str, key: str, values: dict | None = None) -> dict:
    """``new`` if the engine takes it; else Rejected, with the problems of the unit's fields for the form ``key``
    (``errors``: field -> messages, shown next to the x, y and facing inputs) and the rest listed at the top."""
    problems = validate_unit_edit(source.book, new, unit_id)
    if not problems:
        return new
    try:
        prefix = f"units[{boardedit.unit_index(new, unit_id)}]"
    except hexedit.EditError:
        prefix = None
    errors: dict[str, list[str]] = {}
    rest = []
    for path, message in problems:
        if prefix and (path == prefix or path.startswith(prefix + ".")):
            field = path[len(prefix):].lstrip(".").split(".")[0].split("[")[0] or "centre"
            errors.setdefault(field, []).append(message)
        else:
            rest.append((path, message))
    raise Rejected(message_for(problems), problems=rest, forms_={key: {**(values or {}), "errors": errors}})


def act_board_place(request, source, view):
    """Place a unit at the inch coordinates of a click (the script fills x and y) or of the panel's form."""
    p = request.POST
    side = (p.get("place_side") or view.side or boardedit.sides(source.data)[0]).strip()[:40]
    x, y = _inches(request, "x", "x"), _inches(request, "y", "y")
    new, uid = boardedit.place_unit(
        source.data, x, y, side, width=(p.get("place_width") or boardedit.DEFAULT_SIZE[0]),
        depth=(p.get("place_depth") or boardedit.DEFAULT_SIZE[1]),
        advance_rate=(p.get("place_ar") or "").strip()[:200] or boardedit.DEFAULT_ADVANCE_RATE,
        missile_weapons=boardedit.missile_value(p.get("place_missile") or ""), facing=p.get("place_facing") or None)
    values = {"x": x, "y": y, "width": p.get("place_width", "")[:40], "depth": p.get("place_depth", "")[:40],
              "advance_rate": p.get("place_ar", "")[:200], "missile": p.get("place_missile", "")}
    new = _board_checked(source, new, uid, "place", values)
    return new, view.with_(sel=uid, side=side), _("%(unit)s placed at (%(x)s, %(y)s).") % {"unit": uid, "x": x, "y": y}


def act_board_move(request, source, view):
    """Move the selected unit's centre to (x, y) and, when given, turn it to ``facing`` (a drop, or the form)."""
    x, y = _inches(request, "x", "x"), _inches(request, "y", "y")
    new = boardedit.move_unit(source.data, view.sel, x, y)
    if (request.POST.get("facing") or "").strip():
        new = boardedit.set_facing(new, view.sel, _inches(request, "facing", _("Facing")))
    new = _board_checked(source, new, view.sel, "move", {"x": x, "y": y, "facing": request.POST.get("facing", "")[:40]})
    return new, view, _("%(unit)s moved to (%(x)s, %(y)s).") % {"unit": view.sel, "x": x, "y": y}


def act_board_rotate(request, source, view):
    degrees = _inches(request, "degrees", _("Turn"))
    degrees = max(-360, min(360, degrees))
    new = boardedit.rotate_unit(source.data, view.sel, degrees)
    return _board_checked(source, new, view.sel, "move"), view, ""


def act_board_remove(request, source, view):
    uid = view.sel
    params = {k: [v for v in vs if v != uid] for k, vs in view.params.items()}
    return boardedit.remove_unit(source.data, uid), view.with_(sel="", params={k: v for k, v in params.items() if v}), \
        _("%(unit)s removed.") % {"unit": uid}


def act_board_unit(request, source, view):
    data = source.data
    boardedit.unit_index(data, view.sel)
    form = boardedit.BoardUnitForm(request.POST, prefix="bu")
    if not form.is_valid():
        raise Rejected(_("Check the unit's fields."), forms_={"bunit": form})
    try:
        new, new_id = form.apply(data, view.sel)
    except hexedit.EditError as exc:
        raise Rejected(str(exc), forms_={"bunit": form}) from None
    problems = validate_unit_edit(source.book, new, new_id)
    if problems:
        j = boardedit.unit_index(new, new_id)
        rest = forms.attach_problems(form, problems, prefix=f"units[{j}]")
        raise Rejected(message_for(problems), problems=rest, forms_={"bunit": form})
    params = {name: [new_id if v == view.sel else v for v in values] for name, values in view.params.items()}
    return new, view.with_(sel=new_id, params=params), ""


def act_board_size(request, source, view):
    width, depth = _inches(request, "width", _("Width")), _inches(request, "depth", _("Depth"))
    return boardedit.set_board(source.data, width, depth), view, ""


def _board_form_edit(source, key: str, form, apply, where) -> dict:
    """``apply(form)``'s new scenario if the form is valid and the engine takes the result; else Rejected with every
    problem at the form: at its field (``where(new)`` is the path of the edited part) or as the form's own error,
    for this edit is what caused it."""
    if not form.is_valid():
        raise Rejected(_("Check the fields."), forms_={key: form})
    try:
        new = apply(form)
    except hexedit.EditError as exc:
        if not form.errors:
            form.add_error(None, str(exc))
        raise Rejected(str(exc), forms_={key: form}) from None
    problems = validate(source.book, new)
    if problems:
        for path, message in forms.attach_problems(form, problems, prefix=where(new)):
            form.add_error(None, f"{path}: {message}")
        raise Rejected(message_for(problems), forms_={key: form})
    return new


def _last(*path: str):
    """The path of the last entry of the list at ``path`` in a scenario (the one an edit has just added)."""
    def where(new: dict) -> str:
        items = new
        for key in path:
            items = items[key]
        return f"{'.'.join(path)}[{len(items) - 1}]"
    return where


def act_board_terrain_add(request, source, view):
    """Add a rectangular terrain piece: from the terrain tab's form, or where the board was clicked."""
    form = boardedit.NewTerrainForm(request.POST, prefix="nt")
    new = _board_form_edit(source, "newterrain", form, lambda f: f.apply(source.data)[0], _last("terrain"))
    tid = new["terrain"][-1]["id"]
    return new, view.with_(terrain=tid, sel=""), _("%(terrain)s added.") % {"terrain": tid}


def act_board_terrain(request, source, view):
    """Change the selected terrain piece: its id, name, flags and corners."""
    index = boardedit.terrain_index(source.data, view.terrain)
    form = boardedit.TerrainForm(request.POST, prefix="te")
    new = _board_form_edit(source, "terrain", form, lambda f: f.apply(source.data, view.terrain)[0],
                           lambda new: f"terrain[{index}]")
    return new, view.with_(terrain=form.cleaned_data["id"]), ""


def act_board_terrain_remove(request, source, view):
    tid = view.terrain
    return boardedit.remove_terrain(source.data, tid), view.with_(terrain=""), \
        _("%(terrain)s removed.") % {"terrain": tid}


def act_board_charge_add(request, source, view):
    form = boardedit.ChargeForm(request.POST, prefix="ch", units=boardedit.unit_choices(source.data))
    new = _board_form_edit(source, "charge", form, lambda f: f.apply(source.data), _last("declared_charges"))
    return new, view.with_(panel="charges"), _("Charge declared: %(charger)s against %(target)s.") % {
        "charger": form.cleaned_data["charger"], "target": form.cleaned_data["target"]}


def act_board_charge_remove(request, source, view):
    return boardedit.remove_charge(source.data, request.POST.get("index")), view.with_(panel="charges"), ""


def act_board_charge_move(request, source, view):
    return boardedit.move_charge(source.data, request.POST.get("index"), request.POST.get("step", "")), \
        view.with_(panel="charges"), ""


def act_board_fled_add(request, source, view):
    form = boardedit.FledForm(request.POST, prefix="fl", units=boardedit.unit_choices(source.data))
    new = _board_form_edit(source, "fled", form, lambda f: f.apply(source.data), _last("pursuit", "fled"))
    return new, view.with_(panel="pursuit"), ""


def act_board_pursuer_add(request, source, view):
    form = boardedit.PursuerForm(request.POST, prefix="pu", units=boardedit.unit_choices(source.data),
                                 fled=boardedit.fled_choices(source.data))
    new = _board_form_edit(source, "pursuer", form, lambda f: f.apply(source.data), _last("pursuit", "pursuers"))
    return new, view.with_(panel="pursuit"), ""


def act_board_melee(request, source, view):
    form = boardedit.MeleeForm(request.POST, prefix="me", units=boardedit.unit_choices(source.data))
    new = _board_form_edit(source, "melee", form, lambda f: f.apply(source.data), lambda new: "pursuit")
    return new, view.with_(panel="pursuit"), ""


def act_board_pursuit_remove(request, source, view):
    """Remove a fled unit (with the pursuers that chased it) or a pursuer, by its place in its list."""
    remove = boardedit.remove_fled if request.POST.get("what") == "fled" else boardedit.remove_pursuer
    return remove(source.data, request.POST.get("index")), view.with_(panel="pursuit"), ""


def act_board_roll(request, source, view):
    """A new roll for a fled unit or a pursuer, by its place in its list."""
    what = "fled" if request.POST.get("what") == "fled" else "pursuer"
    return boardedit.set_roll(source.data, what, request.POST.get("index"), request.POST.get("roll", "")[:20]), \
        view.with_(panel="pursuit"), ""


def act_board_pursuer_move(request, source, view):
    return boardedit.move_pursuer(source.data, request.POST.get("index"), request.POST.get("step", "")), \
        view.with_(panel="pursuit"), ""


def act_board_pursuit_clear(request, source, view):
    return boardedit.clear_pursuit(source.data), view.with_(panel="pursuit"), _("The pursuit was cleared.")


SHARED_ACTIONS = frozenset({"share", "upload"})
BOARD_ACTIONS = {
    "board-place": act_board_place, "board-move": act_board_move, "board-rotate": act_board_rotate,
    "board-remove": act_board_remove, "board-unit": act_board_unit, "board-size": act_board_size,
    "board-terrain-add": act_board_terrain_add, "board-terrain": act_board_terrain,
    "board-terrain-remove": act_board_terrain_remove, "board-charge-add": act_board_charge_add,
    "board-charge-remove": act_board_charge_remove, "board-charge-move": act_board_charge_move,
    "board-fled-add": act_board_fled_add, "board-pursuer-add": act_board_pursuer_add,
    "board-melee": act_board_melee, "board-pursuit-remove": act_board_pursuit_remove,
    "board-pursuer-move": act_board_pursuer_move, "board-pursuit-clear": act_board_pursuit_clear,
    "board-roll": act_board_roll,
}
