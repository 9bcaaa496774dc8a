"""One pass of the HTML parser over each new page, for both phases that read built pages.

The link check (site_builder/render/links.py: URLs, ids, problems) and the search index (site_builder/search:
words, anchors, terms) read different things from the same tokens, and tokenizing a page costs more than
either reader's own work. So before those phases, each page that neither has in its cache yet is parsed once,
its tokens handed to both readers, and both results stored in their caches, where the two phases then find
them: on a cold build that is one parse of about 2 MB of HTML instead of two. The pages are shared with a
forked process by size, as the phases share their own work.

Each reader gets exactly the events it would get parsing the page itself (the same parser settings; a reader
is never fed), so the stored results are the ones the phases would make: a test compares them on every page.
"""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from site_builder import processes
from site_builder.cache.overlay import Overlay
from site_builder.cache.store import ResultsCache
from site_builder.render import links
from site_builder.search import read_page, records
from site_builder.search.extract import page_of, reader_for
from site_builder.search.records import Record, code_key, record_key, record_of

SHARE_FROM = 4  # pages to parse from which about half of them are parsed in a forked process


class _Both(HTMLParser):
    """A parser handing every start tag, end tag and text to each of ``readers`` (parsers that are not fed)."""

    def __init__(self, *readers: HTMLParser) -> None:
        super().__init__(convert_charrefs=True)
        self.readers = readers

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for r in self.readers:
            r.handle_starttag(tag, attrs)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for r in self.readers:
            r.handle_startendtag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        for r in self.readers:
            r.handle_endtag(tag)

    def handle_data(self, data: str) -> None:
        for r in self.readers:
            r.handle_data(data)


def scan(html: str) -> tuple[dict[str, list[Any]], Record]:
    """The link check's extraction and the search record of one page, from one parse."""
    link_reader, search_reader = links.reader(), reader_for(html)
    both = _Both(link_reader, search_reader)
    both.feed(html)
    both.close()
    return links.extraction_of(link_reader), record_of(page_of(search_reader))


def prefill(site: Overlay, digests: dict[str, str], cache: Path) -> int:
    """Parse once each page of ``site`` (``digests``: URL -> SHA-256 of its file, ``cit/`` for ``cit/index.html``)
    whose link extraction or search record is not in the results cache folder ``cache``; store both. Returns
    how many pages were parsed. A page that is not UTF-8 is left to the phases, which say so in one line."""
    store = ResultsCache(cache)
    code = code_key()
    todo: list[tuple[str, str, str]] = []  # (page file, digest, record key)
    for url, digest in digests.items():
        if url.endswith(".html"):
            continue  # the 404 page: not indexed, and its links are few
        rel = f"{url}index.html"
        key = record_key(code, digest)
        if not (links.has_extraction(rel, digest, store) and records.has(store, url, key)):
            todo.append((rel, digest, key))

    def work(part: list[tuple[str, str, str]]) -> int:
        done = 0
        for rel, digest, key in part:
            try:
                html = read_page(site.path(rel), rel).decode("utf-8")
            except UnicodeDecodeError:
                continue
            extraction, record = scan(html)
            links.keep_extraction(rel, digest, extraction, store)
            records.put(store, rel.removesuffix("index.html"), key, record)
            done += 1
        return done

    if len(todo) < SHARE_FROM or not processes.can_share():
        return work(todo)
    mine, theirs = processes.halves(todo, lambda t: site.path(t[0]).stat().st_size)
    beside = processes.Beside(lambda: work(theirs))
    try:
        here = work(mine)
    except BaseException:
        beside.cancel()
        raise
    return here + beside.result()
