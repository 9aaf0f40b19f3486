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
      if (page.searchParams.has("sel")) {
        page.searchParams.delete("sel");
        window.htmx.ajax("GET", page.pathname + page.search, { source: ed, target: ed, swap: "outerHTML" }).then(function () {
          window.history.pushState({}, "", page.pathname + page.search);
        });
      }
      return;
    }
    var radio = ed.querySelector('input[name=tool][data-shortcut="' + event.key.toLowerCase() + '"]');
    if (radio && !radio.checked) { radio.checked = true; radio.dispatchEvent(new Event("change", { bubbles: true })); }
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
})();
