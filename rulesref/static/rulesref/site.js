// Copy-link buttons: the address of a section is the public contract, so make it one click to share.
document.addEventListener("click", function (event) {
  var button = event.target.closest("button.copy-link");
  if (!button) return;
  var url = button.getAttribute("data-url");
  var done = function () { var old = button.textContent; button.textContent = button.getAttribute("data-done"); setTimeout(function () { button.textContent = old; }, 1500); };
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(url).then(done, function () { window.prompt("", url); });
  } else {
    window.prompt("", url);
  }
});

// Glossary terms and references to sections the corpus lacks explain themselves in one tooltip, on hover, on
// keyboard focus or on a first tap (a second tap on a term opens its entry). A term's definition is on the page
// once, in the hidden list .term-tips (<p id="tip-LANG-TERM">); every use of the term only names it. Without
// script the first use of a term is a plain link to its entry and a missing reference keeps its title.
(function () {
  var root = document.documentElement;
  var MODE_KEY = "rulesref.terms";
  var tip = document.createElement("div");
  tip.id = "term-tip";
  tip.className = "tip";
  tip.setAttribute("role", "tooltip");
  tip.hidden = true;
  document.body.appendChild(tip);
  var owner = null;
  var lastPointer = "mouse";

  function storedMode() {
    try { return localStorage.getItem(MODE_KEY) || "first"; } catch (e) { return "first"; }
  }

  // Which uses of a term are marked: "first" (in each section; the default), "all" or "none". Kept in the
  // browser, so cached pages stay the same for everyone.
  function applyMode(mode) {
    root.classList.remove("terms-all", "terms-none");
    if (mode === "all" || mode === "none") root.classList.add("terms-" + mode);
    document.querySelectorAll("span.term").forEach(function (el) {
      if (mode === "all") { el.tabIndex = 0; el.setAttribute("role", "link"); }
      else { el.removeAttribute("tabindex"); el.removeAttribute("role"); }
    });
    document.querySelectorAll("a.term").forEach(function (el) {
      if (mode === "none") el.tabIndex = -1; else el.removeAttribute("tabindex");
    });
    document.querySelectorAll("select[data-term-mode]").forEach(function (select) { select.value = mode; });
  }

  function definition(el) {
    var holder = el.closest("[lang]") || root;
    return document.getElementById("tip-" + holder.getAttribute("lang") + "-" + el.getAttribute("data-term"));
  }

  function active(el) {
    if (!el.classList.contains("term")) return true;
    if (root.classList.contains("terms-none")) return false;
    return el.tagName === "A" || root.classList.contains("terms-all");
  }

  function place(el) {
    var width = root.clientWidth;
    var box = el.getClientRects()[0] || el.getBoundingClientRect();
    tip.style.maxWidth = Math.min(352, width - 16) + "px";
    tip.style.left = "0px";
    tip.style.top = "0px";
    tip.hidden = false;
    var w = tip.offsetWidth, h = tip.offsetHeight;
    var left = Math.max(8, Math.min(box.left, width - w - 8));
    var top = box.bottom + 6;
    if (top + h > window.innerHeight - 8 && box.top - h - 6 >= 8) top = box.top - h - 6;
    tip.style.left = Math.round(left + window.scrollX) + "px";
    tip.style.top = Math.round(top + window.scrollY) + "px";
  }

  function show(el) {
    if (!active(el)) return false;
    if (el.classList.contains("term")) {
      var def = definition(el);
      if (!def) return false;
      tip.replaceChildren.apply(tip, Array.prototype.map.call(def.childNodes, function (n) { return n.cloneNode(true); }));
      tip.setAttribute("lang", def.getAttribute("lang"));
    } else {
      tip.textContent = el.getAttribute("data-tip");
      tip.setAttribute("lang", root.getAttribute("lang"));
    }
    if (owner && owner !== el) hide();
    owner = el;
    if (!el.hasAttribute("aria-describedby")) { el.setAttribute("aria-describedby", tip.id); el.setAttribute("data-described", ""); }
    place(el);
    return true;
  }

  function hide() {
    if (owner && owner.hasAttribute("data-described")) { owner.removeAttribute("aria-describedby"); owner.removeAttribute("data-described"); }
    owner = null;
    tip.hidden = true;
  }

  function target(event) {
    return event.target.closest ? event.target.closest(".term, .ref-missing") : null;
  }

  document.querySelectorAll(".ref-missing[title]").forEach(function (el) {
    el.setAttribute("data-tip", el.getAttribute("title"));
    el.removeAttribute("title");
  });
  document.querySelectorAll("label.term-mode").forEach(function (label) {
    if (document.querySelector(".term")) label.hidden = false;
  });
  applyMode(storedMode());

  document.addEventListener("change", function (event) {
    if (!event.target.matches("select[data-term-mode]")) return;
    try { localStorage.setItem(MODE_KEY, event.target.value); } catch (e) { /* private mode: this page only */ }
    hide();
    applyMode(event.target.value);
  });
  document.addEventListener("pointerdown", function (event) { lastPointer = event.pointerType; }, true);
  document.addEventListener("pointerover", function (event) {
    var el = target(event);
    if (el && event.pointerType !== "touch" && el !== owner) show(el);
  });
  document.addEventListener("pointerout", function (event) {
    var el = target(event);
    if (el && el === owner && event.pointerType !== "touch" && !el.contains(event.relatedTarget) && document.activeElement !== el) hide();
  });
  document.addEventListener("focusin", function (event) {
    var el = target(event);
    if (el && el.matches(":focus-visible")) show(el);
    else if (owner && !el) hide();
  });
  document.addEventListener("focusout", function (event) {
    if (target(event) === owner && lastPointer !== "touch") hide();
  });
  document.addEventListener("click", function (event) {
    var el = target(event);
    if (!el || !active(el)) { if (owner) hide(); return; }  // a tap elsewhere, or on the tooltip, closes it
    var open = owner === el && !tip.hidden;
    if (el.classList.contains("ref-missing")) {
      if (open && lastPointer === "touch") hide(); else show(el);
      return;
    }
    if (el.tagName === "A") {
      if (lastPointer === "touch" && !open) { event.preventDefault(); show(el); }
      return;
    }
    if (open || lastPointer !== "touch") {
      var def = definition(el);
      if (def) window.location.href = def.getAttribute("data-href");
    } else {
      show(el);
    }
  });
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape") { hide(); return; }
    var el = target(event);
    if (event.key === "Enter" && el && el.tagName === "SPAN" && el.classList.contains("term") && active(el)) {
      var def = definition(el);
      if (def) window.location.href = def.getAttribute("data-href");
    }
  });
  window.addEventListener("resize", hide);
})();

// Glossary: filter the list as you type (the form still filters on the server without script).
document.querySelectorAll("input[data-filter]").forEach(function (input) {
  var list = document.querySelector(input.getAttribute("data-filter"));
  var count = document.getElementById("glossary-count");
  input.addEventListener("input", function () {
    var q = input.value.trim().toLowerCase(), shown = 0;
    list.querySelectorAll(".term-row").forEach(function (row) {
      var hit = !q || row.getAttribute("data-search").indexOf(q) !== -1;
      row.hidden = !hit; if (hit) shown++;
    });
    list.querySelectorAll("section.letter").forEach(function (s) { s.hidden = !s.querySelector(".term-row:not([hidden])"); });
    if (count) {
      var category = new Intl.PluralRules(document.documentElement.lang).select(shown);
      var form = count.getAttribute("data-" + category) || count.getAttribute("data-other");
      if (form) count.textContent = form.replace("{n}", shown);
    }
  });
});

// The phone menu (a <details>) closes on a tap elsewhere and on Escape, as a menu does.
document.addEventListener("click", function (event) {
  document.querySelectorAll("details.site-menu[open]").forEach(function (menu) {
    if (!menu.contains(event.target)) menu.open = false;
  });
});
document.addEventListener("keydown", function (event) {
  if (event.key !== "Escape") return;
  document.querySelectorAll("details.site-menu[open]").forEach(function (menu) {
    menu.open = false;
    menu.querySelector("summary").focus();
  });
});

// htmx (the live search, the "report a problem" form) is fetched when a reader first comes near something that
// uses it, not with the page: one who only reads never pays its 15 KB. Pages that need it at once (the checker,
// the translator's editor) load it themselves. A link clicked while htmx is still on its way waits for it; a search
// typed meanwhile is sent when it arrives. Without script, or if it never arrives, forms and links work as they are.
(function () {
  var src = document.currentScript && document.currentScript.getAttribute("data-htmx");
  if (!src || window.htmx) return;
  var USES = "[hx-get], [hx-post]";
  var requested = false, waiting = null;

  function ready() {
    if (!window.htmx) return;
    window.htmx.process(document.body);  // htmx arrived after the page was parsed: let it see the page now
    var input = document.activeElement;
    if (input && input.matches && input.matches("input" + USES.replace(/, /g, ", input")) && input.value) {
      window.htmx.trigger(input, "search");
    }
    if (waiting) { window.htmx.trigger(waiting, "click"); waiting = null; }
  }
  function need(event) {
    if (window.htmx || requested || !event.target.closest || !event.target.closest(USES)) return;
    requested = true;
    var script = document.createElement("script");
    script.src = src;
    script.onload = ready;
    document.head.appendChild(script);
  }
  ["focusin", "pointerover", "touchstart"].forEach(function (type) {
    document.addEventListener(type, need, { capture: true, passive: true });
  });
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a[hx-get]");
    if (!link || window.htmx || event.ctrlKey || event.metaKey || event.shiftKey || event.button) return;
    need(event);
    event.preventDefault();
    waiting = link;
  }, true);
})();
