// Offline search over the kept rulebooks' indexes (built by rulesref/offline/index.py), following the server's
// search (rulesref/reference/search.py) step by step, with what the server decides from data shipped in the
// index: a rule number in any printed form (the server's own grammar and the book's own forms, as regular
// expressions) goes to its section; words are matched by their Snowball stems (static/offline/stem.js, equal to
// PyStemmer's), all words first, the last as a prefix; the candidates are those the server's database gives (the
// first title hits in the order of its titles' index, the glossary term's defining sections, the best texts by
// bm25 with the title weighted as the server weighs it), ordered in the server's tiers and order (the title names the
// query or the term typed, the defining sections that use the words as typed, other title hits, other defining
// sections, the rest); "did you mean" from the same vocabulary, transliteration and difflib similarity. The limits,
// weights, tiers and order are the server's own (rulesref/reference/search_ranking.py), received as data with the
// index. tests/test_offline_search.py checks that the results agree with the server's.
(function (root) {
  "use strict";
  var Stem = root.RulesrefStem;
  // How the server ranks (rulesref/reference/search_ranking.py), received as data with the indexes: the limits, the
  // weights of bm25, the order of the titles' index, the tiers and the order within them. (An index kept by a release
  // before it lacks them: it is searched with those of another kept index, or, if none has them, not searched until
  // the reader updates the copy.)
  var RANKING = null, LIMITS = null;
  var UNPRINTABLE_RE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}]|(?! )\p{Zs}/gu;
  // The site's one text normalisation (rulesref/text.py), received as data with every index: the folds, the
  // words' pattern and the transliteration tables. (An index kept by an older release lacks them: its words are
  // then only lower-cased, and "did you mean" stays in the query's script, until the reader updates the copy.)
  var TEXT = { folds: {}, toLatin: {}, toLatinPairs: {}, toCyrillic: [] }, WORD_RE = /[\p{L}\p{N}]+/gu;
  function useText(data) {
    if (!data) return;
    TEXT = data;
    WORD_RE = new RegExp(data.word, "gu");
  }

  function has(object, key) { return Object.prototype.hasOwnProperty.call(object, key); }
  function words(text) { return text.match(WORD_RE) || []; }
  // rulesref.text.fold: lower case, then the folds (ё as е)
  function fold(text) {
    var out = text.toLowerCase();
    Object.keys(TEXT.folds).forEach(function (letter) { out = out.split(letter).join(TEXT.folds[letter]); });
    return out;
  }
  function stemOf(word) { return Stem.stemWord(fold(word)); }
  function codePoints(text) { return Array.from(text).length; }
  function compare(a, b) {
    for (var i = 0; i < a.length; i++) {
      var x = Number(a[i]), y = Number(b[i]);
      if (x !== y) return x < y ? -1 : 1;
    }
    return 0;
  }

  function useRanking(data) {
    RANKING = data;
    LIMITS = data.limits;
  }
  // search_ranking.tier_of: the first tier whose facts all hold
  function tierOf(facts) {
    var tiers = RANKING.tiers;
    for (var i = 0; i < tiers.length; i++) {
      if (tiers[i].needs.every(function (fact) { return facts[fact]; })) return tiers[i].tier;
    }
    return tiers[tiers.length - 1].tier;
  }
  // search_ranking.order_key: a candidate's place (smaller first), each key of the order that applies to its tier
  function orderKey(tier, values) {
    var key = [];
    RANKING.order.forEach(function (field) {
      if (field.tiers.length && field.tiers.indexOf(tier) === -1) return;
      var value = field.key === "tier" ? tier : Number(values[field.key]);
      key.push(field.descending ? -value : value);
    });
    return key;
  }

  // ------------------------------------------------------------------ rule numbers (rulesref.reference.refs)
  function regex(source, flags) {
    if (typeof source !== "string" || !source) return null;
    try { return new RegExp(source, flags); } catch (e) { return null; }
  }
  // The grammar of rule numbers (rulesref/reference/numbering.py), received as data with the book's index.
  function Numbering(data) {
    this.digit = regex(data.digit, "u") || /\p{Nd}/u;
    this.dots = regex(data.dots, "gu");
    this.ownSeparators = regex(data.ownSeparators, "gu");
    this.smallPrefix = regex(data.smallPrefix, "u");
    this.prefixVariant = regex(data.prefixVariant, "u");
    this.patterns = (data.patterns || []).map(function (p) { return regex("^(?:" + p + ")$", "u"); })
      .filter(Boolean);
    this.words = regex(data.words, "iu");
    this.number = regex(data.number, "iu");
    this.roman = data.roman ? regex("^[" + data.roman + "]+$", "u") : null;
    this.latin = data.latin || {};
  }
  Numbering.prototype.latinise = function (text) {
    var latin = this.latin;
    return Array.from(text).map(function (ch) { return has(latin, ch) ? latin[ch] : ch; }).join("");
  };
  // refs.normalise: "11. 4. 5" -> "11.4.5", "О22.3" -> "O22.3"; text without a digit keeps its letters
  Numbering.prototype.normalise = function (raw) {
    var text = raw.replace(/\u00a0/g, " ");
    if (this.dots) text = text.replace(this.dots, ".");
    text = text.replace(/^\.+|\.+$/g, "").trim();
    return this.digit.test(text) ? this.latinise(text) : text;
  };
  function chapterOf(number) {
    return number.length > 2 && number.slice(-2) === ".0" ? number.slice(0, -2) : number;
  }
  // refs.number_query: the id a query names when it is a rule number in any printed form, else null
  Numbering.prototype.query = function (query) {
    var text = query.trim(), m;
    for (var i = 0; i < this.patterns.length; i++) {
      m = this.patterns[i].exec(text);
      if (m && m.groups && m.groups.num) {
        var own = m.groups.num.trim();
        return this.normalise(this.ownSeparators ? own.replace(this.ownSeparators, ".") : own);
      }
    }
    if (this.words) text = text.replace(this.words, "").trim();
    if (codePoints(text) > 2) {
      var cp = Array.from(text), ends = cp[0] + cp[cp.length - 1];
      if (ends === "[]" || ends === "()") text = cp.slice(1, -1).join("").trim();
    }
    if (this.smallPrefix) text = text.replace(this.smallPrefix, function (s) { return s.toUpperCase(); });
    if (this.roman && this.roman.test(text) && text === text.toUpperCase()) return this.latinise(text);
    if (!this.number || !this.number.test(text) || !this.digit.test(text)) return null;
    return chapterOf(this.normalise(text));
  };
  // numbering.number_variants: a letter prefix with or without its dot
  Numbering.prototype.variants = function (number) {
    var variants = [number], m = this.prefixVariant ? this.prefixVariant.exec(number) : null;
    if (m) variants.push(m[1] + (m[2] ? "" : ".") + m[3]);
    return variants;
  };
  // refs.section_part: "10.9.3b" -> ["10.9.3", "b"]
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
  // rulesref.text.to_latin and to_cyrillic, from the tables received
  function toLatin(word) {
    Object.keys(TEXT.toLatinPairs).forEach(function (pair) { word = word.split(pair).join(TEXT.toLatinPairs[pair]); });
    return Array.from(word).map(function (ch) { return has(TEXT.toLatin, ch) ? TEXT.toLatin[ch] : ch; }).join("");
  }
  function toCyrillic(word) {
    var out = "", i = 0, table = TEXT.toCyrillic;
    while (i < word.length) {
      var pair = null;
      for (var k = 0; k < table.length; k++) if (word.startsWith(table[k][0], i)) { pair = table[k]; break; }
      if (pair) { out += pair[1]; i += pair[0].length; } else { out += word[i]; i++; }
    }
    return out;
  }

  // ------------------------------------------------------------------ the books
  function Book(data) {
    var self = this;
    this.slug = data.book;
    this.key = data.key || 0;
    this.position = data.position;
    this.title = data.title;
    this.sections = data.sections;
    this.numbering = new Numbering(data.numbering || {});
    this.bySid = {};
    this.byLower = {};
    data.sections.forEach(function (s, i) {
      s.index = i;
      self.bySid[s.sid] = s;
      self.byLower[s.sid.toLowerCase()] = s.sid;
    });
    var stems = data.stems;
    function strings(ids) { return ids.map(function (id) { return stems[id]; }); }
    this.rows = data.rows.map(function (row, order) {
      var titleStems = strings(row.ts), bodyStems = strings(row.bs);
      return { book: self, order: order, section: data.sections[row.s], language: row.l, title: row.t, body: row.b,
               titleStems: titleStems, bodyStems: bodyStems, titleSet: new Set(titleStems),
               stemSet: new Set(titleStems.concat(bodyStems)) };
    });
    this.terms = (data.terms || []).map(function (term) {
      return { forms: term.f, formStems: term.fs.map(strings),
               sections: term.s.map(function (i) { return data.sections[i]; }) };
    });
    // (An index kept by an older release lacks what it does not name: it is searched without it until the
    // "rules were updated" notice has the reader update the copy.)
    var vocabulary = data.words || {};
    this.words = vocabulary.w || [];
    this.knownStems = new Set(strings(vocabulary.s || []));
    // The published rulings (rulesref/rulings/offline.py), newest first: each text with its stems, its question's
    // stems, the clauses it answers and its addresses.
    var rulings = data.rulings || {};
    this.rulingLimits = { scanned: rulings.scanned || 0, shown: rulings.shown || 0 };
    this.rulings = (rulings.rows || []).map(function (r) {
      return { book: self, number: r.n, language: r.l, question: r.q, answer: r.a, stemSet: new Set(strings(r.s)),
               questionSet: new Set(strings(r.qs)), urls: r.u,
               clauses: r.c.map(function (c) {
                 return { section: c[0] >= 0 ? data.sections[c[0]] : null, sid: c[1], clause: c[2] };
               }) };
    });
  }

  function Search(indexes) {
    if (indexes.length) useText(indexes[0].text);
    var ranked = indexes.filter(function (data) { return data.ranking; });
    if (ranked.length) useRanking(ranked[0].ranking); else indexes = [];
    this.books = indexes.map(function (data) { return new Book(data); }).sort(function (a, b) {
      return a.position - b.position || (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0);
    });
    // The rows as the server's FTS tables hold them, in rowid order (book, section, Russian then English); the
    // statistics of bm25 cover them all, whatever the filters.
    var rows = [];
    this.books.slice().sort(function (a, b) { return a.key - b.key; }).forEach(function (book) {
      rows = rows.concat(book.rows);
    });
    this.rows = rows;
    var tokens = 0;
    rows.forEach(function (row) { tokens += row.titleStems.length + row.bodyStems.length; });
    this.averageLength = tokens / Math.max(rows.length, 1);
  }

  // search.clean_query: printable characters, one space between words, at most maxQueryChars
  Search.prototype.cleanQuery = function (raw) {
    var text = String(raw).replace(UNPRINTABLE_RE, "").replace(/\s+/gu, " ").trim();
    var cp = Array.from(text), most = LIMITS.maxQueryChars;
    return [cp.slice(0, most).join(""), cp.length > most];
  };

  // search.find_section: [book, section id, clause letter] for a query that is a section number of these books
  Search.prototype.findSection = function (query, books) {
    for (var i = 0; i < books.length; i++) {
      var book = books[i], number = book.numbering.query(query);
      if (number === null) continue;
      var variants = book.numbering.variants(number).map(function (v) { return v.toLowerCase(); });
      for (var k = 0; k < variants.length; k++) {
        if (has(book.byLower, variants[k])) return [book, book.byLower[variants[k]], ""];
        var part = sectionPart(variants[k]);
        if (part[1] && has(book.byLower, part[0])) return [book, book.byLower[part[0]], part[1]];
      }
    }
    return null;
  };

  // The nearest existing sections to an unknown number (rulesref.reference.views.suggestions).
  Search.prototype.nearest = function (book, raw, limit) {
    var wanted = book.numbering.normalise(raw), found = [], parts = wanted.split(".");
    for (var i = parts.length - 1; i > 0; i--) {
      var prefix = parts.slice(0, i).join(".");
      if (has(book.bySid, prefix)) {
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
    var cleaned = RANKING ? this.cleanQuery(rawQuery) : ["", false], query = cleaned[0];
    var result = { query: query, truncated: cleaned[1], jump: null, jumpLabel: "", groups: [], suggestion: "",
                   shownFor: "", partial: false, missingSection: "", nearest: [], count: 0, more: false,
                   rulings: [] };
    if (!query) return result;
    var books = this.books;
    if (bookSlug && books.some(function (b) { return b.slug === bookSlug; })) {
      books = books.filter(function (b) { return b.slug === bookSlug; });
    }
    if (textLang !== "ru" && textLang !== "en") textLang = "";
    var section = this.findSection(query, books);
    if (section) {
      var entry = section[0].bySid[section[1]];
      result.jump = entry.urls[lang] + (section[2] ? "#" + entry.sid + section[2] : "");
      result.jumpLabel = entry.labels[lang];
      return result;
    }
    for (var i = 0; i < books.length; i++) {
      var number = books[i].numbering.query(query);
      if (number && books[i].numbering.digit.test(number)) { result.missingSection = number; break; }
    }
    if (result.missingSection) {  // a number no book has: the nearest sections instead
      var self = this;
      books.forEach(function (book) {
        self.nearest(book, result.missingSection, 6).forEach(function (s) { result.nearest.push([book, s]); });
      });
      return result;
    }
    var queryWords = words(fold(query)).slice(0, LIMITS.maxWords);
    if (!queryWords.length) return result;
    var groups = this.run(queryWords, books, textLang, lang, true);
    if (!groups.length && queryWords.length > 1) {
      groups = this.run(queryWords, books, textLang, lang, false);
      result.partial = groups.length > 0;
    }
    // A query whose every word was found needs no "did you mean"; one found in part or not at all may.
    var suggestion = !groups.length || result.partial ? this.suggest(queryWords, books, groups.length > 0) : "";
    if (suggestion && suggestion !== queryWords.join(" ")) {
      result.suggestion = suggestion;
      if (!groups.length) {
        groups = this.run(suggestion.split(" "), books, textLang, lang, true);
        result.shownFor = groups.length ? suggestion : "";
      }
    }
    result.groups = groups.filter(function (g) { return g[1].length; });
    groups.forEach(function (g) { result.count += g[2]; result.more = result.more || g[3]; });
    result.rulings = this.findRulings(queryWords, books, textLang, lang);
    return result;
  };

  // ------------------------------------------------------------------ rulings (rulesref/rulings/search.py)
  // The published rulings that hold the words (all of them; else, for several words, any), in the server's order.
  Search.prototype.findRulings = function (queryWords, books, textLang, lang) {
    var found = rulingsFor(new Query(queryWords, true), books, textLang, lang);
    if (!found.length && queryWords.length > 1) found = rulingsFor(new Query(queryWords, false), books, textLang, lang);
    return found;
  };
  function byText(a, b) { return a < b ? -1 : a > b ? 1 : 0; }
  // search.find: the matching texts as the server reads them (the newest ruling first, then by language and book,
  // at most `scanned`), each ruling once at its best place, the first `shown`.
  function rulingsFor(q, books, textLang, lang) {
    var rows = [], scanned = Infinity, shown = Infinity;
    books.forEach(function (book) {
      scanned = Math.min(scanned, book.rulingLimits.scanned);
      shown = Math.min(shown, book.rulingLimits.shown);
      book.rulings.forEach(function (r) {
        if ((!textLang || r.language === textLang) && q.matches(r.stemSet)) rows.push(r);
      });
    });
    rows.sort(function (a, b) { return b.number - a.number || byText(a.language, b.language) || a.book.key - b.book.key; });
    var best = new Map();
    rows.slice(0, scanned).forEach(function (r) {
      var key = rulingPlace(q, r, lang).concat([r.number]), id = r.book.slug + " " + r.number;
      if (!best.has(id) || compare(key, best.get(id).key) < 0) best.set(id, { key: key, row: r, wanted: q.wanted });
    });
    return Array.from(best.values()).sort(function (a, b) { return compare(a.key, b.key); }).slice(0, shown);
  }
  // search.place: a ruling's text's place in the server's order, its question standing for a title
  function rulingPlace(q, r, lang) {
    var titleHit = q.matches(r.questionSet), common = 0;
    var tier = tierOf({ exactTitle: titleHit && q.uses(r.question), defining: false,
                        usesTyped: q.uses(r.question + "\n" + r.answer), titleHit: titleHit });
    q.wanted.forEach(function (s) { if (r.questionSet.has(s)) common++; });
    var first = null;
    for (var i = 0; i < r.clauses.length && !first; i++) if (r.clauses[i].section) first = r.clauses[i].section;
    return orderKey(tier, { coverage: titleHit && r.questionSet.size ? common / r.questionSet.size : 0,
                            depth: first ? first.depth : 0, rank: 0, bookPosition: r.book.position,
                            position: first ? first.position : r.book.sections.length,
                            otherLanguage: r.language !== lang ? 1 : 0 });
  }

  // search_query.Query: the stems of the words, the last a prefix the reader may still be typing (from prefixMin
  // letters)
  function Query(queryWords, allWords) {
    this.words = queryWords;
    this.allWords = allWords;
    this.stems = queryWords.map(function (w) { return Stem.stemWord(w); });
    this.wanted = new Set(this.stems);
    this.prefix = codePoints(this.stems[this.stems.length - 1]) >= LIMITS.prefixMin;
  }
  Query.prototype.matches = function (stemSet) {
    var last = this.stems[this.stems.length - 1], found = 0;
    for (var i = 0; i < this.stems.length - 1; i++) if (stemSet.has(this.stems[i])) found++;
    var lastFound = stemSet.has(last);
    if (!lastFound && this.prefix) stemSet.forEach(function (s) { if (!lastFound && s.startsWith(last)) lastFound = true; });
    if (lastFound) found++;
    return this.allWords ? found === this.stems.length : found > 0;
  };
  // Whether the text has the words in the very form typed (all of them, or any for a partial query).
  Query.prototype.uses = function (text) {
    var typed = new Set(this.words), found = new Set();
    words(fold(text)).forEach(function (w) { if (typed.has(w)) found.add(w); });
    return this.allWords ? found.size === typed.size : found.size > 0;
  };

  // FTS5's bm25 of these rows for the query's phrases (the last a prefix), the title and the text weighted as the
  // server weighs them: lower is better, as in SQLite.
  Search.prototype.bm25 = function (q) {
    var rows = this.rows, total = rows.length, last = q.prefix ? q.stems.length - 1 : -1;
    var average = this.averageLength, bm25 = RANKING.bm25, k1 = bm25.k1, b = bm25.b;
    function count(list, i) {
      var n = 0, stem = q.stems[i];
      for (var k = 0; k < list.length; k++) if (i === last ? list[k].startsWith(stem) : list[k] === stem) n++;
      return n;
    }
    var perRow = rows.map(function (row) {
      return q.stems.map(function (_, i) {
        return [count(row.titleStems, i), count(row.bodyStems, i)];
      });
    });
    var idf = q.stems.map(function (_, i) {
      var hitRows = 0;
      perRow.forEach(function (freqs) { if (freqs[i][0] || freqs[i][1]) hitRows++; });
      var value = Math.log((total - hitRows + 0.5) / (hitRows + 0.5));
      return value <= 0 ? 1e-6 : value;
    });
    return rows.map(function (row, r) {
      var size = row.titleStems.length + row.bodyStems.length, score = 0, matched = 0;
      perRow[r].forEach(function (freqs, i) {
        var freq = bm25.titleWeight * freqs[0] + bm25.bodyWeight * freqs[1];
        if (freqs[0] || freqs[1]) matched++;
        score += idf[i] * ((freq * (k1 + 1.0)) / (freq + k1 * (1 - b + b * size / average)));
      });
      return { row: row, rank: -1.0 * score, matched: matched };
    });
  };

  // The first `limit` title hits of these books and languages in the order of the server's titles' index
  // (search_sqlite.title_key): the title of fewest words first, then the more general section, then rowid.
  function titleHits(rows, q, books, textLang, limit) {
    var order = RANKING.titleOrder;
    function size(row) { return Math.min(row.titleSet.size, order.maxSize); }
    function depth(row) { return Math.min(row.section.depth, order.maxDepth); }
    return rows.filter(function (row) {
      return books.indexOf(row.book) !== -1 && (!textLang || row.language === textLang) && q.matches(row.titleSet);
    }).sort(function (a, b) {
      return size(a) - size(b) || depth(a) - depth(b) || a.book.key - b.book.key || a.order - b.order;
    }).slice(0, limit);
  }

  // The best `limit` matching rows of these books and languages by rank, then rowid (SQLite's ORDER BY).
  function best(scored, q, books, textLang, limit) {
    return scored.filter(function (s) {
      return books.indexOf(s.row.book) !== -1 && (!textLang || s.row.language === textLang) &&
        (q.allWords ? s.matched === q.stems.length : s.matched > 0);
    }).sort(function (a, b) { return a.rank - b.rank || a.row.book.key - b.row.book.key || a.row.order - b.row.order; })
      .slice(0, limit);
  }

  // search_terms.named_terms: the glossary terms the query names, their defining sections, and the stems of every
  // form of the terms typed exactly as one of their forms
  function namedTerms(q, books) {
    var named = { sections: new Set(), typedForms: new Map() };
    books.forEach(function (book) {
      book.terms.forEach(function (term) {
        var names = term.formStems.some(function (stems) { return stems.every(function (s) { return q.wanted.has(s); }); });
        if (!names) return;
        term.sections.forEach(function (s) { named.sections.add(s); });
        var typed = term.forms.some(function (form) {
          return form.length === q.words.length && form.every(function (w, i) { return w === q.words[i]; });
        });
        if (typed) {
          var forms = named.typedForms.get(book) || [];
          named.typedForms.set(book, forms.concat(term.formStems));
        }
      });
    });
    named.names = function (book, stemSet) {
      return (named.typedForms.get(book) || []).some(function (stems) {
        return stems.every(function (s) { return stemSet.has(s); });
      });
    };
    return named;
  }

  // search._run: the candidates the server's database gives, in the server's order; [book, hits, total, more]
  Search.prototype.run = function (queryWords, books, textLang, lang, allWords) {
    var q = new Query(queryWords, allWords), languages = textLang ? [textLang] : ["ru", "en"];
    var candidates = new Map(), sections = new Set();
    function add(row, rank, titleHitByDb) {
      if (candidates.has(row)) return;
      candidates.set(row, { row: row, rank: rank, titleHitByDb: titleHitByDb });
      sections.add(row.section);
    }
    titleHits(this.rows, q, books, textLang, Math.max(LIMITS.pageSize, LIMITS.titlePool)).forEach(function (row) {
      add(row, 0, true);
    });
    var named = namedTerms(q, books);
    this.rows.forEach(function (row) {  // the defining sections' texts, if they match the query or name the term
      if (!named.sections.has(row.section) || books.indexOf(row.book) === -1 || languages.indexOf(row.language) === -1) return;
      if (q.matches(row.stemSet) || named.names(row.book, row.stemSet)) add(row, 0, false);
    });
    var scored = this.bm25(q);
    if (sections.size < LIMITS.pageSize) {
      best(scored, q, books, textLang, LIMITS.rankedPages * LIMITS.pageSize + candidates.size).forEach(function (s) {
        add(s.row, s.rank, false);
      });
    }
    var totals = new Map();
    best(scored, q, books, textLang, Infinity).forEach(function (s) {
      var found = totals.get(s.row.book) || new Set();
      found.add(s.row.section);
      totals.set(s.row.book, found);
    });
    if (!totals.size) return [];
    var bySection = new Map();
    candidates.forEach(function (c) {
      var row = c.row, titleHit = q.matches(row.titleSet);
      var exactTitle = (titleHit && q.uses(row.title)) || named.names(row.book, row.titleSet);
      var defining = named.sections.has(row.section);
      var uses = defining && q.uses(row.title + "\n" + row.body);
      var tier = tierOf({ exactTitle: exactTitle, defining: defining, usesTyped: uses, titleHit: titleHit });
      var common = 0;
      q.wanted.forEach(function (s) { if (row.titleSet.has(s)) common++; });
      var coverage = row.titleSet.size && titleHit ? common / row.titleSet.size : 0;
      var key = orderKey(tier, { coverage: coverage, depth: row.section.depth, rank: c.rank,
                                 bookPosition: row.book.position, position: row.section.position,
                                 otherLanguage: row.language !== lang ? 1 : 0 });
      var current = bySection.get(row.section);
      if (!current || compare(key, current.key) < 0) {
        bySection.set(row.section, { key: key, row: row, titleHit: titleHit, tier: tier, coverage: coverage, rank: c.rank });
      }
    });
    var ordered = Array.from(bySection.values()).sort(function (a, b) { return compare(a.key, b.key); })
      .slice(0, LIMITS.pageSize);
    var groups = new Map();
    ordered.forEach(function (item) {
      var row = item.row;
      if (!groups.has(row.book)) groups.set(row.book, []);
      groups.get(row.book).push({ book: row.book, section: row.section, language: row.language, row: row,
                                  titleHit: item.titleHit, tier: item.tier, coverage: item.coverage, rank: item.rank,
                                  url: row.section.urls[lang], label: label(row), wanted: q.wanted });
    });
    var order = Array.from(groups.keys()).concat(books.filter(function (b) { return !groups.has(b); }));
    var out = [];
    order.forEach(function (book) {
      var total = totals.has(book) ? totals.get(book).size : 0, shown = groups.get(book) || [];
      if (total || shown.length) {
        out.push([book, shown, Math.max(Math.min(total, LIMITS.countCap), shown.length), total > LIMITS.countCap]);
      }
    });
    return out;
  };

  // search.section_label: the number and the title in the text's own language (an untitled section by its first
  // words, as the index labels it)
  function label(row) {
    if (!row.title) return row.section.labels[row.language];
    return row.section.number ? row.section.number + " " + row.title : row.title;
  }

  // search_suggest.suggest: each word the books lack replaced by its nearest known word of either script (the last left
  // alone when the query found something: it may be a prefix still being typed)
  Search.prototype.suggest = function (queryWords, books, found) {
    var changed = false;
    function near(word) {  // search_suggest.near_words: the same first letter, about as long
      var first = Array.from(word)[0], length = codePoints(word), out = new Set();
      books.forEach(function (book) {
        book.words.forEach(function (w) {
          var l = codePoints(w);
          if (l >= length - 2 && l <= length + 2 && Array.from(w)[0] === first) out.add(w);
        });
      });
      return Array.from(out);
    }
    var out = queryWords.map(function (word, i) {
      var known = books.some(function (book) { return book.knownStems.has(Stem.stemWord(word)); });
      if (known || /^\p{Nd}+$/u.test(word) || codePoints(word) < 3 || (found && i === queryWords.length - 1)) return word;
      var script = Stem.scriptOf(word), spelled = script === "ru" ? toLatin(word) : toCyrillic(word);
      var cutoff = LIMITS.suggestionCutoff;
      var options = [closeMatch(word, near(word), cutoff), closeMatch(spelled, near(spelled), cutoff)]
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
    wanted.forEach(function (s) { if (!found && codePoints(s) >= LIMITS.prefixMin && stem.startsWith(s)) found = true; });
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
    width = width || LIMITS.snippetWidth;
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
      if (result.rulings.length) box.appendChild(rulingsGroup(result.rulings, s, lang));
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
    if (result.rulings.length) box.appendChild(rulingsGroup(result.rulings, s, lang));
    return box;
  };

  // The rulings found, as the server's group of them (rulesref/rulings/search.py): each under the clauses it answers.
  function rulingsGroup(hits, s, lang) {
    var forms = s.rulingsFound || {}, category = new Intl.PluralRules(lang).select(hits.length);
    var count = format(forms[category] || forms.other || "", { n: hits.length });
    var list = el("ul", { "class": "hits" }, hits.map(function (hit) {
      var r = hit.row, clauses = el("p", { "class": "ruling-clauses" });
      r.clauses.forEach(function (c, i) {
        if (i) clauses.appendChild(document.createTextNode(", "));
        clauses.appendChild(c.section ? el("a", { "class": "ruling-clause", text: c.sid + c.clause,
          href: c.section.urls[lang] + (c.clause ? "#" + c.sid + c.clause : "") }) : el("span", { text: c.sid + c.clause }));
      });
      var link = el("a", { "class": "ruling-hit", href: r.urls[lang] }, [
        el("span", { "class": "ruling-number", text: format(s.rulingNumber, { n: r.number }) }), " ",
        el("span", { lang: r.language }, highlighted(r.question, hit.wanted))]);
      return el("li", {}, [clauses, link, " ", el("span", { "class": "muted", text: r.book.slug }),
                           el("p", { "class": "snippet", lang: r.language }, snippet(r.answer, hit.wanted))]);
    }));
    var heading = el("h2", {}, [s.rulings + " ", el("span", { "class": "muted", text: "(" + count + ")" })]);
    return el("section", { "class": "hit-group ruling-hits" }, [heading, list]);
  }

  root.RulesrefSearch = Search;
})(typeof self !== "undefined" ? self : this);
