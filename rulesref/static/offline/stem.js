// The Snowball stemmers for Russian and English (Snowball 3.1, the version PyStemmer 3.1 bundles), written for
// this project from the algorithms' published definitions, so that offline search stems a query exactly as the
// server does. tests/test_offline_stemming.py checks every word of the corpus and the glossaries, and a large list
// of other inflected forms, against PyStemmer. A word is handled as an array of code points, as Snowball does.
(function (root) {
  "use strict";

  function chars(text) { return Array.from(text); }
  function grouping(letters) { var set = {}; chars(letters).forEach(function (ch) { set[ch] = true; }); return set; }
  function byLength(list) { return list.map(chars).sort(function (a, b) { return b.length - a.length; }); }
  function endsAt(w, end, suffix, limit) {
    var start = end - suffix.length;
    if (start < limit) return false;
    for (var i = 0; i < suffix.length; i++) if (w[start + i] !== suffix[i]) return false;
    return true;
  }
  // The longest of the (length-sorted) suffixes that ends at `end` and starts at or after `limit`, as a string.
  function longestSuffix(w, end, suffixes, limit) {
    for (var i = 0; i < suffixes.length; i++) if (endsAt(w, end, suffixes[i], limit || 0)) return suffixes[i].join("");
    return null;
  }
  function replaceEnd(w, length, replacement) { return w.slice(0, w.length - length).concat(chars(replacement)); }

  // ------------------------------------------------------------------ English (Porter2)
  var V = grouping("aeiouy"), V_WXY = grouping("aeiouywxY"), AEO = grouping("aeo"), VALID_LI = grouping("cdeghkmnrt");
  var EXCEPTIONS = { skis: "ski", skies: "sky", idly: "idl", gently: "gentl", ugly: "ugli", early: "earli",
    only: "onli", singly: "singl", sky: "sky", news: "news", howe: "howe", atlas: "atlas", cosmos: "cosmos",
    bias: "bias", andes: "andes" };
  var REGION_PREFIXES = byLength(["gener", "commun", "arsen", "past", "univers", "later", "emerg", "organ", "inter"]);
  var APOSTROPHE_SUFFIXES = byLength(["'", "'s", "'s'"]);
  var STEP_1A = byLength(["sses", "ied", "ies", "s", "us", "ss"]);
  var STEP_1B = byLength(["eed", "eedly", "ed", "edly", "ingly", "ing"]);
  var ING_EXCEPTIONS = byLength(["y", "inn", "out", "cann", "herr", "earr", "even"]);
  var PRE_EED = byLength(["proc", "exc", "succ"]);
  var STEP_1B_END = byLength(["at", "bl", "iz", "bb", "dd", "ff", "gg", "mm", "nn", "pp", "rr", "tt"]);
  var STEP_2 = { tional: "tion", enci: "ence", anci: "ance", abli: "able", entli: "ent", izer: "ize", ization: "ize",
    ational: "ate", ation: "ate", ator: "ate", alism: "al", aliti: "al", alli: "al", fulness: "ful", ousli: "ous",
    ousness: "ous", iveness: "ive", iviti: "ive", biliti: "ble", bli: "ble", ogist: "og", ogi: "og", fulli: "ful",
    lessli: "less", li: "" };
  var STEP_3 = { tional: "tion", ational: "ate", alize: "al", icate: "ic", iciti: "ic", ical: "ic", ful: "", ness: "",
    ative: "" };
  var STEP_4 = byLength(["al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent", "ism", "ate",
    "iti", "ous", "ive", "ize", "ion"]);
  var STEP_2_LIST = byLength(Object.keys(STEP_2)), STEP_3_LIST = byLength(Object.keys(STEP_3));

  function isV(ch) { return V[ch] === true; }

  // A short syllable ends at c: non-vowel, vowel, non-vowel other than w, x, Y; or a vowel and a non-vowel that
  // begin the word; or "past" (pasted, pasting).
  function shortv(w, c) {
    if (c >= 3 && !V_WXY[w[c - 1]] && isV(w[c - 2]) && !isV(w[c - 3])) return true;
    if (c === 2 && !isV(w[1]) && isV(w[0])) return true;
    return endsAt(w, c, chars("past"), 0);
  }

  function english(word) {
    if (Object.prototype.hasOwnProperty.call(EXCEPTIONS, word)) return EXCEPTIONS[word];
    var w = chars(word);
    if (w.length < 3) return word;
    // prelude: no initial apostrophe; y as a consonant (initial, or after a vowel) becomes Y
    if (w[0] === "'") w = w.slice(1);
    var yFound = false;
    if (w[0] === "y") { w[0] = "Y"; yFound = true; }
    for (var i = 1; i < w.length; i++) if (w[i] === "y" && isV(w[i - 1])) { w[i] = "Y"; yFound = true; }
    // regions
    var n = w.length, p1 = n, p2 = n;
    var prefix = null;
    for (i = 0; i < REGION_PREFIXES.length && !prefix; i++) {
      var candidate = REGION_PREFIXES[i];
      if (candidate.length <= n && candidate.every(function (ch, k) { return w[k] === ch; })) prefix = candidate;
    }
    var afterVowelConsonant = function (from) {
      var k = from;
      while (k < n && !isV(w[k])) k++;
      if (k >= n) return -1;
      k++;
      while (k < n && isV(w[k])) k++;
      return k >= n ? -1 : k + 1;
    };
    var c = prefix ? prefix.length : afterVowelConsonant(0);
    if (c >= 0) {
      p1 = c;
      var c2 = afterVowelConsonant(c);
      if (c2 >= 0) p2 = c2;
    }
    w = step1a(w);
    w = step1b(w, p1);
    w = step1c(w);
    w = stepReplace(w, STEP_2_LIST, STEP_2, p1, p2, 2);
    w = stepReplace(w, STEP_3_LIST, STEP_3, p1, p2, 3);
    w = step4(w, p2);
    w = step5(w, p1, p2);
    var out = w.join("");
    return yFound ? out.replace(/Y/g, "y") : out;
  }

  function step1a(w) {
    var s = longestSuffix(w, w.length, APOSTROPHE_SUFFIXES);
    if (s) w = w.slice(0, w.length - chars(s).length);
    s = longestSuffix(w, w.length, STEP_1A);
    var start = s ? w.length - chars(s).length : 0;
    if (s === "sses") return replaceEnd(w, 4, "ss");
    if (s === "ied" || s === "ies") return replaceEnd(w, 3, start >= 2 ? "i" : "ie");
    if (s === "s") {
      // delete if the word before the s, less its last letter, has a vowel
      for (var k = start - 2; k >= 0; k--) if (isV(w[k])) return w.slice(0, start);
    }
    return w;
  }

  function step1b(w, p1) {
    var s = longestSuffix(w, w.length, STEP_1B);
    if (!s) return w;
    var start = w.length - chars(s).length;
    if (s === "eed" || s === "eedly") {
      if (start >= p1 && !(longestSuffix(w, start, PRE_EED) && start - longestSuffix(w, start, PRE_EED).length === 0)) {
        return replaceEnd(w, chars(s).length, "ee");
      }
      return w;
    }
    if (s === "ing") {
      var exception = longestSuffix(w, start, ING_EXCEPTIONS);
      if (exception === "y") {
        var y = start - 1;
        if (y === 1 && !isV(w[0])) return w.slice(0, y).concat(["i", "e"]);
      } else if (exception && start - exception.length === 0) {
        return w;
      }
    }
    // -ed, -edly, -ing, -ingly: removed when the word before them has a vowel
    var vowel = false;
    for (var k = 0; k < start; k++) if (isV(w[k])) { vowel = true; break; }
    if (!vowel) return w;
    w = w.slice(0, start);
    var n = w.length, end = longestSuffix(w, n, STEP_1B_END);
    if (end === "at" || end === "bl" || end === "iz") return w.concat(["e"]);
    if (end) {  // a double letter is undoubled, except in a word of three letters starting with a, e or o
      if (n - 3 === 0 && AEO[w[0]]) return w;
      return w.slice(0, n - 1);
    }
    if (n === p1 && shortv(w, n)) return w.concat(["e"]);
    return w;
  }

  function step1c(w) {
    var n = w.length;
    if (n >= 3 && (w[n - 1] === "y" || w[n - 1] === "Y") && !isV(w[n - 2])) return w.slice(0, n - 1).concat(["i"]);
    return w;
  }

  function stepReplace(w, list, table, p1, p2, step) {
    var s = longestSuffix(w, w.length, list);
    if (!s) return w;
    var length = chars(s).length, start = w.length - length;
    if (start < p1) return w;
    if (step === 2 && s === "ogi" && w[start - 1] !== "l") return w;
    if (step === 2 && s === "li" && !VALID_LI[w[start - 1]]) return w;
    if (step === 3 && s === "ative" && start < p2) return w;
    return replaceEnd(w, length, table[s]);
  }

  function step4(w, p2) {
    var s = longestSuffix(w, w.length, STEP_4);
    if (!s) return w;
    var length = chars(s).length, start = w.length - length;
    if (start < p2) return w;
    if (s === "ion" && w[start - 1] !== "s" && w[start - 1] !== "t") return w;
    return w.slice(0, start);
  }

  function step5(w, p1, p2) {
    var n = w.length, last = w[n - 1], start = n - 1;
    if (last === "e" && (start >= p2 || (start >= p1 && !shortv(w, start)))) return w.slice(0, start);
    if (last === "l" && start >= p2 && w[start - 1] === "l") return w.slice(0, start);
    return w;
  }

  // ------------------------------------------------------------------ Russian
  var RU_V = grouping("аеиоуыэюя");
  var GERUND_1 = byLength(["в", "вши", "вшись"]);
  var GERUND_2 = byLength(["ив", "ивши", "ившись", "ыв", "ывши", "ывшись"]);
  var ADJECTIVE = byLength(["ее", "ие", "ые", "ое", "ими", "ыми", "ей", "ий", "ый", "ой", "ем", "им", "ым", "ом", "его",
    "ого", "ему", "ому", "их", "ых", "ую", "юю", "ая", "яя", "ою", "ею"]);
  var PARTICIPLE_1 = byLength(["ем", "нн", "вш", "ющ", "щ"]);
  var PARTICIPLE_2 = byLength(["ивш", "ывш", "ующ"]);
  var REFLEXIVE = byLength(["ся", "сь"]);
  var VERB_1 = byLength(["ла", "на", "ете", "йте", "ли", "й", "л", "ем", "н", "ло", "но", "ет", "ют", "ны", "ть", "ешь",
    "нно"]);
  var VERB_2 = byLength(["ила", "ыла", "ена", "ейте", "уйте", "ите", "или", "ыли", "ей", "уй", "ил", "ыл", "им", "ым",
    "ен", "ило", "ыло", "ено", "ят", "ует", "уют", "ит", "ыт", "ены", "ить", "ыть", "ишь", "ую", "ю"]);
  var NOUN = byLength(["а", "ев", "ов", "ие", "ье", "е", "иями", "ями", "ами", "еи", "ии", "и", "ией", "ей", "ой", "ий",
    "й", "иям", "ям", "ием", "ем", "ам", "ом", "о", "у", "ах", "иях", "ях", "ы", "ь", "ию", "ью", "ю", "ия", "ья", "я"]);
  var DERIVATIONAL = byLength(["ост", "ость"]);
  var TIDY = byLength(["ейш", "ейше", "н", "ь"]);

  // Among two groups of endings (the first removed only after а or я), the longest that fits in the region.
  function removeGrouped(w, first, second, limit) {
    var a = longestSuffix(w, w.length, first, limit), b = longestSuffix(w, w.length, second, limit);
    var la = a ? chars(a).length : 0, lb = b ? chars(b).length : 0;
    if (!a && !b) return null;
    if (lb >= la) return w.slice(0, w.length - lb);
    var before = w.length - la - 1;
    if (before >= limit && (w[before] === "а" || w[before] === "я")) return w.slice(0, w.length - la);
    return null;
  }
  function removeOne(w, list, limit) {
    var s = longestSuffix(w, w.length, list, limit);
    return s ? w.slice(0, w.length - chars(s).length) : null;
  }

  function russian(word) {
    var w = chars(word.replace(/ё/g, "е"));  // the algorithm's own first step (Snowball: ё as е)
    var n = w.length, pV = n, p2 = n, k = 0;
    while (k < n && !RU_V[w[k]]) k++;
    if (k < n) {
      pV = k + 1;
      k = pV;
      while (k < n && RU_V[w[k]]) k++;
      k++;
      while (k < n && !RU_V[w[k]]) k++;
      k++;
      while (k < n && RU_V[w[k]]) k++;
      if (k < n) p2 = k + 1;
    }
    var r = removeGrouped(w, GERUND_1, GERUND_2, pV);
    if (r) {
      w = r;
    } else {
      w = removeOne(w, REFLEXIVE, pV) || w;
      var adjective = removeOne(w, ADJECTIVE, pV);
      if (adjective) w = removeGrouped(adjective, PARTICIPLE_1, PARTICIPLE_2, pV) || adjective;
      else w = removeGrouped(w, VERB_1, VERB_2, pV) || removeOne(w, NOUN, pV) || w;
    }
    if (w.length > pV && w[w.length - 1] === "и") w = w.slice(0, w.length - 1);
    var d = longestSuffix(w, w.length, DERIVATIONAL, pV);
    if (d && w.length - chars(d).length >= p2) w = w.slice(0, w.length - chars(d).length);
    var t = longestSuffix(w, w.length, TIDY, pV);
    if (t === "ейш" || t === "ейше") {
      w = w.slice(0, w.length - chars(t).length);
      if (endsAt(w, w.length, ["н", "н"], pV)) w = w.slice(0, w.length - 1);
    } else if (t === "н") {
      if (endsAt(w, w.length, ["н", "н"], pV)) w = w.slice(0, w.length - 1);
    } else if (t === "ь") {
      w = w.slice(0, w.length - 1);
    }
    return w.join("");
  }

  // ------------------------------------------------------------------ as the server uses them
  var CYRILLIC = /[а-яё]/i;
  // rulesref.text.fold_word less the ё, which the Russian algorithm folds itself
  function normaliseWord(word) { return word.toLowerCase().replace(/’/g, "'"); }
  function scriptOf(word) { return CYRILLIC.test(word) ? "ru" : "en"; }
  // A word's stem in the stemmer of its own script (rulesref.reference.search.stem_word); the word lower-cased.
  function stemWord(word) { return scriptOf(word) === "ru" ? russian(word) : english(word); }

  root.RulesrefStem = { russian: russian, english: english, stemWord: stemWord, normaliseWord: normaliseWord,
    scriptOf: scriptOf };
})(typeof self !== "undefined" ? self : this);
