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

import bisect
import dataclasses
import hashlib
import io
import json
import os
import shutil
from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from site_builder import processes
from site_builder.cache.store import ResultsCache
from site_builder.errors import BuildError
from site_builder.search import records as stored
from site_builder.search.records import Record, code_key, dumps, make_record, record_key

FOLDER = "search"
INDEX = "index.json"
FRAGMENTS = "fragments"
FORMAT = 2
"""The index's layout, written into it; ``static/js/search.js`` reads this one."""
PARALLEL_FROM = 4  # pages to extract from which half of them are extracted in a forked process


def page_files(out: Path) -> list[tuple[str, Path]]:
    """Every page of the output as (its URL from the site root, its file), sorted by URL."""
    found = []
    root = os.fspath(out)
    for folder, dirs, names in os.walk(root):
        rel = folder[len(root) + 1 :].replace(os.sep, "/")  # os.walk's folders all start with the root and a sep
        if not rel:
            dirs[:] = [d for d in dirs if d != FOLDER]
        if "index.html" in names:
            found.append(("/" if not rel else f"/{rel}/", folder))
    return [(url, Path(folder, "index.html")) for url, folder in sorted(found)]


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


class Assembly:
    """The index being assembled anew: each page's record added in URL order (its page number is the order), and
    let go once it is in. A term's postings are a machine array (8 bytes a number, where a list of Python ints
    takes 36 or more: at 2,000 pages the postings are millions of numbers)."""

    def __init__(self) -> None:
        self.pages: list[list[Any]] = []
        self.postings: dict[str, array[int]] = {}
        self.fragments: dict[str, bytes] = {}

    def add(self, url: str, rec: Record) -> None:
        i = len(self.pages)
        self.fragments[rec.name] = rec.fragment
        self.pages.append(_page_entry(url, rec))
        postings = self.postings
        for term, count in rec.counts.items():
            p = postings.get(term)
            if p is None:
                postings[term] = array("q", (i, count))
            else:
                p.append(i)
                p.append(count)

    def bytes(self) -> bytes:
        return _index_bytes(self.pages, self.postings)


def _page_entry(url: str, rec: Record) -> list[Any]:
    """A page as the index lists it: URL, title, number of words, fragment file."""
    return [url, rec.title, rec.words, rec.name]


def _index_bytes(pages: list[list[Any]], postings: dict[str, Sequence[int]]) -> bytes:
    """The index: its pages, and its terms (sorted) with their postings in the same order. The bytes of
    ``dumps({"format": FORMAT, "pages": pages, "postings": [postings[t] for t in terms], "terms": terms})``, written
    a posting list at a time (no list of every posting as Python objects, and no second copy of the text)."""
    terms = sorted(postings)
    out = io.BytesIO()
    out.write(b'{"format":%d,"pages":' % FORMAT)
    out.write(dumps(pages))
    out.write(b',"postings":')
    lists = [postings[t] for t in terms]
    if all(type(p) is list for p in lists):  # an index patched from the last one: the JSON encoder writes them
        out.write(dumps(lists))
    else:  # machine arrays (an index assembled anew), a posting list at a time
        out.write(b"[")
        for j, p in enumerate(lists):
            if j:
                out.write(b",")
            out.write(b"[%s]" % ",".join(map(str, p)).encode("ascii"))
        out.write(b"]")
    out.write(b',"terms":')
    out.write(dumps(terms))
    out.write(b"}")
    return out.getvalue()


@dataclass(frozen=True)
class Previous:
    """The index the last build wrote into ``folder`` (an output folder still as that build left it): the record
    code it was made with and the SHA-256 of each page's HTML then (by URL, ``cit/`` for ``/cit/``)."""

    folder: Path
    code: str
    digests: dict[str, str]


def build_index(
    out: Path,
    cache: Path | None,
    digests: dict[str, str] | None = None,
    previous: Previous | None = None,
) -> tuple[int, int]:
    """Write ``out/search/``; returns (its number of files, how many pages' records came from the cache).

    ``digests`` maps a page's URL (``cit/`` for ``/cit/``) to the SHA-256 of its file, when known: a page whose
    record is in the cache is then not read. With ``previous``, an index made by the same code over the same
    pages is updated where pages changed (their old records' terms taken out, the new ones' put in, each
    posting list kept in page order) instead of assembled from every record: the same bytes either way."""
    target = out / FOLDER
    if target.exists():
        raise BuildError(f"search index: {FOLDER}/: expected the folder free for the index, found it written by a page")
    store = ResultsCache(cache)
    code = code_key()
    known = digests or {}
    found = page_files(out)
    urls = [url for url, _ in found]
    keys: list[str] = []
    for url, path in found:
        digest = known.get(url[1:])
        keys.append(
            record_key(code, digest if digest is not None else hashlib.sha256(read_page(out, path)).hexdigest())
        )
    updated = _updated(previous, code, urls, keys, store) if previous is not None else None
    changed = range(len(urls)) if updated is None else updated[0]
    records: dict[int, Record] = {}
    todo: list[tuple[int, str, bytes]] = []
    # Assembled anew, the index takes each page's record as it comes, in URL order (a record extracted late waits,
    # and the pages after it): its fragment is written, its terms go into the postings, and it is let go.
    assembling = Assembly() if updated is None else None
    if assembling is not None:
        _writing(lambda: (target / FRAGMENTS).mkdir(parents=True))

    def keep(i: int, rec: Record) -> None:
        if assembling is None:
            records[i] = rec
            return
        _writing(lambda: (target / FRAGMENTS / f"{rec.name}.json").write_bytes(rec.fragment))
        records[i] = dataclasses.replace(rec, fragment=b"")
        while len(assembling.pages) in records:
            n = len(assembling.pages)
            assembling.add(urls[n], records.pop(n))

    try:
        for i in changed:
            rec = stored.get(store, urls[i], keys[i])
            if rec is not None:
                keep(i, rec)
            else:
                path = found[i][1]
                todo.append((i, path.relative_to(out).as_posix(), read_page(out, path)))
        for (i, _, _), rec in zip(todo, extract_all([(rel, html) for _, rel, html in todo]), strict=True):
            stored.put(store, urls[i], keys[i], rec)
            keep(i, rec)
    except BaseException:
        if updated is None:  # a failed phase leaves no index behind
            shutil.rmtree(target, ignore_errors=True)
        raise
    links: list[str] = []
    if updated is not None:
        try:
            index, fragments, links = _patch(updated[1], updated[2], records, urls)
        except (ValueError, KeyError, TypeError, IndexError):  # the old index is not what its records make
            return build_index(out, cache, digests)
    else:
        assert assembling is not None and not records  # every page added, its fragment written already
        index, fragments = assembling.bytes(), assembling.fragments

    def write() -> None:
        if updated is not None:
            (target / FRAGMENTS).mkdir(parents=True)
            for name, data in fragments.items():
                (target / FRAGMENTS / f"{name}.json").write_bytes(data)
        (target / INDEX).write_bytes(index)
        for name in links:
            assert previous is not None
            os.link(previous.folder / FOLDER / FRAGMENTS / f"{name}.json", target / FRAGMENTS / f"{name}.json")

    _writing(write)
    return 1 + len(fragments) + len(links), len(urls) - len(todo)


def _writing(write: Callable[[], object]) -> None:
    try:
        write()
    except OSError as e:
        raise BuildError(f"search index: {FOLDER}/: expected to write the index, found {e.strerror or e}") from None


def _updated(
    previous: Previous, code: str, urls: list[str], keys: list[str], store: ResultsCache
) -> tuple[list[int], dict[str, Any], dict[int, Record]] | None:
    """The pages that changed since ``previous``, its index and their old records; None when the index has to be
    assembled anew (another code, other pages, an index or old record that cannot be read, or most pages changed)."""
    if previous.code != code:
        return None
    old_keys = [record_key(code, d) if (d := previous.digests.get(url[1:])) is not None else "" for url in urls]
    changed = [i for i, (a, b) in enumerate(zip(old_keys, keys, strict=True)) if a != b]
    if len(changed) * 2 > len(urls) or "" in (old_keys[i] for i in changed):
        return None
    try:
        old = json.loads((previous.folder / FOLDER / INDEX).read_bytes())
        if not (isinstance(old, dict) and old.get("format") == FORMAT and [p[0] for p in old["pages"]] == urls):
            return None
        if len(old["terms"]) != len(old["postings"]):
            return None
    except (OSError, ValueError, KeyError, TypeError, IndexError):
        return None
    olds: dict[int, Record] = {}
    for i in changed:
        rec = stored.get(store, urls[i], old_keys[i])
        if rec is None:
            return None
        olds[i] = rec
    return changed, old, olds


def _patch(
    old: dict[str, Any], olds: dict[int, Record], news: dict[int, Record], urls: list[str]
) -> tuple[bytes, dict[str, bytes], list[str]]:
    """The index ``old`` with the records ``olds`` of its pages replaced by ``news``; the fragments to write
    (the new records') and those to link from the previous index (every other page's)."""
    postings: dict[str, list[int]] = dict(zip(old["terms"], old["postings"], strict=True))
    for i, rec in olds.items():
        for term in rec.counts:
            p = postings[term]
            at = p[0::2].index(i)
            del p[2 * at : 2 * at + 2]
            if not p:
                del postings[term]
    for i, rec in news.items():
        for term, count in rec.counts.items():
            p = postings.get(term)
            if p is None:
                postings[term] = [i, count]
            else:
                at = bisect.bisect_left(p[0::2], i)
                p[2 * at : 2 * at] = [i, count]
    pages = [list(page) for page in old["pages"]]
    for i, rec in news.items():
        pages[i] = _page_entry(urls[i], rec)
    index = _index_bytes(pages, postings)
    fragments = {rec.name: rec.fragment for rec in news.values()}
    links = sorted({page[3] for i, page in enumerate(pages) if i not in news} - fragments.keys())
    return index, fragments, links
