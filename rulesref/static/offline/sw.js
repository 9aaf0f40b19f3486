// rulesref's service worker, served as /sw.js after its configuration (self.RULESREF_OFFLINE: the site's
// addresses, from Django's URLconf).
//
// - Pages are fetched from the network first; the copy kept on the device is the fallback when the network fails,
//   or when it is slow (after NETWORK_TIMEOUT), unless that copy is known to be older than the site's revision.
// - Every page the reader opens is kept ("by habit"), except pages made for a signed-in user (the page says so),
//   responses marked Cache-Control private or no-store, htmx fragments, the translator's workspace, sign-in,
//   the admin, the API and the checker (which needs the network: offline it shows a page saying so).
// - POST and other methods are never touched.
// - Kept rulebooks (caches "rulesref-book:<slug>:<token>") are written by the page (offline.js), read here.
"use strict";

var CONFIG = self.RULESREF_OFFLINE;
var HABIT = "rulesref-pages";
var SHELL = "rulesref-shell:" + CONFIG.build;
var NETWORK_TIMEOUT = 4000;
var MAX_HABIT = 400;
var PRIVATE_MARK = "data-rulesref-private";
var latestRevision = {};  // rulebook -> revision, from the last version check that passed through

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(SHELL).then(function (cache) {
    // One by one, so a single missing file does not stop the worker from installing.
    return Promise.all(CONFIG.precache.map(function (url) {
      return fetch(url, { credentials: "omit" }).then(function (response) {
        return response.ok ? cache.put(url, stamped(response, {}, response.body)) : null;
      }).catch(function () { return null; });
    }));
  }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name.indexOf("rulesref-shell:") === 0 && name !== SHELL;
    }).map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

function startsWithAny(path, prefixes) {
  return prefixes.some(function (prefix) { return path.indexOf(prefix) === 0; });
}

function languageOf(path) {
  var code = path.split("/")[1];
  return CONFIG.languages[code] ? code : CONFIG.default;
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname === CONFIG.versions) { event.respondWith(versionCheck(request)); return; }
  if (startsWithAny(url.pathname, CONFIG.never)) return;
  if (request.headers.get("HX-Request") || request.headers.get("Range")) return;
  var lang = CONFIG.languages[languageOf(url.pathname)];
  if (url.pathname.indexOf(lang.checker) === 0) {
    if (request.mode === "navigate") event.respondWith(fetch(request).catch(function () { return fallback(lang.checkerPage); }));
    return;
  }
  var storing = deferred();
  event.waitUntil(storing.promise);
  event.respondWith(networkFirst(request, url, lang, storing));
});

function deferred() {
  var done;
  var promise = new Promise(function (resolve) { done = resolve; });
  return { promise: promise, resolve: done };
}

function versionCheck(request) {
  return fetch(request).then(function (response) {
    if (response.ok) {
      response.clone().json().then(function (data) {
        Object.keys(data.books || {}).forEach(function (slug) { latestRevision[slug] = data.books[slug].revision; });
      }).catch(function () {});
    }
    return response;
  });
}

function networkFirst(request, url, lang, storing) {
  return new Promise(function (resolve) {
    var settled = false;
    function answer(response) { if (!settled) { settled = true; resolve(response); } }
    var timer = setTimeout(function () {
      keptCopy(request, url).then(function (copy) { if (copy && !knownStale(copy)) answer(served(copy)); });
    }, NETWORK_TIMEOUT);
    fetch(request).then(function (response) {
      clearTimeout(timer);
      var copy = response.clone();  // before the page reads the body
      answer(response);
      keep(request, copy).then(storing.resolve, storing.resolve);
    }, function () {
      clearTimeout(timer);
      storing.resolve();
      keptCopy(request, url).then(function (copy) {
        if (copy) answer(served(copy));
        else if (request.mode === "navigate") fallback(lang.unavailable).then(answer);
        else answer(new Response("", { status: 504, statusText: "Offline" }));
      });
    });
  });
}

function knownStale(response) {
  var book = response.headers.get("X-Offline-Book");
  var revision = Number(response.headers.get("X-Offline-Revision"));
  return Boolean(book && latestRevision[book] && revision < latestRevision[book]);
}

// Keep what the reader opened (`response` is the worker's own clone), unless it is someone's own page or may
// not be stored.
function keep(request, response) {
  if (response.status !== 200 || response.type !== "basic" || response.redirected) return Promise.resolve();
  var control = (response.headers.get("Cache-Control") || "").toLowerCase();
  if (control.indexOf("no-store") !== -1 || control.indexOf("private") !== -1) return Promise.resolve();
  var type = response.headers.get("Content-Type") || "";
  if (type.indexOf("text/html") !== 0) {
    return caches.open(HABIT).then(function (cache) {
      return cache.put(request.url, stamped(response, {}, response.body));
    });
  }
  return response.text().then(function (html) {
    if (html.indexOf(PRIVATE_MARK) !== -1) return null;
    var meta = {};
    var tag = /<script[^>]*\sdata-sw="[^"]*"[^>]*>/.exec(html);
    if (tag) {
      var book = /\sdata-book="([^"]*)"/.exec(tag[0]), revision = /\sdata-revision="(\d+)"/.exec(tag[0]);
      if (book && revision) meta = { "X-Offline-Book": book[1], "X-Offline-Revision": revision[1] };
    }
    return caches.open(HABIT).then(function (cache) {
      return cache.put(request.url, stamped(response, meta, html)).then(function () { return trim(cache); });
    });
  });
}

function stamped(response, meta, body) {
  var headers = new Headers({ "Content-Type": response.headers.get("Content-Type") || "application/octet-stream",
                              "X-Offline-Stored": new Date().toISOString() });
  Object.keys(meta).forEach(function (name) { headers.set(name, meta[name]); });
  return new Response(body, { status: 200, headers: headers });
}

function trim(cache) {
  return cache.keys().then(function (keys) {
    var excess = keys.length - MAX_HABIT;
    return Promise.all(keys.slice(0, Math.max(0, excess)).map(function (key) { return cache.delete(key); }));
  });
}

// The newest kept copy of this address in any of rulesref's caches (a kept rulebook or the pages opened).
function keptCopy(request, url) {
  var navigate = request.mode === "navigate";
  return caches.keys().then(function (names) {
    names = names.filter(function (name) { return name.indexOf("rulesref-") === 0; });
    return Promise.all(names.map(function (name) {
      return caches.open(name).then(function (cache) {
        return cache.match(url.href, { ignoreVary: true }).then(function (found) {
          return found || (navigate && url.search ? cache.match(url.href, { ignoreVary: true, ignoreSearch: true }) : null);
        });
      });
    }));
  }).then(function (found) {
    var best = null;
    found.forEach(function (response) {
      if (response && (!best || newer(response, best))) best = response;
    });
    return best;
  });
}

function newer(a, b) {
  var ra = Number(a.headers.get("X-Offline-Revision") || 0), rb = Number(b.headers.get("X-Offline-Revision") || 0);
  if (ra !== rb) return ra > rb;
  return (a.headers.get("X-Offline-Stored") || "") > (b.headers.get("X-Offline-Stored") || "");
}

// A kept page says it is the offline copy (offline.js shows the notice), with the time it was saved.
function served(response) {
  if ((response.headers.get("Content-Type") || "").indexOf("text/html") !== 0) return response;
  var stored = response.headers.get("X-Offline-Stored") || "";
  return response.text().then(function (html) {
    var marked = html.replace("<html", '<html data-offline-copy="' + stored.replace(/[^0-9TZ:.+-]/g, "") + '"');
    return new Response(marked, { status: 200, headers: response.headers });
  });
}

function fallback(address) {
  return caches.match(address, { ignoreVary: true }).then(function (page) {
    if (page) return page.text().then(function (html) {
      return new Response(html, { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
    });
    return new Response("Offline", { status: 503, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  });
}
