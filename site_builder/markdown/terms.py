"""The ``:term[key]`` inline rule: a glossary term, linked to its entry, with its short definition.

``:term[key|shown text]`` shows other text. The link's target and the definition come from the
render environment (``env["term_href"](key)`` and ``env["terms"][key].short``), so the same
Markdown links to the glossary of the page's own series.
"""

from __future__ import annotations

import re
from html import escape
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.rules_inline import StateInline

TERM_REF = re.compile(r":term\[([a-z0-9-]+)(?:\|([^\]\n]+))?\]")


def _term_rule(state: StateInline, silent: bool) -> bool:
    if not state.src.startswith(":term[", state.pos):
        return False
    m = TERM_REF.match(state.src, state.pos)
    if m is None:
        return False
    if not silent:
        token = state.push("term", "", 0)
        token.meta = {"key": m.group(1), "text": m.group(2)}
    state.pos = m.end()
    return True


def render_term(self: Any, tokens: Any, idx: int, options: Any, env: dict[str, Any]) -> str:
    key = tokens[idx].meta["key"]
    term = env["terms"][key]
    text = tokens[idx].meta["text"] or term.title
    href = env["root"] + env["term_href"](key)
    return (
        f'<a class="term" href="{escape(href)}" data-term="{escape(key)}" '
        f'data-short="{escape(term.short)}">{escape(text)}</a>'
    )


def terms_plugin(md: MarkdownIt) -> None:
    md.inline.ruler.before("link", "term", _term_rule)
    md.add_render_rule("term", render_term)
