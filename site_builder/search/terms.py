"""Words to index terms: the one normalisation the index and the search box share.

``static/js/search_index.js`` implements the same function in JavaScript; ``tests/browser/test_search.py``
runs it on every distinct word of the built site and requires the terms this module gives.

A word (the page's text split on white space) gives its terms, in order:

1. lowercase; a typographic apostrophe (U+2019) becomes ``'``;
2. leading and trailing characters that are not letters, digits or marks (Unicode categories L, N, M) are
   removed (``"(trainers),"`` → ``trainers``, ``exp.final.B.`` → ``exp.final.b``); nothing left, no term;
3. a possessive ``'s`` is removed (``model's`` → ``model``);
4. the first term is the whole word, its ending stemmed (below): dots and commas inside a word bind, so
   ``3.686``, ``31,666,944`` and the figure key ``exp.final.b`` stay whole;
5. a word with any other inner separator (``all-reduce``, ``top-k``, ``a/b``) that is not a dotted word
   (a figure key, a file name) also gives each part between separators, stemmed, once.

The stem: only a word's trailing run of ASCII letters, at least four of them, not directly after a letter,
digit or mark (``all-reduces`` → ``all-reduc``, ``a100s`` stays), is stemmed, with these steps in order:

- plurals: ``-sses`` → ``-ss``; ``-ies`` → ``-i`` (words over four letters); ``-xes``, ``-ches``, ``-shes``,
  ``-zzes`` → drop ``es``; else a final ``s`` is dropped unless the word ends in ``ss``, ``us`` or ``is``;
- ``-ing`` or else ``-ed`` is dropped when at least three letters with a vowel (``aeiouy``) remain; a
  doubled final consonant left behind (not ``l``, ``s``, ``z``) is then undoubled when four letters remain;
- a final ``y`` becomes ``i``, then a final ``e`` is dropped, each only when the word has four letters or more.

So ``trainers``/``trainer``, ``gradients``/``gradient``, ``training``/``trained``/``trains``/``train``,
``compute``/``computed``/``computing`` and ``study``/``studies``/``studied`` meet.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

WHITESPACE = re.compile("[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+")
"""JavaScript's ``\\s``: the content is split with it here and rejoined with single spaces for the browser."""

ASCII_RUN = re.compile(r"[a-z]+\Z")
VOWEL = re.compile(r"[aeiouy]")
KEEP_DOUBLE = "lsz"
SUFFIXES = ("ing", "ed", "es", "s")
"""Endings the stemmer removes, as typed: the search box completes a last query word typed part way into one."""


def is_word_char(c: str) -> bool:
    return unicodedata.category(c)[0] in "LNM"


def strip(w: str) -> str:
    """``w`` without its leading and trailing characters that are not letters, digits or marks."""
    i, j = 0, len(w)
    while i < j and not is_word_char(w[i]):
        i += 1
    while j > i and not is_word_char(w[j - 1]):
        j -= 1
    return w[i:j]


def stem_letters(w: str) -> str:
    """The stem of a lowercase ASCII word of four letters or more (see the module's rules)."""
    if w.endswith("sses"):
        w = w[:-2]
    elif w.endswith("ies") and len(w) > 4:
        w = w[:-2]
    elif w.endswith(("xes", "ches", "shes", "zzes")):
        w = w[:-2]
    elif w.endswith("s") and not w.endswith(("ss", "us", "is")):
        w = w[:-1]
    for suffix in ("ing", "ed"):
        if w.endswith(suffix):
            base = w[: -len(suffix)]
            if len(base) >= 3 and VOWEL.search(base):
                w = base
                if len(w) >= 4 and w[-1] == w[-2] and w[-1] not in "aeiouy" + KEEP_DOUBLE:
                    w = w[:-1]
            break
    if len(w) >= 4 and w.endswith("y"):
        w = w[:-1] + "i"
    if len(w) >= 4 and w.endswith("e"):
        w = w[:-1]
    return w


def stem(term: str) -> str:
    """``term`` with its trailing run of ASCII letters stemmed, when that run qualifies."""
    m = ASCII_RUN.search(term)
    if m is None or m.end() - m.start() < 4:
        return term
    if m.start() > 0 and is_word_char(term[m.start() - 1]):
        return term
    return term[: m.start()] + stem_letters(m.group())


def is_dotted(w: str) -> bool:
    """A figure key or a file name: a letter first, then word characters, ``_`` or ``-``, with inner dots."""
    if not w or not unicodedata.category(w[0]).startswith("L") or "." not in w:
        return False
    return all(c in "._-" or is_word_char(c) for c in w) and ".." not in w


def parts(w: str) -> list[str]:
    """``w`` split at every run of characters that are neither word characters nor ``.`` or ``,``."""
    out: list[str] = []
    cur: list[str] = []
    for c in w:
        if c in ".," or is_word_char(c):
            cur.append(c)
        elif cur:
            out.append("".join(cur))
            cur = []
    if cur:
        out.append("".join(cur))
    return out


ASCII_EDGES = re.compile(r"^[^a-z0-9]+|[^a-z0-9]+$")
ASCII_PLAIN = re.compile(r"[a-z0-9.,]*")
ASCII_DOTTED = re.compile(r"[a-z][a-z0-9._-]*")
ASCII_SEPARATORS = re.compile(r"[^a-z0-9.,]+")


@lru_cache(maxsize=65536)
def terms(word: str) -> tuple[str, ...]:
    """The index terms of one word of text (possibly none)."""
    w = word.lower()
    if w.isascii():  # the same rules, faster: in ASCII the letters, digits and marks are [a-z0-9]
        w = ASCII_EDGES.sub("", w)
        if w.endswith("'s"):
            w = ASCII_EDGES.sub("", w[:-2])
        if not w:
            return ()
        if ASCII_PLAIN.fullmatch(w) or (ASCII_DOTTED.fullmatch(w) and "." in w and ".." not in w):
            return (stem(w),)
        out = [stem(w)]
        for part in ASCII_SEPARATORS.split(w):
            p = ASCII_EDGES.sub("", part)
            if p:
                t = stem(p)
                if t not in out:
                    out.append(t)
        return tuple(out)
    return _terms(w)


def _terms(w: str) -> tuple[str, ...]:
    w = strip(w.replace("\u2019", "'"))
    if w.endswith("'s"):
        w = strip(w[:-2])
    if not w:
        return ()
    out = [stem(w)]
    if not is_dotted(w) and any(not (c in ".," or is_word_char(c)) for c in w):
        for part in parts(w):
            p = strip(part)
            if p:
                t = stem(p)
                if t not in out:
                    out.append(t)
    return tuple(out)


def split_words(text: str) -> list[str]:
    """Text split on white space (JavaScript's ``\\s``), without empty words."""
    return [w for w in WHITESPACE.split(text) if w]
