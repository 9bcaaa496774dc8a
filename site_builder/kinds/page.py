"""The plain content page (``kind: page``, the default) and the base of every kind made from a content file."""

from __future__ import annotations

from typing import Any

from markupsafe import Markup

from site_builder.content.plan import Kind, PlannedPage
from site_builder.render.pages import Rendering


class ContentKind(Kind):
    """A kind a content file asks for: its front matter and its Markdown rendered."""

    def context(self, p: PlannedPage, r: Rendering) -> dict[str, Any]:
        assert p.parsed is not None
        body = Markup(r.md.renderer.render(p.parsed.tokens, r.md.options, r.env))
        return {"meta": p.parsed.page.meta, "body": body}


PAGE = ContentKind("page", "page.html", True)
