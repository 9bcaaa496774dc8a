"""Series-level assembly in the collect phase: decks' slides and source links, glossary back-links, hub lists.

Everything here is derived from the parsed content before any page is written, so the glossary's
"Explained in" links and a hub's deck list are complete when rendering starts.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import field
from pathlib import Path
from typing import Any

from site_builder.content.decks import SOURCE_DOCS, Slide, SlideHead, SourceLink, SourceRef, slide_heads, split_slides
from site_builder.content.glossary import GROUPS, Term
from site_builder.content.pages import Page
from site_builder.content.parse import Parsed, check_refs
from site_builder.content.plan import PlannedPage
from site_builder.datatypes import dataclass
from site_builder.errors import InputError
from site_builder.results.figures import Registry, ResultsFile, slug
from site_builder.series import SERIES

DOC_NAMES = {label: name for name, label in SOURCE_DOCS.items()}


@dataclass
class SectionLink:
    """A link to a section of a results page, as a slide's Source line names it."""

    text: str  # "analysis §2"
    url: str  # site path with fragment, e.g. "fopttrn/analysis/results/#2-a-training-step"


@dataclass
class DeckInfo:
    """A deck as the rest of the site shows it: its label, summary, slide heads and their source links."""

    page: PlannedPage
    label: str  # "FOptTrn 01"
    summary: str
    heads: list[SlideHead]  # what the rest of the site reads of its slides
    sources: dict[int, list[SectionLink]] = field(default_factory=dict)

    @property
    def slides(self) -> list[Slide]:
        """Its slides with their text, for its own render: split again from its page (the same split its heads
        came from, now or in an earlier build from the same text and code)."""
        assert self.page.parsed is not None
        return split_slides(self.page.parsed.page)

    @property
    def pdf(self) -> str:
        """Site path of the deck's PDF (written by the build's print phase, site_builder/printing/store.py)."""
        return self.page.url.rstrip("/") + ".pdf"

    def __key_parts__(self) -> tuple[Any, ...]:
        """What a deck is made from (site_builder/cache/keys.py made_from): its content file's page (text, front
        matter, place) and its planned page's URL, title and series. decks_of makes its slides and source links from
        these with the code and the results files' headings, which every key holds (as the code and data
        digests)."""
        p = self.page
        assert p.parsed is not None
        return (p.parsed.page, p.url, p.kind.name, p.made_from, p.title, p.series, p.nav, p.nav_order)

    def listing(self) -> DeckListing:
        return DeckListing(self.label, self.page.url, self.page.title, self.summary, self.pdf, len(self.heads) + 1)


@dataclass(frozen=True)
class DeckListing:
    """What a series hub lists of a deck (templates/hub.html): its hub holds these and not the deck's slides, so
    an edit of a slide's text leaves the hub's key as it was."""

    label: str  # "FOptTrn 01"
    url: str
    title: str
    summary: str
    pdf: str
    slides: int  # with the title slide


def _numbered(title: str, number: str) -> bool:
    """Whether a heading is section ``number`` ("3.2 Title", "3.2. Title"): the number, then a dot or a space."""
    after = title[len(number) : len(number) + 1]
    return title.startswith(number) and (after == "." or after.isspace())


def section_link(files: dict[str, ResultsFile], ref: SourceRef, label: str) -> SectionLink:
    file_label = SOURCE_DOCS[ref.doc]
    rf = files.get(file_label)
    if rf is None:
        raise InputError(label, ref.line, f"a results document {ref.doc!r} the site publishes", "none")
    title = next((t for t, level in rf.headings if level >= 2 and _numbered(t, ref.section)), None)
    if title is None:
        raise InputError(label, ref.line, f"a section §{ref.section} in {file_label}", "no such section")
    return SectionLink(f"{ref.doc} §{ref.section}", f"{rf.page}#{slug(title)}")


def decks_of(
    plan: list[PlannedPage],
    files: dict[str, ResultsFile],
    terms: dict[str, Term],
    split: Callable[[Page], list[SlideHead]] = slide_heads,
) -> list[DeckInfo]:
    """Every deck's DeckInfo (``split``: :func:`slide_heads`, or what it found before, site_builder/phases/store.py),
    its slides' terms and sources checked; each section link is made once per results section (every deck citing
    it shares it: on a large site most decks cite the same few sections)."""
    decks = []
    links: dict[tuple[str, str], SectionLink] = {}
    for p in plan:
        if not p.kind.slides or p.parsed is None:
            continue
        page = p.parsed.page
        for name in ("deck", "summary"):
            if not isinstance(page.meta.get(name), str) or not page.meta[name].strip():
                raise InputError(page.label, f"front matter.{name}", "a non-empty string", repr(page.meta.get(name)))
        if p.series is None:
            raise InputError(page.label, "front matter.series", f"one of {', '.join(SERIES)}", "none")
        heads = split(page)
        info = DeckInfo(p, page.meta["deck"].strip(), page.meta["summary"].strip(), heads)
        for i, s in enumerate(heads):
            for key, line in s.terms:
                if key not in terms:
                    raise InputError(page.label, line, "a glossary term (a file content/glossary/<key>.md)", repr(key))
            info.sources[i] = []
            for ref in s.sources:
                link = links.get((ref.doc, ref.section))
                if link is None:
                    link = links[(ref.doc, ref.section)] = section_link(files, ref, page.label)
                info.sources[i].append(link)
        p.extra["deck"] = info
        decks.append(info)
    return sorted(decks, key=lambda d: d.page.url)


def term_figures(terms: dict[str, Term], parse: Callable[[Page], Parsed], registry: Registry) -> dict[str, list[str]]:
    """The figure keys each glossary entry shows. Its body is held to the rules of a page's (no unknown markup,
    no typed number: ``parse`` is :func:`parse_page` or what it found before, site_builder/phases/store.py); an
    unknown figure or term names the term file and line, with the nearest keys."""
    out: dict[str, list[str]] = {}
    for t in terms.values():
        parsed = parse(Page(Path(t.label), t.label, "", t.title, "page", t.body, t.body_line))
        check_refs(parsed, registry.figures, {}, terms)
        out[t.key] = [key for key, _ in parsed.figs]
    return out


def link_glossary(
    terms: dict[str, Term], decks: list[DeckInfo], registry: Registry, figs: dict[str, list[str]]
) -> None:
    """Fill each term's "Explained in": the slides that declare it, and the results sections behind it.

    A term listed in a series' glossary that no slide of that series explains is an error.
    """
    for t in terms.values():
        t.explained_in, t.sections = [], []
    seen_sections: dict[str, set[str]] = {k: set() for k in terms}
    for d in decks:
        for i, s in enumerate(d.heads):
            for key, _ in s.terms:
                terms[key].explained_in.append((f"{d.label} · {s.title}", f"{d.page.url}#{s.id}", d.page.series or ""))
                for link in d.sources.get(i, []):
                    if link.url not in seen_sections[key]:
                        seen_sections[key].add(link.url)
                        terms[key].sections.append((link.text, link.url))
    for key, keys in figs.items():
        for fk in keys:
            src = registry.figures[fk].source
            url = f"{src.page}#{slug(src.section)}"
            if url not in seen_sections[key]:
                seen_sections[key].add(url)
                number = src.section.split(".", 1)[0]
                terms[key].sections.append((f"{DOC_NAMES.get(src.file, src.file)} §{number}", url))
    deck_series = {d.page.series for d in decks}
    for t in terms.values():
        for series in t.groups:
            if series in deck_series and not any(e[2] == series for e in t.explained_in):
                raise InputError(
                    t.label, f"groups.{series}", f"a term that a slide of the {series} decks declares (Terms:)", "none"
                )


def glossary_context(series: str, terms: dict[str, Term]) -> list[dict[str, Any]]:
    groups = []
    for g in GROUPS[series]:
        members = sorted((t for t in terms.values() if t.groups.get(series) == g), key=lambda t: t.title.lower())
        if members:
            groups.append({"title": g, "id": "glossary-" + slug(g), "terms": members})
    return groups


def source_links(info: DeckInfo, root: str) -> dict[int, list[SourceLink]]:
    return {i: [SourceLink(link.text, root + link.url) for link in links] for i, links in info.sources.items()}


@dataclass(frozen=True)
class TermLink:
    """What a page's Markdown shows of a glossary term (site_builder/markdown/terms.py): its title, its short
    definition and the link to its entry, from a page of each series (None: a page of no series). A page's render
    reads these and no more of the glossary, so an edit elsewhere in an entry or a deck leaves the page's key."""

    title: str
    short: str
    hrefs: dict[str | None, str]  # a page's series (SERIES' keys, or None) -> the entry's site path

    def href(self, series: str | None) -> str:
        return self.hrefs[series]


@dataclass
class SeriesData:
    """What the collect phase learned about decks and glossaries, for the renderer."""

    terms: dict[str, Term]
    decks: list[DeckInfo]
    glossary_pages: dict[str, str]  # series -> site path of its glossary page

    def term_href(self, series: str | None) -> Any:
        """For a page of ``series``: key -> site path of the glossary entry (its own series' glossary first)."""

        def href(key: str) -> str:
            t = self.terms[key]
            order = ([series] if series in t.groups else []) + [s for s in t.groups if s != series]
            for s in order:
                if s in self.glossary_pages:
                    return f"{self.glossary_pages[s]}#{t.anchor}"
            return f"{next(iter(self.glossary_pages.values()), '')}#{t.anchor}"

        return href

    def term_links(self) -> dict[str, TermLink]:
        hrefs = {series: self.term_href(series) for series in (*SERIES, None)}
        return {
            key: TermLink(t.title, t.short, {series: h(key) for series, h in hrefs.items()})
            for key, t in self.terms.items()
        }


def collect_series(
    plan: list[PlannedPage],
    files: dict[str, ResultsFile],
    terms: dict[str, Term],
    parse: Callable[[Page], Parsed],
    registry: Registry,
    split: Callable[[Page], list[SlideHead]] = slide_heads,
) -> SeriesData:
    decks = decks_of(plan, files, terms, split)
    figs = term_figures(terms, parse, registry)
    link_glossary(terms, decks, registry, figs)
    glossary_pages = {p.series: p.url for p in plan if p.kind.glossary and p.series}
    for s in {s for t in terms.values() for s in t.groups}:
        if s not in glossary_pages and any(d.page.series == s for d in decks):
            raise InputError("content", s, f"a page of kind hub or glossary for the {s} series", "none")
    for p in plan:
        if p.kind.glossary and p.series:
            p.extra["glossary"] = glossary_context(p.series, terms)
            p.extra["decks"] = [d.listing() for d in decks if d.page.series == p.series]
            for t in terms.values():
                if p.series in t.groups:
                    for key in figs[t.key]:
                        registry.use(key, p.url)
    return SeriesData(terms, decks, glossary_pages)
