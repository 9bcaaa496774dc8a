"""The search phase: the site's own full-text index of the built pages, in the output's ``search/`` folder.

Every page (``**/index.html``; not the 404 page) is read by :mod:`.extract` into its words, anchors and
terms (:mod:`.terms`: the normalisation the search box repeats in ``static/js/search_index.js``). Each page's
record is cached under a SHA-256 of its HTML and of the extraction code (:mod:`.records`), so a build
re-reads only the pages whose HTML changed; the index is then assembled from the records:

- ``search/index.json``: the pages (URL, title, number of words, fragment file) sorted by URL, every term
  (sorted) and, in the same order, its postings (page number, weighted term frequency, for each page holding
  it): all the search box needs to rank pages (BM25) as the reader types. Two parallel lists rather than an
  object of terms: JSON writes them faster, and a term never becomes an object key (``"3"`` would be reordered);
- ``search/fragments/<sha256>.json``: one per page, named by the SHA-256 of its bytes (a browser may cache
  it for good): the page's title, words and anchors, fetched only for the pages a search shows.

The phase writes into the temporary output folder before it is swapped in: a failure is one line and leaves
the previous site untouched. The same pages give the same bytes, from the cache or not.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from site_builder import processes
from site_builder.errors import BuildError
from site_builder.search.records import Record, Store, code_key, dumps, make_record, record_key

FOLDER = "search"
INDEX = "index.json"
FRAGMENTS = "fragments"
FORMAT = 2
"""The index's layout, written into it; ``static/js/search.js`` reads this one."""
PARALLEL_FROM = 4  # pages to extract from which half of them are extracted in a forked process


def page_files(out: Path) -> list[tuple[str, Path]]:
    """Every page of the output as (its URL from the site root, its file), sorted by URL."""
    found = []
    for folder, dirs, names in os.walk(out):
        rel = Path(folder).relative_to(out).as_posix()
        if rel == ".":
            dirs[:] = [d for d in dirs if d != FOLDER]
        if "index.html" in names:
            url = "/" if rel == "." else f"/{rel}/"
            found.append((url, Path(folder) / "index.html"))
    return sorted(found)


def read_page(out: Path, path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as e:
        rel = path.relative_to(out).as_posix()
        raise BuildError(f"search index: {rel}: expected a readable page, found {e.strerror or e}") from None


def extract_page(rel: str, html: bytes) -> Record:
    try:
        text = html.decode("utf-8")
    except UnicodeDecodeError as e:
        raise BuildError(
            f"search index: {rel}: expected UTF-8 HTML, found byte 0x{html[e.start]:02x} at offset {e.start}"
        ) from None
    return make_record(text)


def extract_all(todo: list[tuple[str, bytes]]) -> list[Record]:
    """The records of pages (relative path, HTML), in order; from PARALLEL_FROM pages on, about half of their
    bytes (the largest pages dealt in turn to the lighter side) are read in a forked process."""
    if len(todo) < PARALLEL_FROM or not processes.can_share():
        return [extract_page(rel, html) for rel, html in todo]
    mine, theirs = processes.halves(range(len(todo)), lambda i: len(todo[i][1]))
    beside = processes.Beside(lambda: [extract_page(*todo[i]) for i in theirs])
    try:
        here = [extract_page(*todo[i]) for i in mine]
    except BaseException:
        beside.cancel()
        raise
    out: dict[int, Record] = dict(zip(mine, here, strict=True))
    out.update(zip(theirs, beside.result(), strict=True))
    return [out[i] for i in range(len(todo))]


def assemble(urls: list[str], records: list[Record]) -> tuple[bytes, dict[str, bytes]]:
    """The index's bytes and the fragment files (name: bytes) of the pages, in URL order."""
    pages = []
    fragments: dict[str, bytes] = {}
    postings: dict[str, list[int]] = {}
    for i, (url, rec) in enumerate(zip(urls, records, strict=True)):
        fragments[rec.name] = rec.fragment
        pages.append([url, rec.title, rec.words, rec.name])
        for term, count in rec.counts.items():
            p = postings.get(term)
            if p is None:
                postings[term] = [i, count]
            else:
                p += (i, count)
    terms = sorted(postings)
    return dumps(
        {"format": FORMAT, "pages": pages, "postings": [postings[t] for t in terms], "terms": terms}
    ), fragments


def build_index(out: Path, cache: Path | None, digests: dict[str, str] | None = None) -> tuple[int, int]:
    """Write ``out/search/``; returns (its number of files, how many pages' records came from the cache).
    ``digests`` maps a page's URL (``cit/`` for ``/cit/``) to the SHA-256 of its file, when known: a page whose
    record is in the cache is then not read."""
    target = out / FOLDER
    if target.exists():
        raise BuildError(f"search index: {FOLDER}/: expected the folder free for the index, found it written by a page")
    store = Store(cache / FOLDER / "pages" if cache is not None else None)
    code = code_key()
    urls: list[str] = []
    records: list[Record | None] = []
    keys: list[str] = []
    todo: list[tuple[int, str, bytes]] = []
    known = digests or {}
    for url, path in page_files(out):
        digest = known.get(url[1:])
        html: bytes | None = None
        if digest is None:
            html = read_page(out, path)
            digest = hashlib.sha256(html).hexdigest()
        key = record_key(code, digest)
        rec = store.get(key)
        urls.append(url)
        keys.append(key)
        records.append(rec)
        if rec is None:
            html = html if html is not None else read_page(out, path)
            todo.append((len(records) - 1, path.relative_to(out).as_posix(), html))
    for (i, _, _), rec in zip(todo, extract_all([(rel, html) for _, rel, html in todo]), strict=True):
        records[i] = rec
        store.put(keys[i], rec)
    done = [r for r in records if r is not None]
    index, fragments = assemble(urls, done)
    try:
        (target / FRAGMENTS).mkdir(parents=True)
        (target / INDEX).write_bytes(index)
        for name, data in fragments.items():
            (target / FRAGMENTS / f"{name}.json").write_bytes(data)
    except OSError as e:
        raise BuildError(f"search index: {FOLDER}/: expected to write the index, found {e.strerror or e}") from None
    store.prune(len(urls))
    return 1 + len(fragments), len(urls) - len(todo)
