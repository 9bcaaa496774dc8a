"""Markdown for content pages: CommonMark + tables, containers, heading anchors, and two site rules.

* ``:fig[key]`` (inline) renders a registered figure as a link carrying its key and source cell.
* ``::chart[name]`` (a line of its own) places an interactive chart.
"""

from __future__ import annotations

import functools
import json
import re
from html import escape
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock
from markdown_it.rules_inline import StateInline
from mdit_py_plugins.anchors import anchors_plugin
from mdit_py_plugins.container import container_plugin

from site_builder.figures import Figure

FIG_REF = re.compile(r":fig\[([^\]\s]+)\]")
CHART_LINE = re.compile(r"^::chart\[([a-z0-9_-]+)\]\s*$")
CONTAINERS = ("finding", "answer", "steps", "note", "lead", "cards", "list")


@functools.lru_cache(maxsize=8192)
def fig_html(fig: Figure, root: str) -> str:
    """The element a figure renders as. Its text is exactly the figure's text."""
    s = fig.source
    return (
        f'<a class="fig" href="{escape(root + s.href())}" data-fig="{escape(fig.key)}" '
        f'data-src="{escape(s.describe())}" data-file="{escape(s.file)}" data-section="{escape(s.section)}" '
        f"data-row='{escape(json.dumps(list(s.row), ensure_ascii=False))}' data-col=\"{escape(s.column)}\">"
        f"{escape(fig.text)}</a>"
    )


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


def make_markdown() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": True, "typographer": False}).enable("table")
    md.use(anchors_plugin, min_level=2, max_level=3, permalink=False)
    for name in CONTAINERS:
        md.use(container_plugin, name=name)
    md.inline.ruler.before("link", "fig", _fig_rule)
    md.block.ruler.before("paragraph", "chart", _chart_rule)

    def render_fig(self: Any, tokens: Any, idx: int, options: Any, env: dict[str, Any]) -> str:
        key = tokens[idx].meta["key"]
        fig = env["registry"].get(key)
        return fig_html(fig, env["root"])

    def render_chart(self: Any, tokens: Any, idx: int, options: Any, env: dict[str, Any]) -> str:
        name = tokens[idx].meta["name"]
        return (
            f'<figure class="chart" id="chart-{name}" data-chart="{name}">'
            f'<p class="chart-loading">Loading the chart…</p></figure>\n'
        )

    def render_link_open(self: Any, tokens: Any, idx: int, options: Any, env: dict[str, Any]) -> str:
        href = tokens[idx].attrGet("href")
        if isinstance(href, str) and href.startswith("/") and not href.startswith("//"):
            tokens[idx].attrSet("href", env["root"] + href[1:])
        return self.renderToken(tokens, idx, options, env)

    md.add_render_rule("fig", render_fig)
    md.add_render_rule("chart", render_chart)
    md.add_render_rule("link_open", render_link_open)
    return md
