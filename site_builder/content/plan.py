"""The site's page list, made in the collect phase: every page with its URL, kind and origin."""

from __future__ import annotations

from dataclasses import field
from typing import Any

from site_builder.content.parse import Parsed
from site_builder.datatypes import dataclass
from site_builder.results.figures import Registry, ResultsFile


@dataclass(frozen=True)
class Kind:
    """A page kind: the template that renders it and the hooks the build calls for its pages. Each kind is one
    module of site_builder/kinds/, registered there in ``KINDS`` (the one place); these defaults do nothing. A
    kind's module subclasses this for its hooks (methods only, not a dataclass of its own: each would generate its
    methods again at import) and gives its settings, the fields below, where it makes its one instance."""

    name: str
    template: str
    from_content: bool  # may a content file ask for it
    listed: bool = True  # in the site's page titles (the figure index's names, the sitemap)
    root: str | None = None  # the fixed prefix of its links, when it is served at any depth (the 404 page)
    slides: bool = False  # its content is a deck's slides (site_builder/content/assemble.py makes its DeckInfo)
    renders_tokens: bool = True  # its render reads its content's parsed tokens (a deck's reads its slides' text)
    glossary: bool = False  # it shows its series' glossary and decks (site_builder/content/assemble.py fills them)
    # what it says about its content files (site_builder/content/pages.py ContentRules)
    folder: str | None = None  # content/<series>/<folder>/ holds this kind's files, and only this kind's
    front_matter: tuple[str, ...] = ()  # the front-matter keys it takes besides every page's
    meta_lines: bool = False  # its body has "Key: value" lines the typed-number rule passes over

    def generated(self, files: dict[str, ResultsFile]) -> list[PlannedPage]:
        """The pages of this kind that the build makes itself (no content file)."""
        return []

    def collect(self, p: PlannedPage, fixed: dict[str, Any], registry: Registry, files: dict[str, ResultsFile]) -> None:
        """Kind-specific data for ``p`` (into ``p.extra``), once every figure use is recorded."""

    def context(self, p: PlannedPage, r: Any) -> dict[str, Any]:
        """What the template reads for ``p`` besides the common context; ``r``: render.pages.Rendering."""
        return {}

    def describe(self, p: PlannedPage, where: str) -> str | None:
        """The page's description when it has none of its own (no front matter, no first paragraph)."""
        return None


@dataclass
class PlannedPage:
    """A page of the site as the collect phase plans it: its URL, kind, origin and what its kind adds."""

    url: str  # site path, "" for the home page, else ending in "/"
    kind: Kind
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


NAV_MAX = 8
"""The most pages a series' group of the header lists. A longer group lists its first NAV_MAX - 1 pages (and the
page being read, if it is among the rest) and links to the list of every page on the series' home page: a header
of hundreds of links, repeated on every page, is neither readable nor small."""
SERIES_PAGES = "series-pages"
"""The id of that list on the series' home page."""


def navigation(pages: list[PlannedPage], series_homes: dict[str, tuple[str, str]]) -> list[dict[str, object]]:
    """The header's groups: one per series (its listed pages in order; ``series_homes`` maps a series' key to its
    title and home page), then the figure index. A group longer than NAV_MAX pages is capped (its ``more``: the
    home page, where the list of all of them goes, and the pages not listed, by URL)."""
    groups: list[dict[str, object]] = []
    for key, (title, home) in series_homes.items():
        items = [
            {"title": p.nav, "url": p.url}
            for p in sorted((p for p in pages if p.series == key and p.nav), key=lambda p: p.nav_order)
        ]
        more = None
        if len(items) > NAV_MAX and any(p.url == home for p in pages):
            rest = items[NAV_MAX - 1 :]
            items = items[: NAV_MAX - 1]
            more = {"home": home, "url": f"{home}#{SERIES_PAGES}", "pages": items + rest, "hidden": {}}
            more["hidden"] = {i["url"]: i["title"] for i in rest}
        groups.append({"title": title, "items": items, "more": more})
    groups.append({"title": "Every number", "items": [{"title": "Figure index", "url": "figures/"}], "more": None})
    return groups
