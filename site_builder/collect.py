"""The collect phase: parse every content page and gather what it references before anything is written.

Which pages show a figure (and, later, which slides explain a term) is known here, so the figure
index and every back-link are complete when rendering starts.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from markdown_it import MarkdownIt
from markdown_it.token import Token

from site_builder.content import Page
from site_builder.errors import InputError


@dataclass
class Parsed:
    """A content page after parsing: its tokens and what they reference."""

    page: Page
    tokens: list[Token]
    figs: list[tuple[str, str]] = field(default_factory=list)  # (key, "line N" in the content file)
    charts: list[tuple[str, str]] = field(default_factory=list)  # (name, "line N")


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


def parse_page(page: Page, md: MarkdownIt) -> Parsed:
    tokens = md.parse(page.body, {})
    lines = page.body.splitlines()
    parsed = Parsed(page, tokens)
    for t, span in _walk(tokens):
        if t.type == "fig":
            key = t.meta["key"]
            parsed.figs.append((key, _line(page, lines, span, f":fig[{key}]")))
        elif t.type == "chart":
            name = t.meta["name"]
            parsed.charts.append((name, _line(page, lines, span, f"::chart[{name}]")))
    return parsed


def check_refs(parsed: Parsed, figures: dict[str, object], charts: dict[str, object]) -> None:
    """An unknown figure key or chart name is an error naming the content file and line."""
    for key, line in parsed.figs:
        if key not in figures:
            raise InputError(parsed.page.label, line, "a registered figure key", repr(key))
    for name, line in parsed.charts:
        if name not in charts:
            raise InputError(parsed.page.label, line, f"one of the charts {', '.join(sorted(charts))}", repr(name))
