// Offline search over the kept rulebooks' indexes (built by rulesref/offline/index.py), following the server's
// search (rulesref/reference/search.py) step by step: a rule number in any printed form goes to its section;
// words are matched by their Snowball stems (static/offline/stem.js, equal to PyStemmer's), all words first, the
// last as a prefix; ranked as SQLite's FTS5 bm25 ranks (title ten times the text), title hits first; "did you
// mean" from the same vocabulary, with difflib's similarity. tests/test_offline_search.py checks that a shared list
// of queries gets the same top result here and on the server.
(function (root) {
  "use strict";
  var Stem = root.RulesrefStem;
  var MAX_QUERY_CHARS = 200, MAX_WORDS = 12, CANDIDATES = 60, LIMIT = 30, K1 = 1.2, B = 0.75;
  var WORD_RE = /[\p{L}\p{N}]+/gu;
  var UNPRINTABLE_RE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}]|(?! )\p{Zs}/gu;
  var NUMBER_QUERY_RE = /^(?:\p{Nd}{1,2}(?:\s*\.\s*\p{Nd}{1,2})*\s*\.?\s*[a-z]?|[IVXLC]+(?:\s*\.\s*(?:\p{Nd}{1,2}|[A-Z]))*)$/iu;
  var TO_LATIN = {};
  "абвгдеёжзийклмнопрстуфхцчшщъыьэюя".split("").forEach(function (ch, i) {
    TO_LATIN[ch] = ["a", "b", "v", "g", "d", "e", "e", "zh", "z", "i", "y", "k", "l", "m", "n", "o", "p", "r", "s", "t",
      "u", "f", "h", "ts", "ch", "sh", "shch", "", "y", "", "e", "yu", "ya"][i];
  });
  var TO_CYRILLIC = [["shch", "щ"], ["zh", "ж"], ["kh", "х"], ["ts", "ц"], ["ch", "ч"], ["sh", "ш"], ["yu", "ю"],
    ["ya", "я"], ["a", "а"], ["b", "б"], ["v", "в"], ["g", "г"], ["d", "д"], ["e", "е"], ["z", "з"], ["i", "и"],
    ["y", "й"], ["k", "к"], ["l", "л"], ["m", "м"], ["n", "н"], ["o", "о"], ["p", "п"], ["r", "р"], ["s", "с"],
    ["t", "т"], ["u", "у"], ["f", "ф"], ["h", "х"], ["c", "к"], ["w", "в"], ["x", "кс"], ["q", "к"], ["j", "дж"]];

  function words(text) { return text.match(WORD_RE) || []; }
  function stemOf(word) { return Stem.stemWord(Stem.normaliseWord(word)); }
  // rulesref.reference.refs.normalise and section_part
  function normalise(raw) { return raw.replace(/\u00a0/g, " ").replace(/\s*\.\s*/g, ".").replace(/^\.+|\.+$/g, ""); }
  function sectionPart(target) {
    var cp = Array.from(target), n = cp.length;
    if (n > 1 && /^\p{Ll}$/u.test(cp[n - 1]) && /^\p{Nd}$/u.test(cp[n - 2])) return [cp.slice(0, -1).join(""), cp[n - 1]];
    return [target, ""];
  }

  // ------------------------------------------------------------------ difflib (SequenceMatcher, get_close_matches)
  function Matcher(a, b) {
    this.a = Array.from(a);
    this.b = Array.from(b);
    var b2j = {}, n = this.b.length;
    this.b.forEach(function (ch, j) { (b2j[ch] = b2j[ch] || []).push(j); });
    if (n >= 200) {  // difflib's autojunk: elements more frequent than 1% are left out of the index
      var ntest = Math.floor(n / 100) + 1;
      Object.keys(b2j).forEach(function (ch) { if (b2j[ch].length > ntest) delete b2j[ch]; });
    }
    this.b2j = b2j;
  }
  Matcher.prototype.longest = function (alo, ahi, blo, bhi) {
    var a = this.a, b = this.b, besti = alo, bestj = blo, bestsize = 0, j2len = {};
    for (var i = alo; i < ahi; i++) {
      var next = {}, js = Object.prototype.hasOwnProperty.call(this.b2j, a[i]) ? this.b2j[a[i]] : [];
      for (var x = 0; x < js.length; x++) {
        var j = js[x];
        if (j < blo) continue;
        if (j >= bhi) break;
        var k = next[j] = (j2len[j - 1] || 0) + 1;
        if (k > bestsize) { besti = i - k + 1; bestj = j - k + 1; bestsize = k; }
      }
      j2len = next;
    }
    while (besti > alo && bestj > blo && a[besti - 1] === b[bestj - 1]) { besti--; bestj--; bestsize++; }
    while (besti + bestsize < ahi && bestj + bestsize < bhi && a[besti + bestsize] === b[bestj + bestsize]) bestsize++;
    return [besti, bestj, bestsize];
  };
  Matcher.prototype.ratio = function () {
    var queue = [[0, this.a.length, 0, this.b.length]], matches = 0;
    while (queue.length) {
      var q = queue.pop(), m = this.longest(q[0], q[1], q[2], q[3]), i = m[0], j = m[1], k = m[2];
      if (k) {
        matches += k;
        if (q[0] < i && q[2] < j) queue.push([q[0], i, q[2], j]);
        if (i + k < q[1] && j + k < q[3]) queue.push([i + k, q[1], j + k, q[3]]);
      }
    }
    var total = this.a.length + this.b.length;
    return total ? 2 * matches / total : 1;
  };
  Matcher.prototype.quickRatio = function () {
    var full = {}, avail = {}, matches = 0;
    this.b.forEach(function (ch) { full[ch] = (full[ch] || 0) + 1; });
    this.a.forEach(function (ch) {
      var left = Object.prototype.hasOwnProperty.call(avail, ch) ? avail[ch] : (full[ch] || 0);
      avail[ch] = left - 1;
      if (left > 0) matches++;
    });
    var total = this.a.length + this.b.length;
    return total ? 2 * matches / total : 1;
  };
  function closeMatch(word, possibilities, cutoff) {
    var best = null, bestScore = -1, lw = Array.from(word).length;
    possibilities.forEach(function (x) {
      var lx = Array.from(x).length, total = lx + lw;
      if ((total ? 2 * Math.min(lx, lw) / total : 1) < cutoff) return;
      var m = new Matcher(x, word);
      if (m.quickRatio() < cutoff) return;
      var score = m.ratio();
      if (score >= cutoff && (score > bestScore || (score === bestScore && x > best))) { best = x; bestScore = score; }
    });
    return best;
  }
  function closeMatches(word, possibilities, n, cutoff) {
    var scored = [];
    possibilities.forEach(function (x) {
      var m = new Matcher(x, word);
      if (m.quickRatio() < cutoff) return;
      var score = m.ratio();
      if (score >= cutoff) scored.push([score, x]);
    });
    scored.sort(function (p, q) { return q[0] - p[0] || (q[1] > p[1] ? 1 : q[1] < p[1] ? -1 : 0); });
    return scored.slice(0, n).map(function (p) { return p[1]; });
  }
  function toLatin(word) {
    return Array.from(word.replace(/дж/g, "dg")).map(function (ch) {
      return Object.prototype.hasOwnProperty.call(TO_LATIN, ch) ? TO_LATIN[ch] : ch;
    }).join("");
  }
  function toCyrillic(word) {
    var out = "", i = 0;
    while (i < word.length) {
      var pair = null;
      for (var k = 0; k < TO_CYRILLIC.length; k++) if (word.startsWith(TO_CYRILLIC[k][0], i)) { pair = TO_CYRILLIC[k]; break; }
      if (pair) { out += pair[1]; i += pair[0].length; } else { out += word[i]; i++; }
    }
    return out;
  }

  // ------------------------------------------------------------------ the books
  function Book(data) {
    this.slug = data.book;
    this.position = data.position;
    this.title = data.title;
    this.sections = data.sections;
    this.bySid = {};
    this.byLower = {};
    var self = this;
    data.sections.forEach(function (s, i) { s.index = i; self.bySid[s.sid] = s; self.byLower[s.sid.toLowerCase()] = s.sid; });
    this.rows = data.rows.map(function (row) {
      var titleStems = row.ts.map(function (id) { return data.stems[id]; });
      var bodyStems = row.bs.map(function (id) { return data.stems[id]; });
      return { book: self, section: data.sections[row.s], language: row.l, title: row.t, body: row.b,
               titleStems: titleStems, bodyStems: bodyStems, titleSet: new Set(titleStems),
               length: titleStems.length + bodyStems.length + 2 };  // + the book and language columns of FTS5
    });
    this.stems = new Set(data.stems);
    this.words = data.words;
  }

  function Search(indexes) {
    this.books = indexes.map(function (data) { return new Book(data); }).sort(function (a, b) {
      return a.position - b.position || (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0);
    });
    var rows = [], stems = new Set(), vocab = { ru: new Set(), en: new Set() };
    this.books.forEach(function (book) {
      rows = rows.concat(book.rows);
      book.stems.forEach(function (s) { stems.add(s); });
      ["ru", "en"].forEach(function (script) { (book.words[script] || []).forEach(function (w) { vocab[script].add(w); }); });
    });
    this.rows = rows;
    this.stems = stems;
    this.vocab = { ru: Array.from(vocab.ru).sort(), en: Array.from(vocab.en).sort() };
    var tokens = 0;
    rows.forEach(function (row) { tokens += row.length; });
    this.averageLength = rows.length ? tokens / rows.length : 1;
  }

  Search.prototype.cleanQuery = function (raw) {
    var text = String(raw).replace(UNPRINTABLE_RE, "").replace(/\s+/g, " ").trim();
    var cp = Array.from(text);
    return [cp.slice(0, MAX_QUERY_CHARS).join(""), cp.length > MAX_QUERY_CHARS];
  };

  Search.prototype.findSection = function (query, books) {
    if (!NUMBER_QUERY_RE.test(query) || !/[\p{Nd}.]/u.test(query)) return null;
    var wanted = normalise(query).replace(/\.+$/, "");
    for (var i = 0; i < books.length; i++) {
      var book = books[i];
      var candidates = [wanted, wanted.toLowerCase(), wanted.toUpperCase()];
      for (var k = 0; k < candidates.length; k++) {
        var sid = book.byLower[candidates[k].toLowerCase()];
        if (sid) return [book, sid, ""];
      }
      var part = sectionPart(wanted.toLowerCase()), found = book.byLower[part[0]];
      if (part[1] && found) return [book, found, part[1]];
    }
    return null;
  };

  // The nearest existing sections to an unknown number (rulesref.reference.views.suggestions).
  Search.prototype.nearest = function (book, raw, limit) {
    var wanted = normalise(raw), found = [], parts = wanted.split(".");
    for (var i = parts.length - 1; i > 0; i--) {
      var prefix = parts.slice(0, i).join(".");
      if (book.bySid[prefix]) {
        found.push(prefix);
        found = found.concat(book.bySid[prefix].children.filter(function (c) { return found.indexOf(c) === -1; }).slice(0, 3));
        break;
      }
    }
    found = found.concat(closeMatches(wanted, book.sections.map(function (s) { return s.sid; }), limit, 0.5));
    return found.filter(function (sid, n) { return found.indexOf(sid) === n; }).slice(0, limit)
      .map(function (sid) { return book.bySid[sid]; });
  };

  Search.prototype.search = function (rawQuery, lang, bookSlug, textLang) {
    var cleaned = this.cleanQuery(rawQuery), query = cleaned[0];
    var result = { query: query, truncated: cleaned[1], jump: null, jumpLabel: "", groups: [], suggestion: "",
                   shownFor: "", partial: false, missingSection: "", nearest: [], count: 0 };
    if (!query) return result;
    var books = this.books;
    if (bookSlug) books = books.filter(function (b) { return b.slug === bookSlug; }).length ? books.filter(function (b) { return b.slug === bookSlug; }) : books;
    if (textLang !== "ru" && textLang !== "en") textLang = "";
    var section = this.findSection(query, books);
    if (section) {
      var entry = section[0].bySid[section[1]];
      result.jump = entry.urls[lang] + (section[2] ? "#" + entry.sid + section[2] : "");
      result.jumpLabel = entry.labels[lang];
      return result;
    }
    if (NUMBER_QUERY_RE.test(query) && /\p{Nd}/u.test(query)) {
      result.missingSection = normalise(query);
      var self = this;
      books.forEach(function (book) {
        self.nearest(book, result.missingSection, 6).forEach(function (s) { result.nearest.push([book, s]); });
      });
      return result;
    }
    var queryWords = words(query).map(Stem.normaliseWord).slice(0, MAX_WORDS);
    if (!queryWords.length) return result;
    var hits = this.run(queryWords, books, textLang, lang, true);
    if (!hits.length && queryWords.length > 1) {
      hits = this.run(queryWords, books, textLang, lang, false);
      result.partial = hits.length > 0;
    }
    var suggestion = this.suggest(queryWords);
    if (suggestion && suggestion !== queryWords.join(" ")) {
      result.suggestion = suggestion;
      if (!hits.length) {
        hits = this.run(suggestion.split(" "), books, textLang, lang, true);
        result.shownFor = hits.length ? suggestion : "";
      }
    }
    books.forEach(function (book) {
      var group = hits.filter(function (h) { return h.book === book; });
      if (group.length) result.groups.push([book, group]);
    });
    result.count = hits.length;
    return result;
  };

  // FTS5's bm25 over the rows of these books: lower is better.
  Search.prototype.candidates = function (stems, books, textLang, allWords) {
    var rows = this.rows, total = rows.length, last = stems.length - 1, self = this;
    function occurrences(list, i) {
      var n = 0;
      for (var k = 0; k < list.length; k++) if (i === last ? list[k].startsWith(stems[i]) : list[k] === stems[i]) n++;
      return n;
    }
    var idf = stems.map(function (stem, i) {
      var hitRows = 0;
      rows.forEach(function (row) { if (occurrences(row.titleStems, i) || occurrences(row.bodyStems, i)) hitRows++; });
      var value = Math.log((total - hitRows + 0.5) / (hitRows + 0.5));
      return value <= 0 ? 1e-6 : value;
    });
    var out = [];
    rows.forEach(function (row) {
      if (books.indexOf(row.book) === -1 || (textLang && row.language !== textLang)) return;
      var score = 0, matched = 0;
      stems.forEach(function (stem, i) {
        var inTitle = occurrences(row.titleStems, i), inBody = occurrences(row.bodyStems, i);
        if (inTitle || inBody) matched++;
        var freq = 10 * inTitle + inBody;
        score += idf[i] * (freq * (K1 + 1)) / (freq + K1 * (1 - B + B * row.length / self.averageLength));
      });
      if (allWords ? matched === stems.length : matched > 0) out.push([row, -score]);
    });
    out.sort(function (p, q) { return p[1] - q[1]; });
    return out.slice(0, CANDIDATES);
  };

  Search.prototype.run = function (queryWords, books, textLang, lang, allWords) {
    var stems = queryWords.map(function (w) { return Stem.stemWord(w); });
    var wanted = new Set(stems);
    var best = new Map();
    this.candidates(stems, books, textLang, allWords).forEach(function (pair) {
      var row = pair[0], rank = pair[1], common = 0;
      wanted.forEach(function (s) { if (row.titleSet.has(s)) common++; });
      var titleHit = allWords ? common === wanted.size : common > 0;
      var hit = { book: row.book, section: row.section, language: row.language, row: row, titleHit: titleHit,
                  coverage: row.titleSet.size ? common / row.titleSet.size : 0, rank: rank };
      var key = row.book.slug + "\u0000" + row.section.sid, current = best.get(key);
      if (!current || better(hit, current, lang)) best.set(key, hit);
    });
    var hits = Array.from(best.values()).sort(function (p, q) {
      return compare([!p.titleHit, p.titleHit ? -p.coverage : 0, p.titleHit ? p.section.depth : 0, p.rank,
                      p.book.position, p.section.position],
                     [!q.titleHit, q.titleHit ? -q.coverage : 0, q.titleHit ? q.section.depth : 0, q.rank,
                      q.book.position, q.section.position]);
    }).slice(0, LIMIT);
    hits.forEach(function (hit) {
      hit.url = hit.section.urls[lang];
      hit.label = hit.section.labels[hit.language];
      hit.wanted = wanted;
    });
    return hits;
  };

  function better(hit, current, lang) {
    return compare([hit.titleHit, hit.coverage, -hit.rank, hit.language === lang],
                   [current.titleHit, current.coverage, -current.rank, current.language === lang]) > 0;
  }
  function compare(a, b) {
    for (var i = 0; i < a.length; i++) {
      var x = Number(a[i]), y = Number(b[i]);
      if (x !== y) return x < y ? -1 : 1;
    }
    return 0;
  }

  Search.prototype.suggest = function (queryWords) {
    var changed = false, self = this;
    var out = queryWords.map(function (word) {
      var script = Stem.scriptOf(word), stem = Stem.stemWord(word);
      if (self.stems.has(stem) || /^\p{Nd}+$/u.test(word) || Array.from(word).length < 3) return word;
      var other = script === "ru" ? "en" : "ru";
      var spelled = script === "ru" ? toLatin(word) : toCyrillic(word);
      var options = [closeMatch(word, self.vocab[script], 0.75), closeMatch(spelled, self.vocab[other], 0.75)]
        .filter(function (o) { return o !== null; });
      if (!options.length) return word;
      var chosen = options[0], score = -1;
      options.forEach(function (o) {
        var r = new Matcher(Stem.scriptOf(o) === script ? word : spelled, o).ratio();
        if (r > score) { score = r; chosen = o; }
      });
      changed = true;
      return chosen;
    });
    return changed ? out.join(" ") : "";
  };

  // ------------------------------------------------------------------ highlighting, as the server's
  function isWanted(word, wanted) {
    var stem = stemOf(word);
    if (wanted.has(stem)) return true;
    var found = false;
    wanted.forEach(function (s) { if (!found && Array.from(s).length >= 3 && stem.startsWith(s)) found = true; });
    return found;
  }
  function marks(text, wanted, firstOnly) {
    var spans = [], m;
    WORD_RE.lastIndex = 0;
    while ((m = WORD_RE.exec(text)) !== null) {
      if (isWanted(m[0], wanted)) {
        spans.push([m.index, m.index + m[0].length]);
        if (firstOnly) break;
      }
    }
    WORD_RE.lastIndex = 0;
    return spans;
  }
  // Text nodes and <mark> elements: nothing from the corpus is ever markup.
  function highlighted(text, wanted) {
    var nodes = [], position = 0;
    marks(text, wanted, false).forEach(function (span) {
      nodes.push(document.createTextNode(text.slice(position, span[0])));
      var mark = document.createElement("mark");
      mark.textContent = text.slice(span[0], span[1]);
      nodes.push(mark);
      position = span[1];
    });
    nodes.push(document.createTextNode(text.slice(position)));
    return nodes;
  }
  function snippet(body, wanted, width) {
    width = width || 200;
    var flat = body.replace(/\s+/g, " ");
    var found = marks(flat, wanted, true);
    var start = found.length ? Math.max(0, found[0][0] - Math.floor(width / 3)) : 0;
    if (start) start = (flat.indexOf(" ", start) + 1) || start;
    var end = Math.min(flat.length, start + width);
    if (end < flat.length) {
      var space = end - 1 >= start ? flat.lastIndexOf(" ", end - 1) : -1;
      end = space > start ? space : end;
    }
    var nodes = highlighted(flat.slice(start, end), wanted);
    if (start) nodes.unshift(document.createTextNode("… "));
    if (end < flat.length) nodes.push(document.createTextNode(" …"));
    return nodes;
  }

  // ------------------------------------------------------------------ rendering, as the server's results partial
  function format(template, values) {
    return String(template || "").replace(/%\((\w+)\)s/g, function (all, name) {
      return Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : all;
    });
  }
  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (name) {
      if (name === "text") node.textContent = attrs[name]; else node.setAttribute(name, attrs[name]);
    });
    (children || []).forEach(function (c) { node.appendChild(typeof c === "string" ? document.createTextNode(c) : c); });
    return node;
  }

  Search.prototype.render = function (result, s, lang, searchUrl, bookFilter) {
    var box = el("div", { "class": "search-results offline-results" });
    if (!this.books.length) { box.appendChild(el("p", { text: s.noKept })); return box; }
    box.appendChild(el("p", { "class": "muted offline-search-note", text: s.offlineResults }));
    if (result.jump) {
      box.appendChild(el("p", { "class": "jump" }, [el("a", { href: result.jump }, [s.goTo + " ", el("strong", { text: result.jumpLabel })])]));
      return box;
    }
    if (!result.query) return box;
    if (result.truncated) box.appendChild(el("p", { "class": "muted", text: s.truncated }));
    if (result.missingSection) {
      box.appendChild(el("p", { text: format(s.noSection, { number: result.missingSection }) }));
      if (result.nearest.length) {
        box.appendChild(el("p", { text: s.nearest }));
        box.appendChild(el("ul", { "class": "hits" }, result.nearest.map(function (pair) {
          var section = pair[1];
          return el("li", {}, [el("a", { href: section.urls[lang],
            text: pair[0].slug + " " + (section.number || section.sid) + " " + (section.titles[lang] || section.titles.ru || "") })]);
        })));
      }
      return box;
    }
    if (result.suggestion) {
      var href = searchUrl + "?q=" + encodeURIComponent(result.suggestion) + (bookFilter ? "&book=" + encodeURIComponent(bookFilter) : "");
      var mean = el("p", { "class": "did-you-mean" }, [s.didYouMean + " ", el("a", { href: href, text: result.suggestion }), "?"]);
      if (result.shownFor) mean.appendChild(document.createTextNode(" " + format(s.showingFor, { s: result.shownFor })));
      box.appendChild(mean);
    }
    if (result.partial) box.appendChild(el("p", { "class": "muted", text: s.partial }));
    if (!result.groups.length) {
      box.appendChild(el("p", { text: format(s.nothing, { query: result.query }) }));
      return box;
    }
    var forms = s.found || {}, category = new Intl.PluralRules(lang).select(result.count);
    box.appendChild(el("p", { "class": "muted", text: format(forms[category] || forms.other || "", { counter: result.count }) }));
    result.groups.forEach(function (group) {
      var list = el("ul", { "class": "hits" }, group[1].map(function (hit) {
        var item = el("li", {}, [el("a", { href: hit.url }, highlighted(hit.label, hit.wanted))]);
        if (hit.language !== lang) {
          item.appendChild(document.createTextNode(" "));
          item.appendChild(el("span", { "class": "badge muted", lang: hit.language, text: hit.language }));
        }
        item.appendChild(el("p", { "class": "snippet", lang: hit.language }, snippet(hit.row.body, hit.wanted)));
        return item;
      }));
      box.appendChild(el("section", { "class": "hit-group" }, [el("h2", { text: group[0].title[lang] }), list]));
    });
    return box;
  };

  root.RulesrefSearch = Search;
})(typeof self !== "undefined" ? self : this);
