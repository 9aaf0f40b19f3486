// Scenario editor: a click on the map or board uses the current tool (a POST through htmx, the same as the panel's
// buttons; with the measure tool, a GET that picks what was clicked); arrow keys move between hexes, shortcut keys
// choose tools, turn, remove, undo and redo; the zoom buttons size the drawing, kept across edits. Without this
// script, each hex and unit is a link that chooses it and the side panel offers the actions as forms.
(function () {
  "use strict";
  var lastHex = null;

  function editor() { return document.getElementById("editor"); }
  function tool(ed) { return ed.getAttribute("data-tool"); }

  function hiddenFields(ed) {
    // The view state the panel's forms carry: take it from the first POST form.
    var form = ed.querySelector("form[method=post]");
    var values = {};
    if (!form) return values;
    form.querySelectorAll("input[type=hidden]").forEach(function (input) {
      if (input.name !== "action" && input.name !== "at" && input.name !== "csrfmiddlewaretoken") values[input.name] = input.value;
    });
    return values;
  }

  // Requests of the editor in flight: an edit made while one is out (a drag right after choosing a tool, a second
  // pick of the measure tool tapped before the first has come back) is sent once the page it answers has come
  // back, to that page, so the two land in the order they were made (htmx itself would drop the second).
  var inflight = 0, pending = [];
  function post(ed, values) {
    if (inflight > 0) { pending.push(function (now) { post(now, values); }); return; }
    var all = hiddenFields(ed);
    all.tool = tool(ed);  // the tool chosen, even if the page that says so is still on its way
    Object.keys(values).forEach(function (k) { all[k] = values[k]; });
    window.htmx.ajax("POST", ed.getAttribute("data-page"), { source: ed, target: ed, swap: "outerHTML", values: all });
  }

  function get(ed, href, push) {
    window.htmx.ajax("GET", href, { source: ed, target: ed, swap: "outerHTML" }).then(function () {
      if (push) window.history.pushState({}, "", href);
    });
  }

  function pick(ed, value) {
    // The measure tool: the page's address with one more pick (the server keeps the last two and says where).
    if (inflight > 0) { pending.push(function (now) { pick(now, value); }); return; }
    var url = new URL(ed.getAttribute("data-page"), window.location.href);
    url.searchParams.set("pick", value);
    get(ed, url.pathname + url.search, false);
  }

  // A tool takes effect at once, before the page comes back: a drag right after switching tools works.
  document.addEventListener("change", function (event) {
    var ed = editor();
    if (ed && event.target.name === "tool" && event.target.type === "radio") ed.setAttribute("data-tool", event.target.value);
  });

  document.addEventListener("click", function (event) {
    var hex = event.target.closest && event.target.closest("svg.hexmap [data-hex]");
    var ed = editor();
    if (!hex || !ed || !window.htmx || event.ctrlKey || event.metaKey || event.shiftKey) return;
    event.preventDefault();
    lastHex = hex.getAttribute("data-hex");
    if (tool(ed) === "measure") pick(ed, "h:" + lastHex);
    else post(ed, { action: "click", at: lastHex });
  });

  function hexAt(ed, col, row, width) {
    var pad = function (n) { var s = String(n); while (s.length < width) s = "0" + s; return s; };
    return ed.querySelector('svg.hexmap a.hx[data-hex="' + pad(col) + pad(row) + '"]');
  }

  function focusHex(ed, label) {
    var target = label && ed.querySelector('svg.hexmap a.hx[data-hex="' + label + '"]');
    if (!target) return false;
    ed.querySelectorAll("svg.hexmap a.hx[tabindex='0']").forEach(function (a) { a.setAttribute("tabindex", "-1"); });
    target.setAttribute("tabindex", "0");
    target.focus({ preventScroll: true });
    return true;
  }

  function press(ed, key) {
    var el = ed.querySelector('[data-key="' + key + '"]');
    if (!el) return false;
    el.click();
    return true;
  }

  function arrowKey(ed, hex, key) {
    var label = hex.getAttribute("data-hex");
    var w = label.length / 2;
    var col = parseInt(label.slice(0, w), 10), row = parseInt(label.slice(w), 10);
    col += key === "ArrowLeft" ? -1 : key === "ArrowRight" ? 1 : 0;
    row += key === "ArrowUp" ? -1 : key === "ArrowDown" ? 1 : 0;
    var next = hexAt(ed, col, row, w);
    if (next) focusHex(ed, next.getAttribute("data-hex"));
  }

  document.addEventListener("keydown", function (event) {
    var ed = editor();
    if (!ed) return;
    var t = event.target;
    var typing = t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT" || t.isContentEditable);
    var ctrl = event.ctrlKey || event.metaKey;
    if (ctrl && !typing && (event.key === "z" || event.key === "Z" || event.key === "y" || event.key === "Y")) {
      if (press(ed, event.shiftKey || event.key === "y" || event.key === "Y" ? "redo" : "undo")) event.preventDefault();
      return;
    }
    if (typing || ctrl || event.altKey) return;
    var hex = t.closest && t.closest("svg.hexmap a.hx");
    if (hex && /^Arrow/.test(event.key)) { arrowKey(ed, hex, event.key); event.preventDefault(); return; }
    if (hex && (event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      hex.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true }));
      return;
    }
    if (event.key === "r" || event.key === "R") { if (press(ed, event.shiftKey ? "rotate-back" : "rotate")) event.preventDefault(); return; }
    if (event.key === "Delete" || event.key === "Backspace") { if (press(ed, "remove")) event.preventDefault(); return; }
    if (event.key === "Escape") {
      var page = new URL(ed.getAttribute("data-page"), window.location.href);
      if (page.searchParams.has("sel") || page.searchParams.has("terrain") || page.searchParams.has("m")) {
        ["sel", "terrain", "m"].forEach(function (name) { page.searchParams.delete(name); });
        get(ed, page.pathname + page.search, true);
      }
      return;
    }
    var radio = ed.querySelector('input[name=tool][data-shortcut="' + event.key.toLowerCase() + '"]');
    if (radio && !radio.checked) { radio.checked = true; radio.dispatchEvent(new Event("change", { bubbles: true })); }
  });

  // The tabletop board (t9a): its viewBox is in inches (y turned to run down the page), so a pointer's board
  // position is the SVG point plus data-minx, and data-maxy minus it. Drag a unit to move it (its centre is
  // posted on drop); with the place tool a click on the board fills the place form's x and y and sends it, with
  // the place-terrain tool the new terrain piece's; with the measure tool a click picks the unit or the point.
  // Otherwise a click on a unit or a terrain piece selects it.
  var PLACE_FORMS = { "place": "#board-place", "place-terrain": "#terrain-add" };
  function boardPoint(svg, event) {
    var p = svg.createSVGPoint();
    p.x = event.clientX; p.y = event.clientY;
    p = p.matrixTransform(svg.getScreenCTM().inverse());
    return { x: p.x + parseFloat(svg.getAttribute("data-minx")), y: parseFloat(svg.getAttribute("data-maxy")) - p.y, sx: p.x, sy: p.y };
  }
  function round2(n) { return Math.round(n * 100) / 100; }
  var drag = null, dragged = false;

  document.addEventListener("pointerdown", function (event) {
    dragged = false;
    var unit = event.target.closest && event.target.closest("svg.tboard a.bunit");
    var ed = editor();
    if (!unit || !ed || event.button !== 0 || tool(ed) !== "select") return;
    var svg = unit.ownerSVGElement;
    drag = { unit: unit, svg: svg, start: boardPoint(svg, event), moved: false };
    svg.setPointerCapture(event.pointerId);
  });
  document.addEventListener("pointermove", function (event) {
    if (!drag) return;
    var p = boardPoint(drag.svg, event);
    var dx = p.sx - drag.start.sx, dy = p.sy - drag.start.sy;
    if (!drag.moved && Math.abs(dx) + Math.abs(dy) < 0.3) return;
    drag.moved = true;
    drag.svg.classList.add("dragging");
    drag.unit.setAttribute("transform", "translate(" + dx + " " + dy + ")");
  });
  document.addEventListener("pointerup", function (event) {
    if (!drag) return;
    var d = drag, ed = editor();
    drag = null;
    if (!d.moved || !ed) return;
    dragged = true;
    var p = boardPoint(d.svg, event);
    post(ed, { action: "board-move", sel: d.unit.getAttribute("data-unit"), facing: "",
               x: round2(parseFloat(d.unit.getAttribute("data-x")) + p.x - d.start.x),
               y: round2(parseFloat(d.unit.getAttribute("data-y")) + p.y - d.start.y) });
  });
  // A finger on a unit drags the unit, not the page: Chromium ignores touch-action on SVG children, so the
  // first touchmove of a drag is cancelled here (the listener must not be passive), and a drag the browser
  // cancels anyway (a system gesture) puts the unit back.
  document.addEventListener("touchmove", function (event) { if (drag) event.preventDefault(); }, { passive: false });
  document.addEventListener("pointercancel", function () {
    if (!drag) return;
    drag.unit.removeAttribute("transform");
    drag.svg.classList.remove("dragging");
    drag = null;
  });
  document.addEventListener("click", function (event) {
    var svg = event.target.closest && event.target.closest("svg.tboard");
    var ed = editor();
    if (!svg || !ed || !window.htmx) return;
    if (dragged) { dragged = false; event.preventDefault(); return; }
    var unit = event.target.closest("a.bunit");
    var current = tool(ed);
    if (current === "measure") {
      event.preventDefault();
      var p = boardPoint(svg, event);
      pick(ed, unit ? "u:" + unit.getAttribute("data-unit") : "p:" + round2(p.x) + "," + round2(p.y));
      return;
    }
    var form = PLACE_FORMS[current] && ed.querySelector(PLACE_FORMS[current]);
    var link = unit || (!form && event.target.closest("a.bterrain"));
    if (link) {
      event.preventDefault();
      get(ed, link.getAttribute("href"), true);
      return;
    }
    if (!form) return;
    event.preventDefault();  // a click on a terrain piece places there too
    var q = boardPoint(svg, event);
    form.querySelector("[data-board=x]").value = round2(q.x);
    form.querySelector("[data-board=y]").value = round2(q.y);
    form.requestSubmit();
  });

  // Zoom: "fit" shows the whole drawing in its box; each step in scales it by 1.5, in CSS pixels per unit of the
  // drawing, and each step out comes back towards "fit" (never smaller: a map smaller than its box helps nobody).
  // The scale and the scroll position are kept for the book while the editor is swapped.
  var ZOOM_STEP = 1.5, MAX_SCALE = 12, MIN_TARGET = 24;
  var kept = null;  // the map's scroll position while the editor is swapped
  function zoomKey(ed) { return "checker-zoom-" + ed.getAttribute("data-book"); }
  function drawing(ed) { return ed.querySelector(".map-scroll > svg"); }
  function natural(svg) { return parseFloat(svg.getAttribute("width")) || svg.viewBox.baseVal.width; }
  function naturalHeight(svg) { return parseFloat(svg.getAttribute("height")) || svg.viewBox.baseVal.height; }
  function fitScale(ed, svg) {
    // the drawing's scale while it fits (its box may be wider than the drawing, which keeps its proportions)
    var r = svg.getBoundingClientRect();
    return Math.min(r.width / natural(svg), r.height / naturalHeight(svg));
  }
  function boxScale(ed, svg) {
    // the scale at which the drawing is as wide as its box, whatever size it has now
    return ed.querySelector(".map-scroll").clientWidth / natural(svg);
  }
  function storedScale(ed) {
    var value = window.sessionStorage.getItem(zoomKey(ed));
    if (value) return value === "fit" ? null : parseFloat(value);
    // A hex map starts fitted unless its hexes would then be smaller than a finger's target (24 px, as WCAG 2.2
    // asks): then it starts just big enough, and the box scrolls.
    var svg = drawing(ed), size = svg && parseFloat(svg.getAttribute("data-hex-size"));
    if (!size) return null;
    var needed = MIN_TARGET / (Math.sqrt(3) * size);
    return boxScale(ed, svg) < needed ? needed : null;
  }
  function applyZoom(ed, scale) {
    var svg = drawing(ed), box = ed.querySelector(".map-scroll");
    if (!svg || !box) return;
    if (scale === null) {
      box.classList.remove("zoomed");
      svg.style.width = "";
    } else {
      box.classList.add("zoomed");
      svg.style.width = Math.round(natural(svg) * scale) + "px";
    }
  }
  function setZoom(ed, how) {
    var svg = drawing(ed);
    if (!svg) return;
    var current = storedScale(ed);
    if (current === null) current = fitScale(ed, svg);
    var scale = null;
    if (how === "in") scale = Math.min(MAX_SCALE, current * ZOOM_STEP);
    else if (how === "out" && current / ZOOM_STEP > boxScale(ed, svg) * 1.01) scale = current / ZOOM_STEP;
    window.sessionStorage.setItem(zoomKey(ed), scale === null ? "fit" : String(scale));
    applyZoom(ed, scale);
  }
  function setUp() {
    var ed = editor();
    if (!ed) return;
    var zoom = ed.querySelector(".zoom");
    if (zoom) zoom.hidden = false;
    var box = ed.querySelector(".map-scroll");
    if (!box) return;
    box.classList.add("scripted");  // the zoom buttons size the drawing from now on (see checker.css)
    applyZoom(ed, storedScale(ed));
    if (kept) { box.scrollLeft = kept.left; box.scrollTop = kept.top; return; }
    // A page opened zoomed in shows what it is about: the chosen hex, the selected unit, the unit asked about.
    var about = box.querySelector(".hx.focus, .unit.sel, .unit.ring-actor, .bunit.sel");
    if (about && box.scrollWidth > box.clientWidth) {
      var r = about.getBoundingClientRect(), b = box.getBoundingClientRect();
      box.scrollLeft += r.left + r.width / 2 - (b.left + b.width / 2);
      box.scrollTop += r.top + r.height / 2 - (b.top + b.height / 2);
    }
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest(".zoom button[data-zoom]");
    var ed = editor();
    if (button && ed) setZoom(ed, button.getAttribute("data-zoom"));
  });

  document.addEventListener("htmx:beforeRequest", function () {
    inflight += 1;
    var active = document.activeElement;
    if (active && active.closest && active.closest("svg.hexmap a.hx")) lastHex = active.getAttribute("data-hex");
    var box = document.querySelector("#editor .map-scroll");
    if (box) kept = { left: box.scrollLeft, top: box.scrollTop };
  });

  function flush() {
    var ed = editor();
    if (inflight === 0 && pending.length && ed) pending.shift()(ed);
  }
  document.addEventListener("htmx:afterRequest", function (event) {
    inflight = Math.max(0, inflight - 1);
    if (!event.detail.successful) flush();  // nothing will be swapped in: send what waited now
  });
  document.addEventListener("htmx:afterSettle", function () {
    var ed = editor();
    setUp();
    if (ed && lastHex) focusHex(ed, lastHex);
    lastHex = null;
    if (drag && ed) {  // the board was redrawn under a drag: go on dragging the same unit on the new drawing
      var unit = ed.querySelector('svg.tboard a.bunit[data-unit="' + drag.unit.getAttribute("data-unit") + '"]');
      if (unit) { drag.svg = unit.ownerSVGElement; drag.unit = unit; }
    }
    flush();
  });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setUp);
  else setUp();
})();
