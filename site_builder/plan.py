"""The site's page list, made in the collect phase: every page with its URL, kind and origin."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from site_builder.collect import Parsed
from site_builder.figures import ResultsFile
from site_builder.page_kinds import PageKind


@dataclass
class PlannedPage:
    url: str  # site path, "" for the home page, else ending in "/"
    kind: PageKind
    made_from: str  # the file it comes from, as named in messages
    title: str
    series: str | None = None
    nav: str | None = None  # its title in the navigation, if it is listed there
    nav_order: int = 0
    parsed: Parsed | None = None  # content pages
    results: ResultsFile | None = None  # results pages
    extra: dict[str, Any] = field(default_factory=dict)  # kind-specific data (a deck's slides, a hub's decks)

    @property
    def charts(self) -> list[str]:
        return [] if self.parsed is None else list(dict.fromkeys(name for name, _ in self.parsed.charts))


def navigation(pages: list[PlannedPage], series_titles: dict[str, str]) -> list[dict[str, object]]:
    """The header's groups: one per series (its listed pages in order), then the figure index."""
    groups: list[dict[str, object]] = []
    for key, title in series_titles.items():
        items = sorted((p for p in pages if p.series == key and p.nav), key=lambda p: p.nav_order)
        groups.append({"title": title, "items": [{"title": p.nav, "url": p.url} for p in items]})
    groups.append({"title": "Every number", "items": [{"title": "Figure index", "url": "figures/"}]})
    return groups
