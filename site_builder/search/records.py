"""Each page's extraction as the search phase stores it, in the results cache and in the output.

A page's record is its fragment (the JSON file the search box fetches to show the page's results: its title,
words and anchors) and its summary (title, number of words, each term's weighted frequency), which the index
is assembled from. Both depend only on the page's HTML and on this package's code, so a record is cached
under a SHA-256 of those two: a build re-extracts only the pages whose HTML changed.

A cached record is one file: the SHA-256 of the rest, a newline, the fragment's bytes (JSON, one line), a
newline, the summary as JSON (data only: read once its digest checked out, its shape checked too). A record
whose digest or summary does not check out is extracted again and overwritten, never trusted.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import shutil
import sys
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from site_builder.search.extract import Page, extract

HERE = Path(__file__).resolve().parent

FORMAT = "search-record 2"
"""Bump when a record's layout changes (the extractor's code is in the key already)."""
KEEP = 3  # records kept in the cache: this many times the number of pages indexed


def dumps(value: object) -> bytes:
    """Compact JSON, keys sorted, text as UTF-8: the same value always gives the same bytes."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode("utf-8")


@dataclass(frozen=True)
class Record:
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


CODE = ("extract.py", "terms.py", "records.py")
"""The modules a record depends on: the extraction, its terms and this layout (the extraction imports no other
module of the project: a test checks it)."""


@functools.cache
def code_key() -> str:
    """A SHA-256 over the extraction's code, the record format, Python's version and its Unicode tables (the
    terms' lowercase and letter classes)."""
    h = hashlib.sha256(f"{FORMAT}\n{sys.version_info[:2]}\n{unicodedata.unidata_version}\n".encode())
    for name in CODE:
        h.update(name.encode() + b"\n" + (HERE / name).read_bytes())
    return h.hexdigest()


def record_key(code: str, digest: str) -> str:
    """A page's record key: the extraction code's key and the SHA-256 of the page's HTML (``digest``)."""
    return hashlib.sha256(f"{code}\n{digest}".encode()).hexdigest()


def encode(record: Record) -> bytes:
    summary = {"counts": record.counts, "name": record.name, "title": record.title, "words": record.words}
    body = record.fragment + b"\n" + json.dumps(summary, ensure_ascii=False, separators=(",", ":")).encode()
    return hashlib.sha256(body).hexdigest().encode() + b"\n" + body


def decode(data: bytes) -> Record | None:
    """The record a cache file holds, or None when its digest, layout or summary does not check out."""
    head, sep, body = data.partition(b"\n")
    if not sep or hashlib.sha256(body).hexdigest().encode() != head:
        return None
    fragment, sep, summary_bytes = body.partition(b"\n")
    if not sep:
        return None
    try:
        summary = json.loads(summary_bytes)  # data only; its digest line was checked
    except ValueError:
        return None
    if not isinstance(summary, dict) or set(summary) != {"counts", "name", "title", "words"}:
        return None
    counts, name, title, words = summary["counts"], summary["name"], summary["title"], summary["words"]
    if not isinstance(title, str) or type(words) is not int or words < 0 or not isinstance(counts, dict):
        return None
    if not isinstance(name, str) or len(name) != 20:
        return None
    if not all(isinstance(k, str) and type(v) is int and v > 0 for k, v in counts.items()):
        return None
    return Record(fragment, name, title, words, counts)  # its counts as written: the digest vouches for them


HEX = frozenset("0123456789abcdef")


class Store:
    """Records in ``folder`` (None: no cache), each file named by its key."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder
        self.used: set[str] = set()
        self.written = False

    def get(self, key: str) -> Record | None:
        if self.folder is None:
            return None
        try:
            data = (self.folder / key).read_bytes()
        except OSError:
            return None
        record = decode(data)
        if record is not None:
            self.used.add(key)
        return record

    def has(self, key: str) -> bool:
        """A record is kept under ``key`` (not checked: :meth:`get` checks it). For planning work only."""
        return self.folder is not None and (self.folder / key).is_file()

    def put(self, key: str, record: Record) -> None:
        """Keep a record (best effort: a cache that cannot be written only costs time next build)."""
        if self.folder is None:
            return
        self.used.add(key)
        tmp = self.folder / f".{key}.{os.getpid()}.tmp"
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            tmp.write_bytes(encode(record))
            tmp.replace(self.folder / key)
            self.written = True
        except OSError:
            tmp.unlink(missing_ok=True)

    def prune(self, pages: int) -> None:
        """After a build that wrote records: drop the oldest ones not used, beyond KEEP times the pages indexed,
        and what earlier versions of the search phase left beside the records."""
        if self.folder is None or not self.written:
            return
        try:
            for old in self.folder.parent.iterdir():
                if old != self.folder and old.is_dir():
                    shutil.rmtree(old, ignore_errors=True)  # a Pagefind index an earlier build cached
            entries = [  # only records this store wrote (named by their 64-digit key)
                e
                for e in self.folder.iterdir()
                if e.name not in self.used and len(e.name) == 64 and all(c in HEX for c in e.name) and e.is_file()
            ]
            spare = max(0, KEEP * pages - len(self.used))
            entries.sort(key=lambda e: e.stat().st_mtime, reverse=True)
            for old in entries[spare:]:
                old.unlink(missing_ok=True)
        except OSError:
            pass
