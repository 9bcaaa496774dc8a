/* Words to index terms: site_builder/search/terms.py in JavaScript, rule for rule (its docstring states them).
 *
 * A pure function, no DOM: the search box normalises the query and a result page's words with it, and
 * tests/browser/test_search.py requires it to give the Python terms for every distinct word of the built site.
 * Loaded by search.js when the reader starts searching; it defines window.SearchTerms.
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

  root.SearchTerms = { terms: terms, stem: stem, base: base, SUFFIXES: SUFFIXES };
})(typeof self !== "undefined" ? self : this);
