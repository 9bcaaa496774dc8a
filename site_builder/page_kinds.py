"""The kinds of page the site has, each rendered by one template.

A content page names its kind in front matter (``kind: page`` by default); the generated kinds
(results pages, the figure index) come from the producers and the registry. Later kinds (decks,
glossaries) register here.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PageKind:
    name: str
    template: str
    from_content: bool  # may a content file ask for it


KINDS: dict[str, PageKind] = {
    k.name: k
    for k in (
        PageKind("home", "home.html", True),
        PageKind("page", "page.html", True),
        PageKind("deck", "deck.html", True),
        PageKind("hub", "hub.html", True),
        PageKind("glossary", "glossary.html", True),
        PageKind("method", "method.html", True),
        PageKind("results", "results.html", False),
        PageKind("figures", "figures.html", False),
        PageKind("notfound", "404.html", False),
    )
}
CONTENT_KINDS = tuple(k.name for k in KINDS.values() if k.from_content)
