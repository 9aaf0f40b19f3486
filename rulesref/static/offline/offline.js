// The offline copy, page side: registers the service worker; keeps a rulebook offline from its contents page
// (one download, with its size shown first and a progress bar); says when a page is the offline copy; checks,
// with one small request, whether the rules were updated since; and answers searches offline from the kept
// rulebooks' indexes (static/offline/search.js, loaded when first needed).
(function () {
  "use strict";
  var script = document.currentScript || document.querySelector("script[data-sw]");
  if (!script || !("serviceWorker" in navigator) || !("caches" in window)) return;
  var cfg = script.dataset;
  var lang = document.documentElement.lang || "en";
  var BOOK_CACHE = "rulesref-book:";
  var HABIT = "rulesref-pages";  // as in sw.js
  var META = "/offline/kept.json";
  var CHECK_EVERY = 10 * 60 * 1000;

  navigator.serviceWorker.register(cfg.sw, { scope: "/" }).catch(function () {});

  // ------------------------------------------------------------------ words and numbers
  var stringsPromise = null;
  function strings() {
    if (!stringsPromise) {
      stringsPromise = fetch(cfg.strings).then(function (r) { if (!r.ok) throw r; return r.json(); })
        .catch(function () { return caches.match(cfg.strings).then(function (r) { return r ? r.json() : {}; }); });
    }
    return stringsPromise;
  }
  function format(template, values) {
    return String(template || "").replace(/%\((\w+)\)s/g, function (all, name) {
      return Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : all;
    });
  }
  function plural(forms, n) {
    var category = new Intl.PluralRules(lang).select(n);
    return format(forms[category] || forms.other || forms.many || "", { counter: n });
  }
  function size(s, bytes) {
    var number = new Intl.NumberFormat(lang, { maximumFractionDigits: 1 });
    if (bytes >= 1000 * 1000) return format(s.sizeMB, { size: number.format(bytes / 1e6) });
    return format(s.sizeKB, { size: number.format(Math.max(1, Math.round(bytes / 1000))) });
  }
  function when(iso) {
    var date = new Date(iso);
    if (isNaN(date)) return "";
    return new Intl.DateTimeFormat(lang, { dateStyle: "long", timeStyle: "short" }).format(date);
  }
  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (name) {
      if (name === "text") node.textContent = attrs[name];
      else node.setAttribute(name, attrs[name]);
    });
    (children || []).forEach(function (child) { if (child) node.appendChild(typeof child === "string" ? document.createTextNode(child) : child); });
    return node;
  }

  // ------------------------------------------------------------------ kept rulebooks
  function keptCopies() {
    return caches.keys().then(function (names) {
      return Promise.all(names.filter(function (n) { return n.indexOf(BOOK_CACHE) === 0; }).map(function (name) {
        return caches.open(name).then(function (cache) { return cache.match(META); })
          .then(function (r) { return r ? r.json().then(function (meta) { meta.cache = name; return meta; }) : null; });
      }));
    }).then(function (metas) {
      var kept = {};
      metas.forEach(function (meta) {
        if (meta && (!kept[meta.book] || meta.made > kept[meta.book].made)) kept[meta.book] = meta;
      });
      return kept;
    });
  }

  function readBody(response, total, progress) {
    if (!response.body || !response.body.getReader) return response.text();
    var reader = response.body.getReader(), chunks = [], received = 0;
    function pump() {
      return reader.read().then(function (step) {
        if (step.done) {
          var all = new Uint8Array(received), offset = 0;
          chunks.forEach(function (c) { all.set(c, offset); offset += c.length; });
          return new TextDecoder("utf-8").decode(all);
        }
        chunks.push(step.value);
        received += step.value.length;
        progress(Math.min(1, received / total));
        return pump();
      });
    }
    return pump();
  }

  // The copy is rendered for no particular host: the site's absolute addresses in it name bundle.origin, which
  // becomes this page's own origin.
  function entryResponse(entry, bundle) {
    var body = entry.body;
    if (body !== undefined && bundle.origin && bundle.origin !== location.origin) {
      body = body.split(bundle.origin).join(location.origin);
    }
    if (entry.base64 !== undefined) {
      var raw = atob(entry.base64);
      body = new Uint8Array(raw.length);
      for (var i = 0; i < raw.length; i++) body[i] = raw.charCodeAt(i);
    }
    var headers = { "Content-Type": entry.type, "X-Offline-Stored": bundle.kept };
    if (entry.rev !== undefined) { headers["X-Offline-Book"] = bundle.book; headers["X-Offline-Revision"] = String(entry.rev); }
    return new Response(body, { status: 200, headers: headers });
  }

  // Fetch a rulebook's copy and store it whole; the copy it replaces is removed only once the new one is complete.
  // `report(phase, fraction, info)` follows the progress: "download", then "store".
  function keepBook(slug, infoUrl, report, retried) {
    var info;
    return fetch(infoUrl, { cache: "no-store" }).then(function (r) {
      if (!r.ok) throw new Error("network");
      return r.json();
    })
      .then(function (data) {
        if (data.preparing) throw preparing(data);
        if (data.tooLarge) throw tooLarge();
        info = data;
        report("download", 0, info);
        return fetch(info.url, { cache: "no-store" });
      }).then(function (response) {
        if (response.status === 409 && !retried) return keepBook(slug, infoUrl, report, true);
        if (response.status === 503) return response.json().then(function (data) { throw preparing(data); });
        if (!response.ok) throw new Error("network");
        return readBody(response, info.bytes, function (f) { report("download", f, info); }).then(function (text) {
          var bundle = JSON.parse(text);
          bundle.kept = new Date().toISOString();
          var name = BOOK_CACHE + slug + ":" + bundle.token;
          report("store", 0, info);
          return caches.delete(name).then(function () { return caches.open(name); }).then(function (cache) {
            var done = 0, entries = bundle.entries, batch = 25;
            function next(start) {
              if (start >= entries.length) return Promise.resolve();
              return Promise.all(entries.slice(start, start + batch).map(function (entry) {
                return cache.put(entry.url, entryResponse(entry, bundle)).then(function () {
                  done++;
                  report("store", done / entries.length, info);
                });
              })).then(function () { return next(start + batch); });
            }
            return next(0).then(function () {
              var meta = { book: slug, revision: bundle.revision, token: bundle.token, made: bundle.kept,
                           size: info.size, entries: entries.length, index: bundle.index };
              return cache.put(META, new Response(JSON.stringify(meta), { headers: { "Content-Type": "application/json" } }))
                .then(function () { return removeBook(slug, name); })
                .then(function () { if (navigator.storage && navigator.storage.persist) navigator.storage.persist(); })
                .then(function () { return meta; });
            }, function (error) { return caches.delete(name).then(function () { throw error; }); });
          });
        });
      });
  }

  function removeBook(slug, except) {
    return caches.keys().then(function (names) {
      return Promise.all(names.filter(function (n) { return n.indexOf(BOOK_CACHE + slug + ":") === 0 && n !== except; })
        .map(function (n) { return caches.delete(n); }));
    });
  }

  // Removing a copy on request removes the book's pages kept by habit too: the reader wants the space back.
  function forgetBook(slug) {
    return removeBook(slug, null).then(function () { return caches.open(HABIT); }).then(function (cache) {
      return cache.keys().then(function (keys) {
        return Promise.all(keys.map(function (key) {
          return cache.match(key).then(function (r) {
            if (r && r.headers.get("X-Offline-Book") === slug) return cache.delete(key);
          });
        }));
      });
    });
  }

  // The site has no copy of the book's current content yet (it is built after every change): ask again later.
  function preparing(data) {
    var error = new Error("preparing"), after = parseInt(data && data.retry, 10);
    error.preparing = true;
    error.retry = Math.min(Math.max(isNaN(after) ? 15 : after, 2), 120);
    return error;
  }

  // The book has grown past what a whole copy holds (RULESREF_OFFLINE_MAX_SECTIONS): there is no copy to fetch.
  function tooLarge() {
    var error = new Error("too large");
    error.tooLarge = true;
    return error;
  }

  function failure(s, error) {
    if (error && error.preparing) return s.preparing;
    if (error && error.tooLarge) return s.tooLarge;
    var reason = error && error.name === "QuotaExceededError" ? s.noSpace : s.noNetwork;
    return format(s.failed, { reason: reason });
  }

  // ------------------------------------------------------------------ the control on a contents page
  function keepControl(box) {
    var slug = box.getAttribute("data-offline-keep");
    var status = box.querySelector(".offline-status");
    var bar = box.querySelector(".offline-progress");
    var progress = bar.querySelector("progress");
    var buttons = {};
    box.querySelectorAll("[data-offline-action]").forEach(function (b) { buttons[b.getAttribute("data-offline-action")] = b; });
    var busy = false, invitation = status.textContent, waited = 0, preparingCopy = false;
    // A book too large for a whole copy: the box only shows a copy kept before it grew, to be removed.
    var tooLargeBook = box.hasAttribute("data-offline-too-large");
    box.hidden = tooLargeBook;

    function show(state) {
      box.classList.toggle("kept", state === "kept");
      if (!tooLargeBook) {  // such a box has only the button to remove a copy
        buttons.keep.hidden = state !== "none" || preparingCopy;
        buttons.update.hidden = state !== "kept";
      }
      buttons.remove.hidden = state !== "kept";
      Object.keys(buttons).forEach(function (k) { buttons[k].disabled = busy; });
    }
    // `note` (a removal, a failure) is said first, then what keeping the book would download.
    function refresh(s, current, note) {
      var say = function (text) { status.textContent = note ? note + " " + text : text; };
      return keptCopies().then(function (kept) {
        var meta = kept[slug];
        if (tooLargeBook) {
          box.hidden = !meta && !note;
          if (!meta) { show("none"); status.textContent = note || ""; return; }
          show("kept");
          status.textContent = format(s.keptTooLarge, { date: when(meta.made), revision: meta.revision });
          box.classList.add("stale");
          return;
        }
        if (!meta) {
          show("none");
          if (current) return;  // a version check: nothing to measure again
          if (!navigator.onLine) { say(invitation); return; }
          say(s.measuring);
          return fetch(cfg.info, { cache: "no-store" }).then(function (r) { return r.json(); }).then(function (info) {
            if (info.preparing) throw preparing(info);
            preparingCopy = false;
            show("none");
            if (!busy) say(format(s.keepSize, { size: size(s, info.size) }));
          }).catch(function (error) {
            if (!error || !error.preparing) { say(""); return; }
            // Being prepared: no button to press yet; asked again after the time the site names, a few times.
            preparingCopy = true;
            show("none");
            say(s.preparing);
            if (waited < 20) {
              waited++;
              setTimeout(function () { if (!busy) refresh(s); }, error.retry * 1000);
            }
          });
        }
        show("kept");
        var values = { date: when(meta.made), revision: meta.revision, size: size(s, meta.size || 0) };
        if (current && current.token !== meta.token) {
          values.current = current.revision;
          status.textContent = format(s.keptStale, values);
          box.classList.add("stale");
        } else {
          status.textContent = format(s.kept, values);
          box.classList.remove("stale");
        }
      });
    }
    function run(s) {
      if (busy) return;
      busy = true;
      show(buttons.keep.hidden ? "kept" : "none");
      bar.hidden = false;
      progress.value = 0;
      box.classList.add("busy");
      keepBook(slug, cfg.info, function (phase, fraction, info) {
        progress.value = Math.round((phase === "download" ? fraction * 0.8 : 0.8 + fraction * 0.2) * 100);
        status.textContent = phase === "download"
          ? format(s.keeping, { done: size(s, fraction * info.size), size: size(s, info.size) }) : s.storing;
      }).then(function () {
        busy = false;
        bar.hidden = true;
        box.classList.remove("busy");
        return refresh(s);
      }, function (error) {
        busy = false;
        bar.hidden = true;
        box.classList.remove("busy");
        refresh(s, null, failure(s, error));
      });
    }
    strings().then(function (s) {
      if (!tooLargeBook) {
        buttons.keep.addEventListener("click", function () { run(s); });
        buttons.update.addEventListener("click", function () { run(s); });
      }
      buttons.remove.addEventListener("click", function () {
        forgetBook(slug).then(function () { return refresh(s, null, s.removed); });
      });
      refresh(s);
      box.addEventListener("offline-versions", function (event) { if (!busy) refresh(s, event.detail.books[slug]); });
    });
  }

  // ------------------------------------------------------------------ notices
  function mainElement() { return document.getElementById("main") || document.querySelector("main") || document.body; }

  function offlineNotice() {
    var stored = document.documentElement.getAttribute("data-offline-copy");
    if (stored === null) return;
    strings().then(function (s) {
      var text = cfg.revision ? format(s.offlineCopy, { revision: cfg.revision, date: when(stored) })
                              : format(s.offlinePage, { date: when(stored) });
      mainElement().insertBefore(el("p", { "class": "offline-notice", text: text }), mainElement().firstChild);
    });
  }

  var lastCheck = 0, banner = null;
  function checkVersions() {
    if (!navigator.onLine) return;
    lastCheck = Date.now();
    fetch(cfg.versions, { cache: "no-cache" }).then(function (r) { if (!r.ok) throw r; return r.json(); }).then(function (versions) {
      document.querySelectorAll("[data-offline-keep]").forEach(function (box) {
        box.dispatchEvent(new CustomEvent("offline-versions", { detail: versions }));
      });
      return keptCopies().then(function (kept) {
        var staleCopies = Object.keys(kept).filter(function (slug) {
          return versions.books[slug] && versions.books[slug].token !== kept[slug].token;
        });
        var current = cfg.book && versions.books[cfg.book];
        var pageStale = Boolean(current && String(current.revision) !== cfg.revision);
        if (staleCopies.length || pageStale) return strings().then(function (s) { updatedBanner(s, versions, staleCopies, pageStale); });
      });
    }).catch(function () {});
  }

  function updatedBanner(s, versions, staleCopies, pageStale) {
    if (banner && banner.hasAttribute("data-busy")) return;  // an update under way is not interrupted by a check
    var slugs = staleCopies.slice();
    if (pageStale && slugs.indexOf(cfg.book) === -1) slugs.push(cfg.book);
    var names = slugs.map(function (slug) { return versions.books[slug].title[lang] || slug; }).join(", ");
    if (banner) banner.remove();
    var message = el("span", { text: format(s.updated, { books: names }) });
    banner = el("div", { "class": "offline-banner", role: "status" }, [message]);
    var mine = banner;
    var actions = el("span", { "class": "offline-banner-actions" });
    if (staleCopies.length) {
      var update = el("button", { type: "button", "class": "offline-button primary", text: s.updateCopy });
      update.addEventListener("click", function () {
        update.disabled = true;
        mine.setAttribute("data-busy", "");
        function attempt(slug, left) {
          return keepBook(slug, versions.books[slug].info, function (phase, fraction, info) {
            message.textContent = phase === "download"
              ? format(s.updating, { done: size(s, fraction * info.size), size: size(s, info.size) }) : s.storing;
          }).catch(function (error) {
            if (!error || !error.preparing || left <= 0) throw error;
            message.textContent = s.preparing;  // the site is still building the new copy: ask again soon
            return new Promise(function (resolve) { setTimeout(resolve, error.retry * 1000); })
              .then(function () { return attempt(slug, left - 1); });
          });
        }
        staleCopies.reduce(function (chain, slug) {
          return chain.then(function () { return attempt(slug, 20); });
        }, Promise.resolve()).then(function () {
          message.textContent = s.updatedDone;
          update.remove();
          mine.removeAttribute("data-busy");
        }, function (error) {
          message.textContent = failure(s, error);
          update.disabled = false;
          mine.removeAttribute("data-busy");
        });
      });
      actions.appendChild(update);
    }
    if (pageStale) {
      var reload = el("button", { type: "button", "class": "offline-button", text: s.reload });
      reload.addEventListener("click", function () { location.reload(); });
      actions.appendChild(reload);
    }
    var close = el("button", { type: "button", "class": "offline-dismiss", "aria-label": s.dismiss, title: s.dismiss, text: "×" });
    close.addEventListener("click", function () { banner.remove(); banner = null; });
    actions.appendChild(close);
    banner.appendChild(actions);
    mainElement().insertBefore(banner, mainElement().firstChild);
  }

  // ------------------------------------------------------------------ search offline
  var enginePromise = null;
  function engine() {
    if (!enginePromise) {
      // One script after the other: a script added by a script runs as soon as it arrives, and search.js takes
      // the stemmer from stem.js when it runs.
      enginePromise = cfg.scripts.split(" ").reduce(function (loaded, src) {
        return loaded.then(function () {
          return new Promise(function (resolve, reject) {
            var tag = document.createElement("script");
            tag.src = src;
            tag.onload = resolve;
            tag.onerror = reject;
            document.head.appendChild(tag);
          });
        });
      }, Promise.resolve()).then(function () {
        return keptCopies().then(function (kept) {
          return Promise.all(Object.keys(kept).map(function (slug) {
            return caches.open(kept[slug].cache).then(function (cache) { return cache.match(kept[slug].index); })
              .then(function (r) { return r ? r.json() : null; });
          }));
        });
      }).then(function (indexes) { return new window.RulesrefSearch(indexes.filter(Boolean)); });
      enginePromise.catch(function () { enginePromise = null; });
    }
    return enginePromise;
  }

  function offlineResults(params, target, navigate, retried) {
    return Promise.all([engine(), strings()]).then(function (both) {
      var search = both[0], s = both[1];
      var result = search.search(params.get("q") || "", lang, params.get("book") || "", params.get("in") || "");
      if (navigate && result.jump) { location.replace(result.jump); return; }
      target.replaceChildren(search.render(result, s, lang, cfg.search, params.get("book") || ""));
    }, function () {  // the engine could not be loaded (engine() starts afresh next time): once more, then say so
      if (!retried) return offlineResults(params, target, navigate, true);
      return strings().then(function (s) { target.replaceChildren(el("p", { "class": "muted", text: s.noKept })); });
    });
  }

  function isSearch(path) { return path && path.split("?")[0] === cfg.search; }

  document.addEventListener("htmx:beforeRequest", function (event) {
    var detail = event.detail;
    if (navigator.onLine || !isSearch(detail.requestConfig && detail.requestConfig.path)) return;
    event.preventDefault();
    var form = detail.elt.form || detail.elt.closest("form");
    offlineResults(new URLSearchParams(new FormData(form)), detail.target, false);
  });
  document.addEventListener("htmx:sendError", function (event) {
    var detail = event.detail;
    if (!isSearch(detail.requestConfig && detail.requestConfig.path)) return;
    var form = detail.elt.form || detail.elt.closest("form");
    offlineResults(new URLSearchParams(new FormData(form)), detail.target, false);
  });

  // The search page itself, offline: the worker served the page without results; fill them in here.
  function searchPageOffline() {
    if (location.pathname !== cfg.search || document.documentElement.getAttribute("data-offline-copy") === null) return;
    var params = new URLSearchParams(location.search);
    if (!params.get("q")) return;
    var form = document.querySelector("main form[action='" + cfg.search + "']");
    var input = form && form.querySelector("input[name=q]");
    var target = input && document.querySelector(input.getAttribute("hx-target"));
    if (!target) return;
    params.forEach(function (value, name) { if (form.elements[name]) form.elements[name].value = value; });
    offlineResults(params, target, true);
  }

  // ------------------------------------------------------------------ start
  function start() {
    document.querySelectorAll("[data-offline-keep]").forEach(keepControl);
    offlineNotice();
    searchPageOffline();
    checkVersions();
    window.addEventListener("online", checkVersions);
    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState === "visible" && Date.now() - lastCheck > 60 * 1000) checkVersions();
    });
    setInterval(function () { if (document.visibilityState === "visible") checkVersions(); }, CHECK_EVERY);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
