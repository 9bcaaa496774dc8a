"""A deck's slides as HTML sections: the opening slide, the generated topic list, then the rest."""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from typing import Any

from markdown_it import MarkdownIt

from site_builder.decks import TOPICS_ID, Slide


@dataclass(frozen=True)
class SourceLink:
    text: str  # "analysis §2"
    href: str  # relative to the page


def render_slides(
    slides: list[Slide], md: MarkdownIt, env: dict[str, Any], source_links: dict[int, list[SourceLink]]
) -> list[dict[str, Any]]:
    """Template data for every slide, the topics slide inserted second. ``source_links`` is keyed by slide index."""
    out = []
    for i, s in enumerate(slides):
        body = md.render(s.body, env)
        out.append({"id": s.id, "title": s.title, "body": body, "sources": source_links.get(i, [])})
        if i == 0:
            items = "".join(f'<li><a href="#{escape(t.id)}">{escape(t.title)}</a></li>' for t in slides[1:])
            out.append(
                {
                    "id": TOPICS_ID,
                    "title": "Topics we'll cover",
                    "body": f'<ol class="topics">{items}</ol>',
                    "sources": [],
                }
            )
    return out
