"""A series' hub and glossary pages (``kind: hub``, ``kind: glossary``): one kind class, two templates. Each lists
its series' decks and glossary (filled in by site_builder/content/assemble.py, since ``glossary`` is set)."""

from __future__ import annotations

from typing import Any

from markupsafe import Markup

from site_builder.content.plan import PlannedPage
from site_builder.kinds.page import ContentKind
from site_builder.render.pages import Rendering


class GlossaryKind(ContentKind):
    def context(self, p: PlannedPage, r: Rendering) -> dict[str, Any]:
        ctx = super().context(p, r)
        if "glossary" in p.extra:
            ctx["glossary"] = p.extra["glossary"]
            ctx["decks"] = p.extra["decks"]
            ctx["term_html"] = {
                t.key: Markup(r.md.render(t.body, r.env)) for g in p.extra["glossary"] for t in g["terms"]
            }
        return ctx


HUB = GlossaryKind("hub", "hub.html", True, glossary=True)
GLOSSARY = GlossaryKind("glossary", "glossary.html", True, glossary=True)
