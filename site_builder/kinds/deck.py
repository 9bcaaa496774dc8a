"""A deck (``kind: deck``, content/<series>/decks/NN-slug.md): its slides, rendered by site_builder/render/deck.py
from the DeckInfo site_builder/content/assemble.py makes (``slides`` is set)."""

from __future__ import annotations

from typing import Any

from markupsafe import Markup

from site_builder.content.assemble import source_links
from site_builder.content.plan import PlannedPage
from site_builder.kinds.page import ContentKind
from site_builder.render.deck import render_slides
from site_builder.render.pages import Rendering


class DeckKind(ContentKind):
    def context(self, p: PlannedPage, r: Rendering) -> dict[str, Any]:
        assert p.parsed is not None
        deck = p.extra["deck"]
        slides = render_slides(deck.slides, r.md, r.env, source_links(deck, r.root))
        return {"meta": p.parsed.page.meta, "deck": deck, "slides": slides, "body": Markup("")}


DECK = DeckKind(
    "deck",
    "deck.html",
    True,
    slides=True,
    renders_tokens=False,  # render_slides parses each slide's own text
    folder="decks",  # content/<series>/decks/NN-slug.md
    front_matter=("deck", "summary"),  # its number and its hub summary
    meta_lines=True,  # a slide's Source: and Terms: lines
)
