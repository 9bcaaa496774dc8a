"""Each page's extraction as the search phase stores it, in the results cache and in the output.

A page's record is its fragment (the JSON file the search box fetches to show the page's results: its title,
words and anchors) and its summary (title, number of words, each term's weighted frequency), which the index
is assembled from. Both depend only on the page's HTML and on this package's code, so a record is cached
under a SHA-256 of those two: a build re-extracts only the pages whose HTML changed.

A cached record is an entry of the build's one cache (site_builder/cache/store.py, which checks its digest line):
the fragment's bytes (JSON, one line), a newline, the summary as JSON (data only, its shape checked too). A
record whose digest or summary does not check out is extracted again and overwritten, never trusted.
"""

from __future__ import annotations

import functools
import hashlib
import json
import unicodedata

from site_builder.cache.store import ResultsCache, entry_name, key_of
from site_builder.datatypes import dataclass
from site_builder.search.extract import Page, extract

FORMAT = "search-record 2"
"""Bump when a record's layout changes (the extractor's code is in the key already)."""


def dumps(value: object) -> bytes:
    """Compact JSON, keys sorted, text as UTF-8: the same value always gives the same bytes."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode("utf-8")


@dataclass(frozen=True)
class Record:
    """A page's search record as cached: its fragment file, title, word count and term counts."""

    fragment: bytes
    name: str
    """The fragment's file name: the start of its SHA-256."""
    title: str
    words: int
    counts: dict[str, int]


def make_record(html: str) -> Record:
    return record_of(extract(html))


def record_of(page: Page) -> Record:
    """A page's record, from what the extraction read of it."""
    fragment = dumps(
        {
            "anchors": [[a.id, a.element, a.location, a.text] for a in page.anchors],
            "title": page.title,
            "words": " ".join(page.words),
        }
    )
    return Record(fragment, fragment_name(fragment), page.title, len(page.words), page.counts)


def fragment_name(fragment: bytes) -> str:
    return hashlib.sha256(fragment).hexdigest()[:20]


CODE = ("site_builder.search.extract", "site_builder.search.terms", "site_builder.search.records")
"""The modules a record depends on: the extraction, its terms and this layout (and what they import)."""
ENTRY = "record"


@functools.cache
def code_key() -> str:
    """The extraction's part of every record key (site_builder/cache/store.py ``key_of``: its code and what that imports,
    the record format, Python's version) with Python's Unicode tables (the terms' lowercase and letter classes)."""
    return key_of(CODE, [FORMAT, f"unicode {unicodedata.unidata_version}"])


def record_key(code: str, digest: str) -> str:
    """A page's record key: the extraction code's key and the SHA-256 of the page's HTML (``digest``)."""
    return key_of((), [code, digest])


def entry(url: str) -> str:
    """A page's record entry in the cache (``url`` from the site root, ``/cit/``, or as the phases name it, ``cit/``)."""
    return entry_name(ENTRY, url.strip("/") or "home")


def encode(record: Record) -> bytes:
    summary = {"counts": record.counts, "name": record.name, "title": record.title, "words": record.words}
    return record.fragment + b"\n" + json.dumps(summary, ensure_ascii=False, separators=(",", ":")).encode()


def decode(body: bytes) -> Record | None:
    """The record an entry holds (its digest line checked by the cache), or None when its layout or summary does
    not check out."""
    fragment, sep, summary_bytes = body.partition(b"\n")
    if not sep:
        return None
    try:
        summary = json.loads(summary_bytes)  # data only
    except ValueError:
        return None
    if not isinstance(summary, dict) or set(summary) != {"counts", "name", "title", "words"}:
        return None
    counts, name, title, words = summary["counts"], summary["name"], summary["title"], summary["words"]
    if not isinstance(title, str) or type(words) is not int or words < 0 or not isinstance(counts, dict):
        return None
    if not isinstance(name, str) or len(name) != 20 or name != fragment_name(fragment):
        return None
    if not all(isinstance(k, str) and type(v) is int and v > 0 for k, v in counts.items()):
        return None
    return Record(fragment, name, title, words, counts)


def get(cache: ResultsCache, url: str, key: str) -> Record | None:
    body = cache.read_bytes(entry(url), key)
    return decode(body) if body is not None else None


def put(cache: ResultsCache, url: str, key: str, record: Record) -> None:
    cache.write_bytes(entry(url), key, encode(record))


def has(cache: ResultsCache, url: str, key: str) -> bool:
    """A record is kept for ``url`` under ``key`` (not checked: :func:`get` checks it). For planning work only."""
    return cache.has(entry(url), key)
