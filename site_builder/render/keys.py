"""What each page's HTML depends on, as one SHA-256 per page: the keys of the render cache.

A page is rendered from (1) the code and templates, (2) the site-wide state the collect phase gathered
(navigation, page titles, results files, every figure with its source and the pages that use it, the
glossary with its generated back-links, the decks as the hubs list them) and (3) its own part: its
content file, its kind-specific data, its results document or its charts' payloads (by digest). The key of a page is
a digest of all three, so an edit to one page's prose changes only that page's key, while an edit that
other pages can see (a title, a figure used, a term declared, a slide added) changes (2) and with it
every key. A cache hit writes the stored HTML (and CSV tables) byte for byte as rendering would.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from typing import Any

from site_builder.assemble import SeriesData
from site_builder.figures import Registry, ResultsFile
from site_builder.plan import PlannedPage


def _digest(parts: Iterable[Any]) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(json.dumps(part, sort_keys=True, ensure_ascii=False, default=repr).encode())
        h.update(b"\n")
    return h.hexdigest()


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def figures_digest(registry: Registry) -> str:
    """A digest of every figure with its value, text and source (not of the pages using them): the part of the site
    state that only the results change (kept in the basis, site_builder/basis.py)."""
    h = hashlib.sha256()
    for f in registry.figures.values():
        s = f.source
        h.update(json.dumps([f.key, repr(f.value), f.text, s.file, s.section, list(s.row), s.column, s.page]).encode())
        h.update(b"\n")
    return h.hexdigest()


def site_state(
    *,
    code: str,
    site_title: str,
    nav: list[dict[str, Any]],
    titles: dict[str, str],
    series_titles: dict[str, str],
    pins: dict[str, str],
    files: dict[str, ResultsFile],
    registry: Registry,
    figures: str,
    series: SeriesData,
) -> str:
    """(1) and (2) above: everything a page may read that is not its own. ``figures`` is
    :func:`figures_digest` of ``registry``, whose ``used_on`` is read here."""
    used = sorted((key, sorted(pages)) for key, pages in registry.used_on.items())
    terms = [
        [t.key, t.label, t.title, t.short, t.groups, t.body, t.explained_in, t.sections] for t in series.terms.values()
    ]
    decks = []
    for d in series.decks:
        decks.append([d.page.url, d.page.title, d.page.series, d.label, d.summary, d.pdf])
        decks.append([[s.id, s.title, s.terms, repr(s.sources)] for s in d.slides])
        decks.append({str(i): repr(v) for i, v in d.sources.items()})
    results = [[rf.label, rf.page, rf.title, rf.series, _sha(rf.text)] for rf in files.values()]
    return _digest([code, site_title, nav, titles, series_titles, pins, results, figures, used, terms, decks])


def page_key(state: str, p: PlannedPage, payloads: dict[str, str]) -> str:
    """(3) above, joined to the site state: the key of one page."""
    own: list[Any] = [p.url, p.kind.name, p.kind.template, p.made_from, p.title, p.series, p.nav, p.nav_order]
    if p.parsed is not None:
        page = p.parsed.page
        own += [page.label, page.meta, _sha(page.body)]
    if p.results is not None:
        own += [p.results.label, _sha(p.results.text)]
    own += [sorted(p.extra)]
    if "records" in p.extra:
        own.append(p.extra["records"])
    own += [[name, payloads[name]] for name in p.charts]  # the SHA-256 of each chart's payload
    return _digest([state, own])
