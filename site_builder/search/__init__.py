"""The search phase: the site's own full-text index of the built pages, in the output's ``search/`` folder.

Every page (``**/index.html``; not the 404 page) is read by :mod:`.extract` into its words, anchors and
terms (:mod:`.terms`: the normalisation the search box repeats in ``static/js/search_index.js``). Each page's
record is cached under a SHA-256 of its HTML and of the extraction code (:mod:`.records`), so a build
re-reads only the pages whose HTML changed; the index is then assembled from the records:

- ``search/index.json``: the pages (URL, title, number of words, fragment file) sorted by URL, and the term
  files by the beginning of their terms (with the number of postings each holds): what the search box loads first;
- ``search/terms/<sha256>.json``: the terms that begin with one character (sorted) and, in the same order, their
  postings (page number, weighted term frequency, for each page holding it). A character whose terms hold more
  than SPLIT_FROM postings in all (the common letters of a large site) has a file for each of its terms' first two
  characters instead (and one for the one-character term itself): a new word on one page then rewrites a tenth
  of the bytes, and a search fetches less. Which characters are split follows from the postings alone, so an
  index updated by an edit is the index a cold build makes. The search box fetches only the files of the
  beginnings its query's words have, and what it needs to rank pages (BM25) is in them. Two
  parallel lists rather than an object of terms: JSON writes them faster, and a term never becomes an object key
  (``"3"`` would be reordered). An edit that changes a few words of a page rewrites only the files of the terms
  whose counts changed (the others are linked from the previous index), and a browser keeps every file whose
  name did not change;
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
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from site_builder import processes
from site_builder.cache.overlay import Overlay
from site_builder.cache.store import ResultsCache
from site_builder.datatypes import dataclass
from site_builder.errors import BuildError
from site_builder.search import records as stored
from site_builder.search.records import Record, code_key, dumps, make_record, record_key

FOLDER = "search"
INDEX = "index.json"
FRAGMENTS = "fragments"
TERMS = "terms"
FORMAT = 4
"""The index's layout, written into it; ``static/js/search.js`` reads this one."""
SPLIT_FROM = 20_000
"""The postings a character's terms may hold in one term file; beyond it the file is split by two characters."""
PARALLEL_FROM = 4  # pages to extract from which half of them are extracted in a forked process


def page_files(site: Overlay) -> list[tuple[str, str]]:
    """Every page of the site (``**/index.html`` outside ``search/``) as (its URL from the site root, its path in
    the site: ``site.path`` finds the file, looked for only when the page is read), sorted by URL."""
    files, _ = site.listing()
    return sorted(
        (f"/{rel.removesuffix('index.html')}", rel)
        for rel in files
        if (rel == "index.html" or rel.endswith("/index.html")) and not rel.startswith(f"{FOLDER}/")
    )


def read_page(path: Path, rel: str) -> bytes:
    """The bytes of the page ``rel`` of the site, at ``path``."""
    try:
        return path.read_bytes()
    except OSError as e:
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

    def files(self) -> Files:
        totals: dict[str, int] = {}
        for term, p in self.postings.items():
            totals[term[0]] = totals.get(term[0], 0) + len(p) // 2
        split = {c for c, n in totals.items() if n > SPLIT_FROM}
        shards: dict[str, dict[str, Sequence[int]]] = {}
        for term, p in self.postings.items():
            shards.setdefault(shard_of(term, split), {})[term] = p
        data = {k: _shard_bytes(postings) for k, postings in shards.items()}
        names = {k: (stored.fragment_name(d), _count(shards[k])) for k, d in data.items()}
        return Files(_index_bytes(self.pages, names), {names[k][0]: d for k, d in data.items()})


@dataclass(frozen=True)
class Files:
    """What the index writes: index.json's bytes, and each term file's bytes by its name."""

    index: bytes
    terms: dict[str, bytes]


def shard_of(term: str, split: set[str] | frozenset[str]) -> str:
    """The term file a term is in: its first character (a code point), or its first two when the first is one of
    ``split`` (``static/js/search_index.js`` fileOf, which finds the same file from the index's list)."""
    return term[:2] if term[0] in split else term[0]


def _count(postings: Mapping[str, Sequence[int]]) -> int:
    """The number of postings (page, weight) in a term file."""
    return sum(len(p) for p in postings.values()) // 2


def _page_entry(url: str, rec: Record) -> list[Any]:
    """A page as the index lists it: URL, title, number of words, fragment file."""
    return [url, rec.title, rec.words, rec.name]


def _index_bytes(pages: list[list[Any]], names: dict[str, tuple[str, int]]) -> bytes:
    """index.json: the pages, and for each beginning of terms (one or two characters) the name of its term file
    (its bytes' SHA-256, as a fragment's) and the number of postings in it."""
    terms = sorted([k, name, n] for k, (name, n) in names.items())
    return dumps({"format": FORMAT, "pages": pages, "terms": terms})


def _shard_bytes(postings: Mapping[str, Sequence[int]]) -> bytes:
    """A term file: its terms (sorted) and their postings in the same order. The bytes of
    ``dumps({"postings": [postings[t] for t in terms], "terms": terms})``, written a posting list at a time (no list
    of every posting as Python objects, and no second copy of the text)."""
    terms = sorted(postings)
    out = io.BytesIO()
    out.write(b'{"postings":')
    lists = [postings[t] for t in terms]
    if all(type(p) is list for p in lists):  # a file patched from the last one: the JSON encoder writes them
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
    out: Path | Overlay,
    cache: Path | None,
    digests: dict[str, str] | None = None,
    previous: Previous | None = None,
) -> tuple[int, int]:
    """Write ``out/search/``; returns (its number of files, how many pages' records came from the cache).

    ``digests`` maps a page's URL (``cit/`` for ``/cit/``) to the SHA-256 of its file, when known: a page whose
    record is in the cache is then not read. With ``previous``, an index made by the same code over the same
    pages is updated where pages changed (their old records' terms taken out, the new ones' put in, each
    posting list kept in page order) instead of assembled from every record: the same bytes either way."""
    site = Overlay.of(out)
    target = site.new / FOLDER
    if target.exists():
        raise BuildError(f"search index: {FOLDER}/: expected the folder free for the index, found it written by a page")
    store = ResultsCache(cache)
    code = code_key()
    known = digests or {}
    found = page_files(site)
    urls = [url for url, _ in found]
    keys = [_record_key(code, url, site, rel, known) for url, rel in found]
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
                rel = found[i][1]
                todo.append((i, rel, read_page(site.path(rel), rel)))
        for (i, _, _), rec in zip(todo, extract_all([(rel, html) for _, rel, html in todo]), strict=True):
            stored.put(store, urls[i], keys[i], rec)
            keep(i, rec)
    except BaseException:
        if updated is None:  # a failed phase leaves no index behind
            shutil.rmtree(target, ignore_errors=True)
        raise
    links: list[tuple[str, str]] = []
    if updated is not None:
        assert previous is not None
        try:
            files, fragments, links = _patch(previous.folder, updated[1], updated[2], records, urls)
        except (OSError, ValueError, KeyError, TypeError, IndexError):  # the old index is not what its records make
            return build_index(site, cache, digests)
    else:
        assert assembling is not None and not records  # every page added, its fragment written already
        files, fragments = assembling.files(), assembling.fragments
    _writing(lambda: _write_index(site, files, fragments if updated is not None else None, links, previous))
    return 1 + len(files.terms) + len(fragments) + len(links), len(urls) - len(todo)


def _record_key(code: str, url: str, site: Overlay, rel: str, known: dict[str, str]) -> str:
    """The key of the page ``url``'s record: this code's and the page's digest (read from its file when not known)."""
    digest = known.get(url[1:])
    if digest is None:
        digest = hashlib.sha256(read_page(site.path(rel), rel)).hexdigest()
    return record_key(code, digest)


def _write_index(
    site: Overlay,
    files: Files,
    fragments: dict[str, bytes] | None,
    links: list[tuple[str, str]],
    previous: Previous | None,
) -> None:
    """The index's files into the site's ``search/``: the term files and the index, and when the index was updated
    rather than assembled (which writes each page's fragment as it comes) the fragments, and the files kept from the
    ``previous`` index (carried from it when it is the output the site is carried from, else linked)."""
    target = site.new / FOLDER
    if fragments is not None:
        (target / FRAGMENTS).mkdir(parents=True)
        for name, data in fragments.items():
            (target / FRAGMENTS / f"{name}.json").write_bytes(data)
    (target / TERMS).mkdir()
    for name, data in files.terms.items():
        (target / TERMS / f"{name}.json").write_bytes(data)
    (target / INDEX).write_bytes(files.index)
    if not links:
        return
    assert previous is not None
    rels = [f"{FOLDER}/{folder}/{name}.json" for folder, name in links]
    if site.old != previous.folder or not site.carry(rels):
        for rel in rels:
            os.link(previous.folder / rel, site.new / rel)


def _writing(write: Callable[[], object]) -> None:
    try:
        write()
    except OSError as e:
        raise BuildError(f"search index: {FOLDER}/: expected to write the index, found {e.strerror or e}") from None


def _updated(
    previous: Previous, code: str, urls: list[str], keys: list[str], store: ResultsCache
) -> tuple[list[int], dict[str, Any], dict[int, Record]] | None:
    """The pages that changed since ``previous``, its index.json and their old records; None when the index has to
    be assembled anew (another code, other pages, an index or old record that cannot be read, or most pages
    changed)."""
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
    folder: Path, old: dict[str, Any], olds: dict[int, Record], news: dict[int, Record], urls: list[str]
) -> tuple[Files, dict[str, bytes], list[tuple[str, str]]]:
    """The index ``old`` (index.json of the output ``folder``) with the records ``olds`` of its pages replaced by
    ``news``: the files to write (index.json, the term files of the terms whose counts changed, the new records'
    fragments) and those to link from the previous index (as (folder, name): every other term file and
    fragment). A character whose postings cross SPLIT_FROM has all its term files made again, split or joined."""
    names: dict[str, tuple[str, int]] = {}  # beginning of terms -> its term file, the postings in it
    totals: dict[str, int] = {}  # character -> the postings of its terms
    for key, name, n in old["terms"]:
        if not (type(key) is str and 1 <= len(key) <= 2 and type(name) is str and name.isalnum() and type(n) is int):
            raise ValueError("a term file of index.json is not a beginning of terms, a file name and a count")
        names[key] = (name, n)
        totals[key[0]] = totals.get(key[0], 0) + n
    changes: list[tuple[str, int, int, int]] = []  # (term, page, its old count or 0, its new count or 0)
    for i, new in news.items():
        before, after = olds[i].counts, new.counts
        changes += [(t, i, before.get(t, 0), after.get(t, 0)) for t in before.keys() | after.keys()]
    by_char: dict[str, list[tuple[str, int, int, int]]] = {}
    for x in sorted(x for x in changes if x[2] != x[3]):
        by_char.setdefault(x[0][0], []).append(x)
    written: dict[str, bytes] = {}
    for c, cs in by_char.items():
        was = {c} if totals.get(c, 0) > SPLIT_FROM else set()
        now = {c} if totals.get(c, 0) + sum((b > 0) - (a > 0) for _, _, a, b in cs) > SPLIT_FROM else set()
        # the term files that change, read as term -> postings: every one of the character's when it is split or
        # joined, else those of the changed terms
        keys = {shard_of(t, was) for t, _, _, _ in cs} if was == now else {k for k in names if k[0] == c}
        postings: dict[str, list[int]] = {}
        for key in sorted(keys & names.keys()):
            name, n = names.pop(key)
            data = json.loads((folder / FOLDER / TERMS / f"{name}.json").read_bytes())
            part = dict(zip(data["terms"], data["postings"], strict=True))
            if _count(part) != n:
                raise ValueError(f"term file {name} does not hold the postings index.json counts")
            postings.update(part)
        for term, i, a, b in cs:
            p = postings.get(term)
            if a:
                if p is None:
                    raise KeyError(term)
                at = p[0::2].index(i)
                del p[2 * at : 2 * at + 2]
            if b:
                if p is None:
                    p = postings[term] = []
                at = bisect.bisect_left(p[0::2], i)
                p[2 * at : 2 * at] = [i, b]
            if p is not None and not p:
                del postings[term]
        shards: dict[str, dict[str, list[int]]] = {}
        for term, p in postings.items():
            shards.setdefault(shard_of(term, now), {})[term] = p
        for key, part in shards.items():
            written[key] = _shard_bytes(part)
            names[key] = (stored.fragment_name(written[key]), _count(part))
    pages = [list(page) for page in old["pages"]]
    for i, rec in news.items():
        pages[i] = _page_entry(urls[i], rec)
    files = Files(_index_bytes(pages, names), {names[key][0]: data for key, data in written.items()})
    fragments = {rec.name: rec.fragment for rec in news.values()}
    links = [(TERMS, name) for name in sorted({name for name, _ in names.values()} - files.terms.keys())]
    unchanged = {page[3] for i, page in enumerate(pages) if i not in news} - fragments.keys()
    links += [(FRAGMENTS, name) for name in sorted(unchanged)]
    return files, fragments, links
