"""The build's print phase: each deck's PDF (``<series>/decks/NN-slug.pdf``) written into the temporary output folder,
printed in Chromium (site_builder/printing/pdf.py) from the built deck page, or taken from the PDF store when it was printed
before from the same inputs.

A deck's PDF is kept under a key over what its print reads: the deck page's HTML bytes, the bytes of every file the
page loads (its stylesheets, the print styles among them, its scripts, the chart code its ``chart-scripts`` block
lists, its icon and the files its stylesheets name with ``url()``), the Chromium version and the printing code (this
module and site_builder/printing/pdf.py, by :func:`site_builder.cache.store.key_of`). So a build in which no deck changed prints
nothing, and ``--no-cache`` (which recomputes models and pages) prints only the decks whose key changed: the store is
the ``--cache`` folder in either case (site_builder/cache/folder.py decides whether it may be used). Entries are the results
store's (site_builder/cache/store.py): ``pdf-<deck>.<key>``, whose first line holds the SHA-256 of the PDF, checked on every
read, so an entry changed on disk is printed again, never copied.

The key is checked against the print itself: every file the browser asked the print server for must be one the key
covers, else the build stops (a key that missed an input would keep a stale PDF).
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import posixpath
import re
import time
from collections.abc import Callable
from dataclasses import field
from pathlib import Path
from types import ModuleType

from site_builder import chromium
from site_builder.cache import store as results_cache
from site_builder.cache.overlay import Overlay
from site_builder.datatypes import dataclass
from site_builder.errors import BuildError
from site_builder.paths import Options

ENTRY = "pdf"


@functools.cache
def _patterns() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """What names a file in a page (a tag's src or href), its chart-scripts block, and what a stylesheet names
    (compiled when a deck's page is first read: a build whose decks did not change reads none)."""
    return (
        re.compile(r"<(?:script|link|img|source|video|audio)\b[^>]*?\s(?:src|href)=\"([^\"]+)\"", re.I),
        re.compile(r"<script\b[^>]*\bid=\"chart-scripts\"[^>]*>(.*?)</script>", re.S),
        re.compile(r"""url\(\s*["']?([^"')\s]+)["']?\s*\)|@import\s+["']([^"']+)["']""", re.I),
    )


@dataclass
class Printed:
    """What the phase wrote: every deck's PDF (site paths), and those printed now (the rest came from the store)."""

    written: list[str] = field(default_factory=list)
    printed: list[str] = field(default_factory=list)
    skipped: bool = False  # Options.print_decks was False: no PDF was written, by request

    def note(self) -> str:
        if self.skipped:
            return (
                f"{len(self.written)} deck PDFs not printed, by request (Options.print_decks=False): "
                "links to them are not checked"
            )
        kept = len(self.written) - len(self.printed)
        return f"{len(self.written)} deck PDFs ({len(self.printed)} printed in Chromium, {kept} from the PDF store)"


def store_folder(opts: Options, warn: Callable[[str], None]) -> Path | None:
    """The folder the PDFs are kept in: the ``--cache`` folder, under ``--no-cache`` too (held to the same rules);
    None when it cannot be written (every deck is then printed)."""
    paths = opts.paths()
    if paths.cache is not None:
        return paths.cache
    from site_builder.cache.folder import usable

    with_cache = usable(dataclasses.replace(opts, use_cache=True), warn)
    return with_cache.paths().cache if with_cache.use_cache else None


def _local(folder: str, url: str) -> str | None:
    """The site path a page in ``folder`` names by ``url``, or None when it leaves the site or is not a file path."""
    url = url.strip().split("#", 1)[0].split("?", 1)[0]
    if not url or ":" in url or url.startswith("//"):
        return None
    joined = url[1:] if url.startswith("/") else folder + url
    norm = posixpath.normpath(joined)
    return None if norm.startswith("..") or norm in (".", "") else norm


def reads(site: Path | Overlay, page: str) -> list[str]:
    """The files of ``site`` the deck page ``page`` (a site path ending in ``/``) loads, sorted: what its print reads
    besides the page itself."""
    site = Overlay.of(site)
    return _existing(site, _named(site, page)[0])


def _named(site: Overlay, page: str) -> tuple[list[str], dict[str, str | None]]:
    """Every site path the page names (its own tags, its chart-scripts block, what its stylesheets name in turn),
    whether or not the file is there, and the stylesheets read for it with their digests (None: not there)."""
    folder = page
    html = site.path(f"{page}index.html").read_text("utf-8")
    resource, chart_scripts, css_url = _patterns()
    found = {_local(folder, u) for u in resource.findall(html)}
    for block in chart_scripts.findall(html):
        listed = json.loads(block)
        found |= {_local(folder, u) for group in listed.values() for u in group}
    todo = [p for p in found if p is not None and p.endswith(".css")]
    sheets: dict[str, str | None] = {}
    while todo:  # what the stylesheets name, in turn
        css = todo.pop()
        at = css.rsplit("/", 1)[0] + "/"
        path = site.path(css)
        if not path.is_file():
            sheets[css] = None
            continue
        data = path.read_bytes()
        sheets[css] = hashlib.sha256(data).hexdigest()
        for a, b in css_url.findall(data.decode("utf-8")):
            rel = _local(at, a or b)
            if rel is not None and rel not in found:
                found.add(rel)
                if rel.endswith(".css"):
                    todo.append(rel)
    return sorted(p for p in found if p is not None), sheets


def _existing(site: Overlay, named: list[str]) -> list[str]:
    return [p for p in named if site.is_file(p)]


def _file_digest(site: Overlay, rel: str) -> str | None:
    path = site.path(rel)
    return _digest(path) if path.is_file() else None


def _reads_kept(
    store: results_cache.ResultsCache, site: Overlay, page: str, own: str, seen: dict[str, str]
) -> list[str]:
    """:func:`reads`, kept in the store under the page's digest with the stylesheets it read: a page whose bytes are
    the same names the same files, and is read again only when one of those stylesheets changed (scanning a deck
    page's HTML costs more than the rest of a build's print phase when every PDF is in the store)."""
    name = results_cache.entry_name("pdf-reads", page)
    kept = store.read(name, own)
    if kept is not None:
        try:
            held = json.loads(kept)
        except ValueError:
            held = None
        named = held.get("named") if isinstance(held, dict) else None
        sheets = held.get("sheets") if isinstance(held, dict) else None
        if isinstance(named, list) and all(isinstance(x, str) for x in named) and isinstance(sheets, dict):
            now = {}
            for css in sheets:
                if css not in seen and (d := _file_digest(site, css)) is not None:
                    seen[css] = d
                now[css] = seen.get(css)
            new_sheet = any(x.endswith(".css") and x not in sheets and site.is_file(x) for x in named)
            if now == sheets and not new_sheet:
                return _existing(site, named)
    named, read = _named(site, page)
    for css, d in read.items():
        if d is not None:
            seen.setdefault(css, d)
    store.write(name, own, json.dumps({"named": named, "sheets": read}, sort_keys=True))
    return _existing(site, named)


def _digest(path: Path) -> str:
    with open(path, "rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


def _printer() -> ModuleType:
    """The printing code (site_builder/printing/pdf.py: a browser and a local web server), imported when a deck is
    printed or the browser is asked its version, so a build that takes every PDF from the store does not load it."""
    from site_builder.printing import pdf

    return pdf


def chromium_version(store: results_cache.ResultsCache) -> str:
    """``chromium --version``, kept in the store under the program files' sizes, times and inodes (asking costs
    about 0.2 s); a one-line BuildError when there is no browser."""
    found = chromium.stamps(chromium.CHROMIUM)
    if not found:
        return _printer().version(chromium.CHROMIUM)  # the one line saying there is no browser
    stamps = hashlib.sha256(json.dumps(found).encode()).hexdigest()
    kept = store.read("chromium-version", stamps)
    if kept is not None and kept.startswith("Chromium "):
        return kept
    line = _printer().version(chromium.CHROMIUM)
    store.write("chromium-version", stamps, line)
    return line


def deck_key(
    site: Path | Overlay,
    page: str,
    version: str,
    page_digest: str | None = None,
    seen: dict[str, str] | None = None,
    store: results_cache.ResultsCache | None = None,
) -> tuple[str, list[str]]:
    """A deck's PDF key (see the module's docstring) and the files besides the page that it covers; ``seen`` holds
    the digests of files already read (site path -> SHA-256), which the decks share (the chart library, the CSS);
    with a ``store``, what the page reads is kept there by the page's digest (:func:`_reads_kept`)."""
    site = Overlay.of(site)
    own = page_digest or _digest(site.path(f"{page}index.html"))
    known = {} if seen is None else seen
    files = reads(site, page) if store is None else _reads_kept(store, site, page, own, known)
    for rel in files:
        if rel not in known:
            known[rel] = _digest(site.path(rel))
    extra = [f"{page}index.html {own}", *(f"{rel} {known[rel]}" for rel in files)]
    return results_cache.key_of(("site_builder.printing.store",), [version], extra), files


def run(
    out: Path | Overlay,
    decks: dict[str, str],
    folder: Path | None,
    digests: dict[str, str] | None = None,
    enabled: bool = True,
    log: Callable[[str], None] | None = None,
    known: dict[str, str] | None = None,
) -> Printed:
    """Write each deck's PDF into the site ``out`` is (the build's output being made: written, or carried when the
    previous output holds its bytes; a deck to print has the site linked into one folder first):
    ``decks`` maps a deck page's site path to its PDF's; ``folder`` is the PDF store (None: print every deck);
    ``digests`` the SHA-256 of pages already known (page site path -> digest), ``known`` that of other files of the
    site (the assets, copied from the package: their digests were taken when the inputs were hashed). ``enabled``
    False writes nothing (a test build that is not about PDFs: the link check is then told which PDFs are missing
    by request)."""
    site = Overlay.of(out)
    done = Printed(written=sorted(decks.values()))
    if not enabled:
        done.skipped = True
        return done
    store = results_cache.ResultsCache(folder)
    version = chromium_version(store)
    seen: dict[str, str] = dict(known or {})
    keys = {page: deck_key(site, page, version, (digests or {}).get(page), seen, store) for page in sorted(decks)}
    todo: list[str] = []
    for page, (key, _files) in keys.items():
        body = store.read_bytes(results_cache.entry_name(ENTRY, page), key)
        if body is not None and body.startswith(b"%PDF-"):
            _write(site, decks[page], body)
        else:
            todo.append(page)
    if todo:
        fetched: set[str] = set()
        pdf = _printer()
        _whole(site)  # the browser reads the site from one folder
        with pdf.browser(chromium.CHROMIUM) as b, pdf.serving(site.new, fetched) as base:
            for page in todo:
                t0 = time.perf_counter()
                fetched.clear()
                raw = pdf.print_pages(b, base, [page])[page]
                key, files = keys[page]
                allowed = {f"/{page}", f"/{page}index.html", *(f"/{rel}" for rel in files)}
                stray = sorted(fetched - allowed)
                if stray:
                    raise BuildError(
                        f"pdf: {page}: expected the print to read only files its cache key covers, found "
                        f"{stray[0]} read too (site_builder/printing/store.py reads())"
                    )
                data = pdf.fixed(raw, key, base)
                store.write_bytes(results_cache.entry_name(ENTRY, page), key, data)
                _write(site, decks[page], data)
                done.printed.append(decks[page])
                if log is not None:
                    log(f"printed  {time.perf_counter() - t0:6.2f} s  {decks[page]}")
    return done


def _whole(site: Overlay) -> None:
    try:
        site.materialize()
    except OSError as e:
        reason = (e.strerror or type(e).__name__).lower()
        raise BuildError(f"pdf: expected to link the unchanged files into the site to print, found {reason}") from None


def _write(site: Overlay, rel: str, data: bytes) -> None:
    """The deck's PDF ``rel``: carried when the previous output holds these bytes, else written (Overlay.write)."""
    try:
        site.write(rel, data)
    except OSError as e:
        reason = (e.strerror or type(e).__name__).lower()
        name = rel.rsplit("/", 1)[-1]
        raise BuildError(f"{name}: write: expected room to write the deck's PDF, found {reason}") from None


__all__ = ["Printed", "chromium_version", "deck_key", "reads", "run", "store_folder"]
