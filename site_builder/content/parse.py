"""The collect phase: parse every content page and gather what it references before anything is written.

Which pages show a figure (and, later, which slides explain a term) is known here, so the figure
index and every back-link are complete when rendering starts.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterable
from dataclasses import field

from markdown_it import MarkdownIt
from markdown_it.token import Token

from site_builder.content.pages import Page
from site_builder.datatypes import dataclass
from site_builder.errors import InputError
from site_builder.markdown.parser import CONTAINERS, raw_html_finder, url_scheme
from site_builder.markdown.typed_numbers import typed_error, typed_in_tokens
from site_builder.suggest import did_you_mean

NO_HTML = "Markdown without raw HTML (figures, charts, containers and :value[…] have rules of their own)"
SAFE_LINK = "a link with no scheme (relative, /site-root, #anchor) or http, https, mailto"
INLINE_RULES = ("fig", "term", "value")  # :name[…] inside a line
# What is left in a text token when no rule read it: an unknown or misspelt directive, a chart placed inside a
# line, a figure or term whose brackets do not hold a key.
DIRECTIVE = re.compile(r"(?<![\w:])(:{1,3})([A-Za-z][^\s\[\]:]*)\[")  # a name with an invisible character too
INVISIBLE = re.compile("[\u00a0\u00ad\u180e\u200b-\u200f\u202a-\u202e\u2028\u2029\u2060-\u2064\ufeff]")
CONTAINER_LINE = re.compile(r"^:::+\s*([^\s:]\S*)")
LIST_HINT = {
    "fig": "python -m site_builder figures [PATTERN]",
    "term": "python -m site_builder terms [PATTERN]",
    "chart": "python -m site_builder charts",
}


@dataclass
class Parsed:
    """A content page after parsing: its tokens and what they reference.

    The tokens may be given as a loader instead (a page read back from the cache): they are needed only to
    render the page, and most builds render few pages.
    """

    page: Page
    _tokens: list[Token] | None
    figs: list[tuple[str, str]] = field(default_factory=list)  # (key, "line N" of its first use in the content file)
    charts: list[tuple[str, str]] = field(default_factory=list)  # (name, "line N")
    terms: list[tuple[str, str]] = field(default_factory=list)  # (glossary key, "line N")
    load_tokens: Callable[[], list[Token]] | None = field(default=None, repr=False, compare=False)

    def __key_parts__(self) -> tuple[Page]:
        """What it is made from (site_builder/cache/keys.py made_from): the page; its tokens and references are
        parsed from the page's text by the code with the figures' texts, which every key holds."""
        return (self.page,)

    @property
    def tokens(self) -> list[Token]:
        if self._tokens is None:
            assert self.load_tokens is not None
            self._tokens = self.load_tokens()
        return self._tokens

    def release(self, md: MarkdownIt) -> None:
        """Let the tokens go (a page whose render does not read them, or has read them): they are parsed again from
        the page's text if asked for. Held for every page at once, tokens were most of a large build's memory."""
        if self._tokens is not None:
            page = self.page
            self._tokens = None
            self.load_tokens = lambda: parse_page(page, md).tokens

    def summary(self) -> Parsed:
        """What it references, without the tokens (what the cache keeps apart from them)."""
        return Parsed(self.page, None, self.figs, self.charts, self.terms)


def _walk(tokens: Iterable[Token]) -> Iterable[tuple[Token, list[int] | None]]:
    for t in tokens:
        yield t, t.map
        if t.children:
            for c in t.children:
                yield c, t.map


def _line(page: Page, lines: list[str], span: list[int] | None, needle: str) -> str:
    """The content-file line of ``needle`` inside a block's line span."""
    if span is None:
        return page.line_of(1)
    for n in range(span[0], min(span[1], len(lines))):
        if needle in lines[n]:
            return page.line_of(n + 1)
    return page.line_of(span[0] + 1)


def _line_of_text(page: Page, lines: list[str], needle: str) -> str:
    low = needle.lower()
    for n, text in enumerate(lines, start=1):
        if low in text.lower():
            return page.line_of(n)
    return page.line_of(1)


def check_markup(page: Page, md: MarkdownIt, lines: list[str]) -> None:
    """Content is Markdown only: raw HTML and links or images with an unsafe scheme are errors naming the line.

    (The site's Markdown never renders either: HTML is off and markdown-it's link filter drops unsafe
    URLs; this says so to the author instead of leaving the text on the page.)
    """
    rejected = getattr(md, "rejected_links", [])
    if rejected:
        url = rejected[0]
        scheme = url_scheme(url)
        line = _line_of_text(page, lines, f"{scheme}:" if scheme else url)
        raise InputError(page.label, line, SAFE_LINK, repr(url[:60]))
    if "<" not in page.body:
        return
    for t, span in _walk(raw_html_finder().parse(page.body, {})):
        if t.type in ("html_block", "html_inline"):
            found = t.content.strip().splitlines()[0] if t.content.strip() else t.content
            line = (
                _line(page, lines, span, found) if t.type == "html_inline" else page.line_of(span[0] + 1 if span else 1)
            )
            raise InputError(page.label, line, NO_HTML, repr(found[:60]))


def check_directives(page: Page, tokens: list[Token], lines: list[str]) -> None:
    """Markup no rule read is an error naming the line, not text published as it is: an unknown ``:name[…]``
    (``:figure[…]``), a ``::chart[…]`` inside a line, ``:fig[…]``/``:term[…]`` without a key, an unknown
    ``::: name`` container."""
    for t, span in _walk(tokens):
        if t.type == "text" and "[" in t.content:
            # a no-break or zero-width space inside a name ("::fi g[…]") still makes it markup the author meant
            for m in DIRECTIVE.finditer(INVISIBLE.sub("", t.content)):
                colons, name = m.group(1), m.group(2)
                line = (
                    _line(page, lines, span, m.group(0))
                    if m.group(0) in t.content
                    else page.line_of((span or [0])[0] + 1)
                )
                if colons == "::" and name == "chart":
                    raise InputError(
                        page.label, line, "::chart[name] on a line of its own", repr(t.content.strip()[:60])
                    )
                if colons == ":" and name in INLINE_RULES:
                    found = t.content[m.start() : m.start() + 60].split("]")[0] + "]"
                    raise InputError(
                        page.label, line, f":{name}[key] with a key of letters, digits, '.', '_', '-'", repr(found)
                    )
                known = [f":{n}[…]" for n in INLINE_RULES] + ["::chart[…] on a line of its own"]
                hint = did_you_mean(name, [*INLINE_RULES, "chart"])
                raise InputError(page.label, line, f"one of {', '.join(known)}{hint}", repr(m.group(0) + "…]"))
        elif t.type == "paragraph_open" and span is not None and span[0] < len(lines):
            m = CONTAINER_LINE.match(lines[span[0]].strip())
            if m is not None and m.group(1) not in CONTAINERS:
                hint = did_you_mean(m.group(1), CONTAINERS)
                raise InputError(
                    page.label,
                    page.line_of(span[0] + 1),
                    f"a container ::: {', ::: '.join(CONTAINERS)}{hint}",
                    repr(lines[span[0]].strip()[:60]),
                )


def check_typed(page: Page, tokens: list[Token], lines: list[str]) -> None:
    """No number typed in the prose: the first digit outside a figure that is not an allowed name is an error
    naming its line (site_builder/markdown/typed_numbers.py)."""
    for typed, span in typed_in_tokens(tokens, skip_meta=page.meta_lines):
        raise typed_error(page.label, _line(page, lines, span, typed.word), typed)


def parse_page(page: Page, md: MarkdownIt) -> Parsed:
    rejected = getattr(md, "rejected_links", None)
    if rejected is not None:
        rejected.clear()
    tokens = md.parse(page.body, {})
    lines = page.body.splitlines()
    check_markup(page, md, lines)
    check_directives(page, tokens, lines)
    check_typed(page, tokens, lines)
    parsed = Parsed(page, tokens)
    figs: set[str] = set()
    for t, span in _walk(tokens):
        if t.type == "fig":
            key = sys.intern(t.meta["key"])  # one string per figure key, however many pages use it
            if key not in figs:  # each figure once, where the page first shows it (a third of a deck's are repeats)
                figs.add(key)
                parsed.figs.append((key, _line(page, lines, span, f":fig[{key}]")))
        elif t.type == "chart":
            name = t.meta["name"]
            parsed.charts.append((name, _line(page, lines, span, f"::chart[{name}]")))
        elif t.type == "term":
            key = t.meta["key"]
            parsed.terms.append((key, _line(page, lines, span, f":term[{key}")))
    return parsed


def check_refs(
    parsed: Parsed, figures: dict[str, object], charts: dict[str, object], terms: dict[str, object] | None = None
) -> None:
    """An unknown figure key, chart name or glossary term is an error naming the content file and line."""
    for key, line in parsed.figs:
        if key not in figures:
            raise InputError(parsed.page.label, line, unknown_figure(key, figures), repr(key))
    for name, line in parsed.charts:
        if name not in charts:
            hint = did_you_mean(name, charts)
            raise InputError(
                parsed.page.label, line, f"one of the charts {', '.join(sorted(charts))}{hint}", repr(name)
            )
    for key, line in parsed.terms:
        if terms is None or key not in terms:
            raise InputError(parsed.page.label, line, unknown_term(key, terms or {}), repr(key))


def unknown_figure(key: str, figures: Iterable[str]) -> str:
    """What an unknown figure key was expected to be, with the nearest keys and how to list them all."""
    return f"a registered figure key{did_you_mean(key, figures)}; list them with {LIST_HINT['fig']}"


def unknown_term(key: str, terms: Iterable[str]) -> str:
    return (
        f"a glossary term (a file content/glossary/<key>.md){did_you_mean(key, terms)}; "
        f"list them with {LIST_HINT['term']}"
    )
