"""One built page's searchable content: its title, its words, the anchors among them and its terms.

The page's HTML is read with the standard library's parser. Only the ``<main>`` element is read when the page
has one (else the whole body); inside it the site header, navigation, footers, scripts, styles, templates and
any element marked ``data-search-ignore`` (a chart's "Loading the chart…") are skipped. A figure link's key
(its ``data-fig``) is a word of its own just before the link's text, written ``KEY.`` (``exp.final.B.``): the
search box finds the key, and leaves such words out of its excerpts. Block elements end a word, and a block
whose text ends without punctuation gets a full stop, so an excerpt across table cells still reads.

Every element with an ``id`` is an anchor: its id, its tag, its location (the index of the next word) and, for
a heading, its text. The search box lands a result on the last anchor before its first match.
"""

from __future__ import annotations

from collections import Counter
from html.parser import HTMLParser

from site_builder.datatypes import dataclass
from site_builder.search.terms import WHITESPACE, split_words, terms

SKIP_TAGS = frozenset({"script", "style", "template", "noscript", "nav", "footer", "head", "title"})
SKIP_CLASSES = frozenset({"site-header", "skip-link"})
IGNORE = "data-search-ignore"
KEY_ATTR = "data-fig"
INLINE = frozenset(
    "a abbr b bdi bdo cite code data del dfn em font i ins kbd label mark q s samp small span strong sub sup "
    "time u var wbr".split()
)
VOID = frozenset("area base br col embed hr img input link meta param source track wbr".split())
HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
WEIGHT = {"h1": 5, "h2": 3, "h3": 2, "h4": 2, "h5": 2, "h6": 2, "dt": 2}
"""How many times a word in a heading or a glossary entry's term counts towards its page's term frequency."""
END_PUNCTUATION = tuple(".,;:!?…")


@dataclass(frozen=True)
class Anchor:
    """An element of a page a search hit may land on: its id, tag, word position and text."""

    id: str
    element: str
    location: int
    text: str


@dataclass(frozen=True)
class Page:
    """What a page gives the search index: its title, words, anchors and term counts."""

    title: str
    words: list[str]
    anchors: list[Anchor]
    counts: dict[str, int]
    """Each term's weighted frequency on the page."""


class _Reader(HTMLParser):
    def __init__(self, main_only: bool) -> None:
        super().__init__(convert_charrefs=True)
        self.inside = not main_only  # reading: in <main>, or anywhere when the page has none
        self.main_depth = 0
        self.skip: list[str] = []  # the tag of the skipped element we are in, and any of the same nested
        self.skip_tag = ""
        self.words: list[str] = []
        self.weights: list[int] = []
        self.anchors: list[Anchor] = []
        self.stack: list[str] = []  # open elements being read
        self.open_block: list[int] = []  # for each open block element: the word count at its start
        self.headings: list[tuple[str, int, list[str]]] = []  # open headings: tag, index in anchors or -1, text
        self.h1: str | None = None
        self.title_text: list[str] = []
        self.in_title = False
        self.pending = ""  # text of a word not yet ended (inline elements join)
        self.weight_stack: list[int] = [1]
        self.weight = 1

    # words
    def _flush(self) -> None:
        if self.pending:
            for w in split_words(self.pending):
                self.words.append(w)
                self.weights.append(self.weight)
            self.pending = ""

    def _end_block(self, start: int) -> None:
        self._flush()
        if len(self.words) > start and not self.words[-1].endswith(END_PUNCTUATION):
            self.words[-1] += "."

    # parser callbacks
    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "title":
            self.in_title = True
        if self.skip:
            if tag == self.skip_tag and tag not in VOID:
                self.skip.append(tag)
            return
        if not self.inside:
            if tag == "main":
                self.inside = True
                self.main_depth = 1
            else:
                return
        elif tag == "main" and self.main_depth:
            self.main_depth += 1
        a = dict(attrs)
        classes = (a.get("class") or "").split()
        if tag in SKIP_TAGS or IGNORE in a or SKIP_CLASSES.intersection(classes):
            if tag not in VOID:
                self._flush()
                self.skip = [tag]
                self.skip_tag = tag
            return
        block = tag not in INLINE
        if block:
            self._flush()
        if tag == "img":
            alt = a.get("alt")
            if alt:
                self.pending += " " + alt + " "
                self._flush()
            return
        if tag in VOID:
            return
        ident = a.get("id")
        if ident:
            self._flush()
            self.anchors.append(Anchor(ident, tag, len(self.words), ""))
        if tag in HEADINGS:
            self.headings.append((tag, len(self.anchors) - 1 if ident else -1, []))
        self.stack.append(tag)
        self.open_block.append(len(self.words) if block else -1)
        if tag in WEIGHT:
            self.weight = max(self.weight, WEIGHT[tag])
        self.weight_stack.append(self.weight)
        key = a.get(KEY_ATTR)
        if key:
            self._flush()
            for w in split_words(key):
                self.words.append(w + ".")
                self.weights.append(self.weight)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self.in_title = False
        if self.skip:
            if tag == self.skip_tag:
                self.skip.pop()
            return
        if not self.inside or tag in VOID:
            return
        if tag == "main" and self.main_depth:
            self.main_depth -= 1
            if self.main_depth == 0:
                self._flush()
                self.inside = False
                self.stack.clear()
                self.open_block.clear()
                del self.weight_stack[1:]
                self.weight = 1
                return
        if tag not in self.stack:
            return  # a stray end tag
        while self.stack:
            open_tag = self.stack.pop()
            start = self.open_block.pop()
            self.weight_stack.pop()
            if start >= 0:
                self._end_block(start)
            if open_tag in HEADINGS and self.headings:
                self._close_heading()
            if open_tag == tag:
                break
        self.weight = self.weight_stack[-1]

    def _close_heading(self) -> None:
        tag, index, text = self.headings.pop()
        joined = " ".join(split_words("".join(text)))
        if tag == "h1" and self.h1 is None:
            self.h1 = joined
        if index >= 0:
            a = self.anchors[index]
            self.anchors[index] = Anchor(a.id, a.element, a.location, joined)

    def handle_data(self, data: str) -> None:
        if self.in_title:
            self.title_text.append(data)
        if self.skip or not self.inside:
            return
        self.pending += data
        for h in self.headings:
            h[2].append(data)

    def finish(self) -> None:
        self.close()
        self._flush()
        while self.headings:
            self._close_heading()


def reader_for(html: str) -> _Reader:
    """A reader for ``html``: fed it (or the events of a parser fed it, site_builder/phases/scan.py), then given to
    :func:`page_of`."""
    return _Reader(main_only="<main" in html)


def extract(html: str) -> Page:
    """The searchable content of one page's HTML."""
    reader = reader_for(html)
    reader.feed(html)
    return page_of(reader)


def page_of(reader: _Reader) -> Page:
    """What ``reader`` read, once the whole page went through it."""
    reader.finish()
    counts: Counter[str] = Counter()
    for word, weight in zip(reader.words, reader.weights, strict=True):
        for t in terms(word):
            counts[t] += weight
    title = reader.h1 or " ".join(WHITESPACE.split("".join(reader.title_text))).strip()
    return Page(title=title, words=reader.words, anchors=reader.anchors, counts=dict(counts))
