"""A deck's slides as HTML sections: the opening slide, the generated topic list, then the rest.

Each slide's article-only block and speaker notes are rendered beside its body: the template puts the
first in a ``.slide-article`` block (hidden when presenting and printing) and the notes in reveal.js's
``aside.notes`` inside a collapsed ``details.slide-notes`` (the article shows it closed; reveal hides it
on the slide and its speaker view shows it)."""

from __future__ import annotations

from html import escape
from typing import Any

from markdown_it import MarkdownIt

from site_builder.content.decks import TOPICS_ID, Slide, SourceLink


def render_slides(
    slides: list[Slide], md: MarkdownIt, env: dict[str, Any], source_links: dict[int, list[SourceLink]]
) -> list[dict[str, Any]]:
    """Template data for every slide, the topics slide inserted second. ``source_links`` is keyed by slide index."""
    out = []
    for i, s in enumerate(slides):
        out.append(
            {
                "id": s.id,
                "title": s.title,
                "body": md.render(s.body, env),
                "article": md.render(s.article, env) if s.article else "",
                "notes": md.render(s.notes, env) if s.notes else "",
                "sources": source_links.get(i, []),
            }
        )
        if i == 0:
            items = "".join(f'<li><a href="#{escape(t.id)}">{escape(t.title)}</a></li>' for t in slides[1:])
            out.append(
                {
                    "id": TOPICS_ID,
                    "title": "Topics we'll cover",
                    "body": f'<ol class="topics">{items}</ol>',
                    "article": "",
                    "notes": "",
                    "sources": [],
                }
            )
    return out
