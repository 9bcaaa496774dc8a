"""Markdown for content pages: CommonMark + tables, containers, heading anchors, and the site's rules.

Raw HTML is off (``html: False``): what a page needs has a rule of its own, and link and image URLs
are kept only with a safe scheme (http, https, mailto) or none (relative, site-root, #fragment).

* ``:fig[key]`` (inline) renders a registered figure as a link carrying its key and source cell.
* ``::chart[name]`` (a line of its own) places an interactive chart.
* ``:value[…]`` (inline) sets its Markdown apart as the value of a row (``<span class="value">``), as in
  ``::: list`` items: the label on the left, the value on the right.
* Tables scroll inside a focusable, labelled region (``<div class="table-wrap" tabindex="0" role="region">``).
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable
from html import escape
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline
from mdit_py_plugins.anchors.index import slugify
from mdit_py_plugins.container import container_plugin

from site_builder.markdown.terms import terms_plugin
from site_builder.results.figures import Figure

SAFE_SCHEMES = frozenset({"http", "https", "mailto"})
URL_SCHEME = re.compile(r"^[\x00-\x20]*([A-Za-z][A-Za-z0-9+.\-]*):")
FIG_REF = re.compile(r":fig\[([^\]\s]+)\]")
CHART_LINE = re.compile(r"^::chart\[([a-z0-9_-]+)\]\s*$")
CONTAINERS = ("finding", "answer", "steps", "note", "lead", "cards", "list", "chain")
HEADING_LEVELS = (2, 3)  # the heading levels given an id


@functools.lru_cache(maxsize=8192)
def fig_html(fig: Figure, root: str, here: str | None = None) -> str:
    """The element a figure renders as. Its text is exactly the figure's text; its key is in the search index. Its
    source cell is named by file, section, row and column (the card and the printed list of sources compose the
    one-line description from them, as Source.describe does: not written out a second time on every link). On the
    page that holds its cell (``here``: that page's site path) it links to the row by its fragment alone, the
    same target in fewer bytes: a results page holds hundreds of these links."""
    s = fig.source
    href = "#" + s.anchor() if s.page == here else root + s.href()
    return (
        f'<a class="fig" href="{escape(href)}" data-fig="{escape(fig.key)}" '
        f'data-file="{escape(s.file)}" data-section="{escape(s.section)}" '
        f"data-row='{_single_quoted(json.dumps(list(s.row), ensure_ascii=False))}' data-col=\"{escape(s.column)}\">"
        f"{escape(fig.text)}</a>"
    )


def _single_quoted(value: str) -> str:
    """``value`` escaped for an attribute in single quotes: as ``html.escape`` does, but a double quote stands as it
    is there (a row's JSON has two per cell, and ``&quot;`` is six bytes)."""
    return escape(value, quote=False).replace("'", "&#x27;")


def _fig_rule(state: StateInline, silent: bool) -> bool:
    if not state.src.startswith(":fig[", state.pos):
        return False
    m = FIG_REF.match(state.src, state.pos)
    if m is None:
        return False
    if not silent:
        token = state.push("fig", "", 0)
        token.meta = {"key": m.group(1)}
    state.pos = m.end()
    return True


def safe_url(url: str) -> bool:
    """A URL with no scheme (relative, site-root, #fragment) or one of http, https, mailto."""
    m = URL_SCHEME.match(url)
    return m is None or m.group(1).lower() in SAFE_SCHEMES


def url_scheme(url: str) -> str | None:
    m = URL_SCHEME.match(url)
    return m.group(1).lower() if m else None


VALUE_OPEN = ":value["


def _value_rule(state: StateInline, silent: bool) -> bool:
    if not state.src.startswith(VALUE_OPEN, state.pos):
        return False
    start = state.pos + len(VALUE_OPEN) - 1  # the "["
    end = state.md.helpers.parseLinkLabel(state, start)
    if end < 0:
        return False
    if not silent:
        token = state.push("value_open", "span", 1)
        token.attrSet("class", "value")
        old_max = state.posMax
        state.pos, state.posMax = start + 1, end
        state.md.inline.tokenize(state)
        state.posMax = old_max
        state.push("value_close", "span", -1)
    state.pos = end + 1
    return True


def _chart_rule(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    line = state.src[state.bMarks[start] + state.tShift[start] : state.eMarks[start]]
    m = CHART_LINE.match(line)
    if m is None:
        return False
    if not silent:
        token = state.push("chart", "", 0)
        token.meta = {"name": m.group(1)}
        token.map = [start, start + 1]
    state.line = start + 1
    return True


def _plain(token: Any, env: dict[str, Any]) -> str:
    """An inline token's text as a reader sees it (figures and terms by their text, no markup)."""
    out = []
    for c in token.children or ():
        if c.type in ("text", "code_inline"):
            out.append(c.content)
        elif c.type == "fig" and "registry" in env:
            out.append(env["registry"].get(c.meta["key"]).text)
        elif c.type == "term":
            term = env.get("terms", {}).get(c.meta["key"])
            out.append(c.meta["text"] or (term.title if term else c.meta["key"]))
    return "".join(out).strip()


def table_label(tokens: Any, idx: int, env: dict[str, Any]) -> str:
    """A name for the table opened at ``tokens[idx]``: the heading above it, else its column headers."""
    for i in range(idx - 1, 0, -1):
        if tokens[i].type == "heading_close" and tokens[i - 1].type == "inline":
            return "Table: " + _plain(tokens[i - 1], env)
    heads = []
    for t in tokens[idx + 1 :]:
        if t.type == "thead_close":
            break
        if t.type == "inline" and t.content:
            heads.append(_plain(t, env))
    return "Table: " + ", ".join(heads[:4]) + (", …" if len(heads) > 4 else "")


class Slugs:
    """Heading ids taken on a page, and a free one for a new heading in time that does not grow with the number
    of headings already holding the same text (``a``, ``a-1``, ``a-2``, … as mdit-py-plugins' anchors name them,
    but resuming from the last suffix given instead of counting up from 1 each time)."""

    def __init__(self, taken: set[str]) -> None:
        self.taken = taken
        self.next: dict[str, int] = {}

    def unique(self, slug: str) -> str:
        uniq = slug
        i = self.next.get(slug, 1)
        if i > 1:
            uniq = f"{slug}-{i - 1}"  # taken: the last one given
        while uniq in self.taken:
            uniq = f"{slug}-{i}"
            i += 1
        self.next[slug] = i
        self.taken.add(uniq)
        return uniq


def _heading_ids(state: StateCore) -> None:
    """Ids for the level-2 and level-3 headings that have none, from their text (the anchors plugin's slugs,
    an explicit id reserved first, a repeated one numbered); near-linear in the number of headings."""
    slugs = Slugs({str(i) for t in state.tokens if t.type == "heading_open" and (i := t.attrGet("id"))})
    for idx, token in enumerate(state.tokens):
        if token.type != "heading_open" or int(token.tag[1]) not in HEADING_LEVELS or token.attrGet("id"):
            continue
        children = state.tokens[idx + 1].children or []
        title = "".join(c.content for c in children if c.type in ("text", "code_inline"))
        token.attrSet("id", slugs.unique(slugify(title)))


def _fig_heading_ids(figure_text: Callable[[str], str | None] | None) -> Callable[[StateCore], None]:
    """A core rule, run before the anchors plugin: a heading holding a figure gets its id from its text with
    the figure's text in it ("Below ENOB :fig[…] the …" → ``below-enob-8-the-…``), where the plugin would drop
    the figure (``below-enob--the-…``). The figure's text comes from the registry in the render environment,
    else from ``figure_text`` (the collect phase parses before rendering). The id then counts as explicit."""

    def rule(state: StateCore) -> None:
        registry = state.env.get("registry") if isinstance(state.env, dict) else None

        def text_of(key: str) -> str | None:
            if registry is not None and key in registry.figures:
                return registry.figures[key].text
            return figure_text(key) if figure_text is not None else None

        taken: Slugs | None = None
        for idx, tok in enumerate(state.tokens):
            if tok.type != "heading_open" or tok.attrGet("id") or int(tok.tag[1]) not in HEADING_LEVELS:
                continue
            children = state.tokens[idx + 1].children or []
            if not any(c.type == "fig" for c in children):
                continue
            parts = [
                c.content if c.type in ("text", "code_inline") else text_of(c.meta["key"]) if c.type == "fig" else ""
                for c in children
            ]
            if any(p is None for p in parts):
                continue  # an unknown key: the collect phase reports it
            if taken is None:
                taken = Slugs(
                    {str(t.attrGet("id")) for t in state.tokens if t.type == "heading_open" and t.attrGet("id")}
                )
            tok.attrSet("id", taken.unique(slugify("".join(p for p in parts if p))))

    return rule


def make_markdown(html: bool = False, figure_text: Callable[[str], str | None] | None = None) -> MarkdownIt:
    """The site's Markdown. ``html=True`` only for :func:`raw_html_finder` (finding raw HTML to report it).
    ``figure_text`` gives a figure's text by key, for the ids of headings that hold one."""
    md = MarkdownIt("commonmark", {"html": html, "typographer": False}).enable("table")
    md.core.ruler.push("anchor", _heading_ids)
    md.core.ruler.before("anchor", "fig_heading_ids", _fig_heading_ids(figure_text))
    for name in CONTAINERS:
        md.use(container_plugin, name=name)
    md.inline.ruler.before("link", "fig", _fig_rule)
    md.inline.ruler.before("link", "value", _value_rule)
    md.use(terms_plugin)
    md.block.ruler.before("paragraph", "chart", _chart_rule)

    rejected: list[str] = []

    def validate_link(url: str) -> bool:
        """markdown-it's link filter: only safe schemes; the refused URLs are kept for the collect phase."""
        if safe_url(url):
            return True
        rejected.append(url)
        return False

    md.validateLink = validate_link  # type: ignore[method-assign]
    md.rejected_links = rejected  # type: ignore[attr-defined]

    def render_fig(self: Any, tokens: Any, idx: int, options: Any, env: dict[str, Any]) -> str:
        key = tokens[idx].meta["key"]
        fig = env["registry"].get(key)
        return fig_html(fig, env["root"])

    def render_chart(self: Any, tokens: Any, idx: int, options: Any, env: dict[str, Any]) -> str:
        name = tokens[idx].meta["name"]
        return (
            f'<figure class="chart" id="chart-{name}" data-chart="{name}">'
            f'<p class="chart-loading" data-search-ignore>Loading the chart…</p></figure>\n'
        )

    def site_root(env: dict[str, Any], url: object) -> object:
        if isinstance(url, str) and url.startswith("/") and not url.startswith("//"):
            return env.get("root", "") + url[1:]
        return url

    def render_link_open(self: Any, tokens: Any, idx: int, options: Any, env: dict[str, Any]) -> str:
        tokens[idx].attrSet("href", site_root(env, tokens[idx].attrGet("href")))
        return self.renderToken(tokens, idx, options, env)

    def render_table_open(self: Any, tokens: Any, idx: int, options: Any, env: dict[str, Any]) -> str:
        label = escape(table_label(tokens, idx, env))
        wrap = f'<div class="table-wrap" tabindex="0" role="region" aria-label="{label}">\n'
        return wrap + self.renderToken(tokens, idx, options, env)

    def render_table_close(self: Any, tokens: Any, idx: int, options: Any, env: dict[str, Any]) -> str:
        return self.renderToken(tokens, idx, options, env) + "</div>\n"

    default_image = md.renderer.rules["image"]

    def render_image(self: Any, tokens: Any, idx: int, options: Any, env: dict[str, Any]) -> str:
        tokens[idx].attrSet("src", site_root(env, tokens[idx].attrGet("src")))
        return default_image(tokens, idx, options, env)

    md.add_render_rule("fig", render_fig)
    md.add_render_rule("chart", render_chart)
    md.add_render_rule("link_open", render_link_open)
    md.add_render_rule("image", render_image)
    md.add_render_rule("table_open", render_table_open)
    md.add_render_rule("table_close", render_table_close)
    return md


@functools.cache
def raw_html_finder() -> MarkdownIt:
    """The same Markdown with HTML on: parsing with it shows which text the site's Markdown treats as raw
    HTML (html_block / html_inline tokens), so content can be refused with the line instead of shown escaped."""
    return make_markdown(html=True)
