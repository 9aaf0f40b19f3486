// Scenario editor: a hex click uses the current tool (a POST through htmx, the same as the panel's buttons);
// arrow keys move between hexes, shortcut keys choose tools, turn, remove, undo and redo. Without this script,
// each hex is a link that chooses it and the side panel offers the actions as forms.
(function () {
  "use strict";
  var lastHex = null;

  function editor() { return document.getElementById("editor"); }

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

  function post(ed, values) {
    var page = ed.getAttribute("data-page");
    var all = hiddenFields(ed);
    Object.keys(values).forEach(function (k) { all[k] = values[k]; });
    window.htmx.ajax("POST", page, { source: ed, target: ed, swap: "outerHTML", values: all });
  }

  document.addEventListener("click", function (event) {
    var hex = event.target.closest && event.target.closest("svg.hexmap a.hx");
    var ed = editor();
    if (!hex || !ed || !window.htmx || event.ctrlKey || event.metaKey || event.shiftKey) return;
    event.preventDefault();
    lastHex = hex.getAttribute("data-hex");
    post(ed, { action: "click", at: lastHex });
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
    target.focus();
    return true;
  }

  function press(ed, key) {
    var el = ed.querySelector('[data-key="' + key + '"]');
    if (!el) return false;
    el.click();
    return true;
  }

  document.addEventListener("keydown", function (event) {
    var ed = editor();
    if (!ed) return;
    var t = event.target;
    var typing = t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT" || t.isContentEditable);
    var ctrl = event.ctrlKey || event.metaKey;
    if (ctrl && !typing && (event.key === "z" || event.key === "Z")) {
      if (press(ed, event.shiftKey ? "redo" : "undo")) event.preventDefault();
      return;
    }
    if (ctrl && !typing && (event.key === "y" || event.key === "Y")) {
      if (press(ed, "redo")) event.preventDefault();
      return;
    }
    if (typing || ctrl || event.altKey) return;
    var hex = t.closest && t.closest("svg.hexmap a.hx");
    if (hex && /^Arrow/.test(event.key)) {
      var label = hex.getAttribute("data-hex");
      var w = label.length / 2;
      var col = parseInt(label.slice(0, w), 10), row = parseInt(label.slice(w), 10);
      if (event.key === "ArrowLeft") col -= 1;
      if (event.key === "ArrowRight") col += 1;
      if (event.key === "ArrowUp") row -= 1;
      if (event.key === "ArrowDown") row += 1;
      var next = hexAt(ed, col, row, w);
      if (next) { focusHex(ed, next.getAttribute("data-hex")); }
      event.preventDefault();
      return;
    }
    if (hex && (event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      hex.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true }));
      return;
    }
    if (event.key === "r" || event.key === "R") { if (press(ed, event.shiftKey ? "rotate-back" : "rotate")) event.preventDefault(); return; }
    if (event.key === "Delete" || event.key === "Backspace") { if (press(ed, "remove")) event.preventDefault(); return; }
    if (event.key === "Escape") {
      var page = new URL(ed.getAttribute("data-page"), window.location.href);
      if (page.searchParams.has("sel") || page.searchParams.has("terrain")) {
        page.searchParams.delete("sel");
        page.searchParams.delete("terrain");
        window.htmx.ajax("GET", page.pathname + page.search, { source: ed, target: ed, swap: "outerHTML" }).then(function () {
          window.history.pushState({}, "", page.pathname + page.search);
        });
      }
      return;
    }
    var radio = ed.querySelector('input[name=tool][data-shortcut="' + event.key.toLowerCase() + '"]');
    if (radio && !radio.checked) { radio.checked = true; radio.dispatchEvent(new Event("change", { bubbles: true })); }
  });

  // The tabletop board (t9a): its viewBox is in inches (y turned to run down the page), so a pointer's board
  // position is the SVG point plus data-minx, and data-maxy minus it. Drag a unit to move it (its centre is
  // posted on drop); with the place tool a click on the board fills the place form's x and y and sends it, with
  // the place-terrain tool the new terrain piece's. Otherwise a click on a terrain piece selects it.
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
    if (!unit || !ed || event.button !== 0 || PLACE_FORMS[ed.getAttribute("data-tool")]) return;
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
    if (!svg || !ed) return;
    if (dragged) { dragged = false; event.preventDefault(); return; }
    var unit = event.target.closest("a.bunit");
    var tool = ed.getAttribute("data-tool");
    var form = PLACE_FORMS[tool] && ed.querySelector(PLACE_FORMS[tool]);
    var link = unit || (!form && event.target.closest("a.bterrain"));
    if (link && window.htmx) {
      event.preventDefault();
      var href = link.getAttribute("href");
      window.htmx.ajax("GET", href, { source: ed, target: ed, swap: "outerHTML" }).then(function () {
        window.history.pushState({}, "", href);
      });
      return;
    }
    if (unit || !form) return;
    event.preventDefault();  // a click on a terrain piece places there too
    var p = boardPoint(svg, event);
    form.querySelector("[data-board=x]").value = round2(p.x);
    form.querySelector("[data-board=y]").value = round2(p.y);
    form.requestSubmit();
  });

  document.addEventListener("htmx:beforeRequest", function () {
    var active = document.activeElement;
    if (active && active.closest && active.closest("svg.hexmap a.hx")) lastHex = active.getAttribute("data-hex");
  });

  document.addEventListener("htmx:afterSettle", function () {
    var ed = editor();
    if (ed && lastHex) focusHex(ed, lastHex);
    lastHex = null;
  });

  // The map's columns set its minimum width in CSS (--cols); the page gives them as data-cols, for the
  // Content-Security-Policy allows no style attributes.
  function sizeMaps() {
    document.querySelectorAll(".map-scroll[data-cols]").forEach(function (el) {
      el.style.setProperty("--cols", el.getAttribute("data-cols"));
    });
  }
  document.addEventListener("DOMContentLoaded", sizeMaps);
  document.addEventListener("htmx:afterSwap", sizeMaps);
})();
