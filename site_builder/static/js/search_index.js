/* The search index's reading side, loaded by search.js when the reader starts searching; no DOM, no request.
 *
 * - terms(word): site_builder/search/terms.py in JavaScript, rule for rule (its docstring states them);
 *   tests/browser/test_search.py requires the Python terms for every distinct word of the built site;
 * - prepare(index): search/index.json (the pages, and the term file of each beginning of terms: one character, or
 *   two where a character's terms are split) as the query needs it;
 * - groups(index, query): each query word as the index terms it stands for (the last word also as a prefix, and
 *   typed part way into an ending the stemmer removes, as the stem it completes to). A term is looked up only in
 *   the term files added so far; missing(index) lists the beginnings whose files it looked for and did not have:
 *   add(index, key, file) each of them, and call groups again, until none is missing;
 * - rank(index, groups): BM25 over pages, every word required, else the pages matching most of them first;
 * - locations(fragment, wanted): the indices of a page's words with a wanted term.
 *
 * It defines window.SearchIndex.
 */
(function (root) {
  "use strict";

  var WORD_CHAR = /[\p{L}\p{N}\p{M}]$/u;
  var EDGES = /^[^\p{L}\p{N}\p{M}]+|[^\p{L}\p{N}\p{M}]+$/gu;
  var SEPARATORS = /[^\p{L}\p{N}\p{M}.,]+/u;
  var DOTTED = /^\p{L}[\p{L}\p{N}\p{M}._-]*$/u;
  var ASCII_RUN = /[a-z]+$/;
  var VOWEL = /[aeiouy]/;
  var SUFFIXES = ["ing", "ed", "es", "s"];

  function ends(w, s) {
    return w.length >= s.length && w.slice(w.length - s.length) === s;
  }

  function stemLetters(w) {
    if (ends(w, "sses")) w = w.slice(0, -2);
    else if (ends(w, "ies") && w.length > 4) w = w.slice(0, -2);
    else if (ends(w, "xes") || ends(w, "ches") || ends(w, "shes") || ends(w, "zzes")) w = w.slice(0, -2);
    else if (ends(w, "s") && !ends(w, "ss") && !ends(w, "us") && !ends(w, "is")) w = w.slice(0, -1);
    var endings = ["ing", "ed"];
    for (var i = 0; i < endings.length; i++) {
      if (ends(w, endings[i])) {
        var base = w.slice(0, -endings[i].length);
        if (base.length >= 3 && VOWEL.test(base)) {
          w = base;
          var last = w.charAt(w.length - 1);
          if (w.length >= 4 && last === w.charAt(w.length - 2) && "aeiouylsz".indexOf(last) < 0) {
            w = w.slice(0, -1);
          }
        }
        break;
      }
    }
    if (w.length >= 4 && ends(w, "y")) w = w.slice(0, -1) + "i";
    if (w.length >= 4 && ends(w, "e")) w = w.slice(0, -1);
    return w;
  }

  /* A term with its trailing run of ASCII letters stemmed, when the run has four letters or more and does
     not follow a letter, digit or mark. */
  function stem(term) {
    var m = ASCII_RUN.exec(term);
    if (!m || m[0].length < 4) return term;
    if (m.index > 0 && WORD_CHAR.test(term.slice(0, m.index))) return term;
    return term.slice(0, m.index) + stemLetters(m[0]);
  }

  /* The word lowercased, without the characters around it that are not letters, digits or marks, and
     without a possessive 's: the form the first term stems. */
  function base(word) {
    var w = word.toLowerCase().replace(/\u2019/g, "'").replace(EDGES, "");
    if (ends(w, "'s")) w = w.slice(0, -2).replace(EDGES, "");
    return w;
  }

  function isDotted(w) {
    return DOTTED.test(w) && w.indexOf(".") >= 0 && w.indexOf("..") < 0;
  }

  /* The index terms of one word of text (possibly none). */
  function terms(word) {
    var w = base(word);
    if (!w) return [];
    var out = [stem(w)];
    if (!isDotted(w) && SEPARATORS.test(w)) {
      w.split(SEPARATORS).forEach(function (part) {
        var p = part.replace(EDGES, "");
        if (p) {
          var t = stem(p);
          if (out.indexOf(t) < 0) out.push(t);
        }
      });
    }
    return out;
  }

  var K1 = 1.2; // BM25
  var B = 0.75;
  var NEAR = 0.7; // a term matched by a prefix or a completed ending counts this much of an exact match

  /* The index as the search needs it: pages, the term files by beginning (none added yet), the two-character
     beginnings by character, the terms of the files added and their postings, those terms in order, the mean page
     length. */
  function prepare(raw, format) {
    if (!raw || raw.format !== format) throw new Error("search index format " + (raw && raw.format));
    var pages = raw.pages.map(function (p) {
      return { url: p[0], title: p[1], words: p[2], fragment: p[3] };
    });
    var files = new Map();
    var pairs = new Map();
    raw.terms.forEach(function (f) {
      files.set(f[0], f[1]);
      var cs = Array.from(f[0]);
      if (cs.length === 2) {
        if (!pairs.has(cs[0])) pairs.set(cs[0], []);
        pairs.get(cs[0]).push(f[0]);
      }
    });
    var total = pages.reduce(function (n, p) {
      return n + p.words;
    }, 0);
    return {
      pages: pages,
      files: files,
      pairs: pairs,
      added: new Set(),
      missing: new Set(),
      terms: new Map(),
      sorted: [],
      avg: pages.length ? total / pages.length || 1 : 1,
    };
  }

  /* The beginnings whose term files hold a term and, with ``prefix``, every term it begins (as
     site_builder/search/__init__.py shard_of files them): its first two characters when its first character's terms
     are split, else its first (and for a one-character prefix of a split character, that and each of its pairs). */
  function keysOf(idx, term, prefix) {
    var cs = Array.from(term);
    var pairs = idx.pairs.get(cs[0]);
    if (!pairs) return [cs[0]];
    if (cs.length > 1) return [cs[0] + cs[1]];
    return prefix ? [cs[0]].concat(pairs) : [cs[0]];
  }

  /* The term is looked up (with ``prefix``, every term it begins too): each file it needs is noted as missing when
     not added yet. */
  function need(idx, term, prefix) {
    keysOf(idx, term, prefix).forEach(function (k) {
      if (idx.files.has(k) && !idx.added.has(k)) idx.missing.add(k);
    });
  }

  /* The beginnings whose term files the last groups() call needed and did not have (each with its file name). */
  function missing(idx) {
    return Array.from(idx.missing).map(function (k) {
      return { key: k, file: idx.files.get(k) };
    });
  }

  /* A term file (search/terms/<name>.json: its terms and their postings) added to the index. */
  function add(idx, k, raw) {
    if (idx.added.has(k)) return;
    raw.terms.forEach(function (t, i) {
      idx.terms.set(t, raw.postings[i]);
    });
    idx.added.add(k);
    idx.missing.delete(k);
    idx.sorted = Array.from(idx.terms.keys()).sort();
  }

  /* The index terms one query word stands for: {term: weight}. The last word also matches the terms it begins
     and, typed part way into an ending the stemmer removes ("trainin"), the stem it completes to. */
  function matches(idx, word, last) {
    need(idx, word, last); // the last word: the terms it begins too
    var out = new Map();
    if (idx.terms.has(word)) out.set(word, 1);
    if (!last) return out;
    var lo = 0;
    var hi = idx.sorted.length;
    while (lo < hi) {
      var mid = (lo + hi) >> 1;
      if (idx.sorted[mid] < word) lo = mid + 1;
      else hi = mid;
    }
    for (var i = lo; i < idx.sorted.length && idx.sorted[i].indexOf(word) === 0; i++) {
      if (!out.has(idx.sorted[i])) out.set(idx.sorted[i], NEAR);
    }
    return out;
  }

  function completions(idx, raw, out) {
    SUFFIXES.forEach(function (suffix) {
      for (var k = 1; k < suffix.length; k++) {
        var typed = suffix.slice(0, k);
        if (raw.length > k && raw.slice(raw.length - k) === typed) {
          var t = terms(raw.slice(0, raw.length - k) + suffix)[0];
          if (t) need(idx, t, false);
          if (t && idx.terms.has(t) && !out.has(t)) out.set(t, NEAR);
        }
      }
    });
  }

  /* The query as groups of terms, each group one word every page must match. */
  function groups(idx, query) {
    var words = query.split(/\s+/).filter(Boolean);
    var out = [];
    words.forEach(function (word, n) {
      var last = n === words.length - 1;
      var ts = terms(word);
      if (!ts.length) return;
      var whole = matches(idx, ts[0], last);
      if (last) completions(idx, base(word), whole);
      if (whole.size || ts.length === 1) {
        out.push(whole);
        return;
      }
      ts.slice(1).forEach(function (part, i) {
        out.push(matches(idx, part, last && i === ts.length - 2)); // a word not indexed whole: each of its parts
      });
    });
    return out;
  }

  /* Pages ranked (BM25): those matching every group, else (partial) those matching the most groups first. */
  function rank(idx, gs) {
    var n = idx.pages.length;
    var scores = new Map(); // page: {score, groups}
    gs.forEach(function (group) {
      var best = new Map(); // page: this group's best term score
      group.forEach(function (weight, term) {
        var post = idx.terms.get(term);
        var df = post.length / 2;
        var idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        for (var i = 0; i < post.length; i += 2) {
          var page = post[i];
          var tf = post[i + 1];
          var dl = idx.pages[page].words || 1;
          var s = (weight * idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * dl) / idx.avg));
          if (!best.has(page) || best.get(page) < s) best.set(page, s);
        }
      });
      best.forEach(function (s, page) {
        var cur = scores.get(page) || { page: page, score: 0, groups: 0 };
        cur.score += s;
        cur.groups += 1;
        scores.set(page, cur);
      });
    });
    var all = Array.from(scores.values());
    var full = all.filter(function (r) {
      return r.groups === gs.length;
    });
    var list = full.length ? full : all;
    list.sort(function (a, b) {
      return b.groups - a.groups || b.score - a.score || a.page - b.page;
    });
    return { pages: list, partial: !full.length };
  }

  /* Every term of the groups: a page's words with one of them are its matches. */
  function wanted(gs) {
    var out = new Set();
    gs.forEach(function (g) {
      g.forEach(function (_, t) {
        out.add(t);
      });
    });
    return out;
  }

  /* The indices of a fragment's words with a wanted term (each word's terms computed once per fragment). */
  function locations(frag, want) {
    if (!frag.terms) frag.terms = frag.all.map(terms);
    var out = [];
    frag.terms.forEach(function (ts, i) {
      if (
        ts.some(function (t) {
          return want.has(t);
        })
      )
        out.push(i);
    });
    return out;
  }

  root.SearchIndex = {
    terms: terms,
    stem: stem,
    base: base,
    prepare: prepare,
    keysOf: keysOf,
    missing: missing,
    add: add,
    groups: groups,
    rank: rank,
    wanted: wanted,
    locations: locations,
  };
})(typeof self !== "undefined" ? self : this);
