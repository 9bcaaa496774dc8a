"""The link and asset check, on the parsed HTML of every written page.

Every page is read with :mod:`html.parser`: every URL attribute (``href``, ``src``, ``srcset``,
``poster``, ``action``, ``data``…, quoted or not, entities decoded), ``url(…)`` in ``style``
attributes and ``<style>`` elements, and every ``id`` (and ``name`` of an ``<a>``). Then:

* a resource (anything but the ``href`` of ``<a>``/``<area>``) must be a file of the site: no request
  may leave it;
* a link may leave the site only by http, https or mailto; an internal link must name a page or file of
  the site, and its ``#fragment`` an element of the target page;
* no inline script (JSON data blocks are data), no inline event handler, no ``<base>``, ``<object>`` or
  ``<embed>``: the pages must work under their Content-Security-Policy;
* CSS files under the output may ``url()`` only files of the site.

What a page holds (its URLs, ids and problems) depends on its text alone, so it is kept in the results
cache under a SHA-256 of the text and of this module: a page that did not change is not parsed again. A
digest of its ids is kept beside it, and each page's verdict under a digest of the site (every file, every
page's ids) and of the page: a build where most pages did not change reads those small entries and only the
extractions of pages whose verdict is not kept (and of the pages they link into, for their ids).
Resolving a link is memoized per (folder, path).
"""

from __future__ import annotations

import functools
import hashlib
import json
import posixpath
import re
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from site_builder.cache.overlay import Overlay
from site_builder.cache.store import ResultsCache, key_of
from site_builder.errors import BuildError

NAVIGATION = {("a", "href"), ("area", "href"), ("blockquote", "cite"), ("q", "cite"), ("del", "cite"), ("ins", "cite")}
"""(tag, attribute) pairs that link rather than load: they alone may point outside the site."""
URL_ATTRS = frozenset(
    {
        "href",
        "src",
        "poster",
        "action",
        "formaction",
        "data",
        "cite",
        "background",
        "longdesc",
        "manifest",
        "icon",
        "codebase",
        "usemap",
        "xlink:href",
        "data-speaker",  # a deck's speaker view (deck.js opens it)
    }
)
LIST_ATTRS = frozenset({"srcset", "imagesrcset"})  # comma-separated "url descriptor" candidates
SPACE_ATTRS = frozenset({"ping", "archive", "data-present-scripts"})  # space-separated URLs (a deck's reveal.js files)
SAFE_SCHEMES = frozenset({"http", "https", "mailto"})
DATA_TYPES = frozenset({"application/json", "application/ld+json"})  # <script> blocks that are data, not code
DATA_ESCAPE = re.compile(r"<!--|<script", re.I)
FORBIDDEN_TAGS = {
    "base": "a <base> element (it would change where every relative link points)",
    "object": "an <object> element (object-src is 'none')",
    "embed": "an <embed> element (object-src is 'none')",
    "applet": "an <applet> element",
}
CSS_URL = re.compile(r"""url\(\s*(?:"([^"]*)"|'([^']*)'|([^)\s]*))\s*\)|@import\s+(?:"([^"]*)"|'([^']*)')""", re.I)
REFRESH_URL = re.compile(r"url\s*=\s*['\"]?([^'\";]*)", re.I)
FORMAT = "links 2"


def _css_urls(text: str) -> list[str]:
    return [next(g for g in m.groups() if g is not None) for m in CSS_URL.finditer(text)]


class _Extract(HTMLParser):
    """Every URL, id and CSP problem of one HTML page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.refs: list[list[str]] = []  # [tag, attribute, url]
        self.ids: list[str] = []
        self.problems: list[str] = []
        self._style = 0
        self._inline_script = False
        self._data_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        refs = self.refs
        script_src = None
        script_type = None
        for name, value in attrs:
            if value is None:
                value = ""
            if name in URL_ATTRS:
                refs.append([tag, name, value])
            elif name == "id":
                self.ids.append(value)
            elif name.startswith("on"):
                self.problems.append(f"<{tag}>: expected no inline event handler (the CSP forbids it), found {name}=…")
            elif name in LIST_ATTRS:
                refs.extend([tag, name, c.split()[0]] for c in value.split(",") if c.strip())
            elif name in SPACE_ATTRS:
                refs.extend([tag, name, u] for u in value.split())
            elif name == "style":
                refs.extend([tag, "style", u] for u in _css_urls(value))
            elif name == "srcdoc":
                self.problems.append(f"<{tag}>: expected no inline document, found srcdoc=…")
            if name == "name" and tag == "a":
                self.ids.append(value)
            if tag == "script":
                if name == "src":
                    script_src = value
                elif name == "type":
                    script_type = value.strip().lower()
            elif (
                tag == "meta"
                and name == "content"
                and ("http-equiv", "refresh") in ((k, (v or "").lower()) for k, v in attrs)
            ):
                m = REFRESH_URL.search(value)
                if m:
                    refs.append([tag, "http-equiv=refresh", m.group(1).strip()])
        if tag == "script" and script_src is None and script_type in DATA_TYPES:
            self._data_script = True
        if tag == "script" and script_src is None and script_type not in DATA_TYPES:
            self.problems.append(
                "<script>: expected a script from a file (the CSP forbids inline ones; JSON data is fine), found inline code"
            )
        elif tag == "style":
            self._style += 1
        elif tag in FORBIDDEN_TAGS:
            self.problems.append(f"<{tag}>: expected none, found {FORBIDDEN_TAGS[tag]}")

    def handle_endtag(self, tag: str) -> None:
        if tag == "style" and self._style:
            self._style -= 1
        elif tag == "script":
            self._data_script = False

    def handle_data(self, data: str) -> None:
        if self._data_script and DATA_ESCAPE.search(data):
            # in a browser's parser "<!--" then "<script" inside a script element makes a later "</script>" part of
            # the data, so the element runs on and swallows the page after it
            self.problems.append(
                "<script type=application/json>: expected data with no '<!--' or '<script' in it (it would run past "
                f"its end in a browser), found {DATA_ESCAPE.search(data).group(0)!r}"  # type: ignore[union-attr]
            )
        if self._style:
            self.refs.extend(["style", "url()", u] for u in _css_urls(data))


def extract(text: str) -> dict[str, list]:
    """The URLs (``[tag, attribute, url]``), ids and problems of one HTML page."""
    p = _Extract()
    p.feed(text)
    return extraction_of(p)


def reader() -> _Extract:
    """A reader of one page: fed it (or the events of a parser fed it, site_builder/phases/scan.py), then given to
    :func:`extraction_of`."""
    return _Extract()


def extraction_of(p: _Extract) -> dict[str, list]:
    """What ``p`` read, once the whole page went through it."""
    p.close()
    return {"refs": p.refs, "ids": p.ids, "problems": p.problems}


def has_extraction(rel: str, digest: str, cache: ResultsCache) -> bool:
    """The extraction of the page ``rel`` whose SHA-256 is ``digest`` is in ``cache`` (for planning work only)."""
    return cache.has(_cache_name("links", rel), _extraction_key(digest))


def keep_extraction(rel: str, digest: str, data: dict[str, list], cache: ResultsCache) -> None:
    """Store the extraction of the page ``rel`` whose SHA-256 is ``digest`` (made elsewhere: page_scan.py)."""
    _keep(rel, _extraction_key(digest), data, cache)


def _keep(rel: str, key: str, data: dict[str, list], cache: ResultsCache) -> None:
    cache.write(_cache_name("links", rel), key, json.dumps(data, ensure_ascii=False, separators=(",", ":")))


@functools.cache
def _code() -> str:
    """The link check's part of its keys (site_builder/cache/store.py ``key_of``): this code, what it imports, FORMAT."""
    return key_of(("site_builder.render.links",), [FORMAT])


def _cache_name(kind: str, rel: str) -> str:
    return f"{kind}-" + (re.sub(r"[^A-Za-z0-9]+", "-", rel.removesuffix("index.html")).strip("-") or "home")


def _extraction_key(digest: str) -> str:
    """What names a page's extraction: its SHA-256 ``digest``, with the extracting code."""
    return key_of((), [_code(), digest])


class _Ids:
    """Each page's ids, read from its extraction when a link's fragment first needs them."""

    def __init__(self, load: Callable[[str], set[str]]) -> None:
        self._load = load
        self.known: dict[str, set[str]] = {}

    def get(self, rel: str, default: object = ()) -> set[str]:
        if rel not in self.known:
            self.known[rel] = self._load(rel)
        return self.known[rel]


def _extract_cached(rel: str, key: str, text: Callable[[], str], cache: ResultsCache | None) -> dict[str, list]:
    """The page's extraction, named by its :func:`_extraction_key`; ``text`` gives the page's HTML, read only
    when the extraction is not in the cache."""
    if cache is None:
        return extract(text())
    name = _cache_name("links", rel)
    cached = cache.read(name, key)
    if cached is not None:
        try:
            data = json.loads(cached)
            if isinstance(data, dict) and {"refs", "ids", "problems"} <= data.keys():
                return data
        except ValueError:
            pass
    data = extract(text())
    _keep(rel, key, data, cache)
    return data


def check_site(
    out: Path | Overlay,
    made_from: dict[str, str],
    pages: dict[str, str] | None = None,
    cache: Path | None = None,
    unprinted: frozenset[str] = frozenset(),
    digests: dict[str, str] | None = None,
    previous: object = None,
) -> tuple[int, dict[str, Any]]:
    """Check every page and CSS file of the site in ``out``; returns the number of internal links checked.

    ``made_from`` maps a page URL to the file it came from (for messages); ``pages`` maps a page URL to the
    HTML written there (read from disk when absent); ``digests`` maps a page URL to the SHA-256 of its file,
    when known (a page whose checks are all in the cache is then not read); ``cache`` is the results cache
    folder (None: parse all); ``unprinted`` the decks' PDFs a build not about them left unprinted by request
    (``Options.print_decks=False``): links to them are let through. Every other link must name a written file.

    Returns the number of links (``check_site(...)[0]``) and a record of the check (the site's digest, and each
    page's extraction key, ids digest and number of links): given back as ``previous`` to the next build into the
    same output, it stands for the two cache entries a page's ids and verdict would otherwise be read from, for
    each page whose extraction key is the same (and for the verdicts, in a site of the same digest).
    """
    store = ResultsCache(cache) if cache is not None else None
    check = _LinkCheck(Overlay.of(out), made_from, dict(pages or {}), store, unprinted, digests or {})
    check.take_previous(previous)
    check.note_ids()
    n = check.pages_links() + check.css_links()
    return n, check.record()


def _url_of(rel: str) -> str:
    """The page URL a written HTML file serves (``cit/`` for ``cit/index.html``; the 404 page is ``404.html``)."""
    return rel.removesuffix("index.html")


class _LinkCheck:
    """One check of the site in ``root``: the files it holds, each page's ids (from the cache where kept there), and
    each page's verdict (kept under a digest of the site's files and ids and of the page)."""

    def __init__(
        self,
        site: Overlay,
        made_from: dict[str, str],
        pages: dict[str, str],
        store: ResultsCache | None,
        unprinted: frozenset[str],
        digests: dict[str, str],
    ) -> None:
        self.site, self.made_from, self.pages, self.store, self.digests = site, made_from, pages, store, digests
        self.files, self.dirs = site.listing()
        self.files |= unprinted
        self.html_files = sorted(f for f in self.files if f.endswith(".html"))
        self.found: dict[str, dict[str, list]] = {}  # a page's extraction, held only when no cache can give it back
        self.page_digest: dict[str, str] = {}
        self.ids_digest: dict[str, str] = {}  # a digest of each page's ids: all the site's digest needs of them
        self.loaders: dict[str, Callable[[], str]] = {}
        # the ids of a page, those extracted in note_ids first
        self.ids = _Ids(lambda rel: set(self.extraction(rel)["ids"]) if rel in self.page_digest else set())
        self.resolved: dict[tuple[str, str], str | None] = {}
        self.counts: dict[str, int] = {}  # each page's number of links, as checked or read back
        self._site = ""  # site_digest, once every page's ids are noted
        self.before_site = ""  # the last check's site digest, and its pages' [key, ids digest, links]
        self.before: dict[str, list[Any]] = {}

    def take_previous(self, previous: object) -> None:
        """The last check's record (:func:`check_site`), when it has the shape this code writes."""
        if not isinstance(previous, dict) or not isinstance(previous.get("site"), str):
            return
        pages = previous.get("pages")
        if isinstance(pages, dict):
            self.before_site = previous["site"]
            self.before = {
                rel: v
                for rel, v in pages.items()
                if isinstance(v, list)
                and len(v) == 3
                and isinstance(v[0], str)
                and isinstance(v[1], str)
                and len(v[1]) == 64
                and type(v[2]) is int
            }

    def record(self) -> dict[str, Any]:
        """What the next check into the same output may stand on (see :func:`check_site`)."""
        pages = {
            rel: [self.page_digest[rel], self.ids_digest[rel], self.counts[rel]]
            for rel in self.html_files
            if rel in self.counts
        }
        return {"site": self.site_digest(), "pages": pages}

    def page_name(self, rel: str) -> str:
        url = _url_of(rel)
        return f"{self.made_from[url]} (page /{url})" if url in self.made_from else rel

    def _text(self, rel: str, url: str) -> str:
        if url in self.pages:
            return self.pages[url]
        try:  # read when needed, and not kept: a large site's pages are not all held at once
            return self.site.path(rel).read_text(encoding="utf-8")
        except (OSError, UnicodeError) as e:
            raise BuildError(f"{rel}: file: expected a readable UTF-8 page, found {e}") from None

    def note_ids(self) -> None:
        """Each page's key and the digest of its ids (extracting the pages whose digest is not kept)."""
        for rel in self.html_files:
            url = _url_of(rel)
            text = functools.partial(self._text, rel, url)
            digest = self.digests.get(url)
            if digest is None:
                digest = hashlib.sha256(text().encode("utf-8", "surrogatepass")).hexdigest()
            self.loaders[rel] = text
            key = self.page_digest[rel] = _extraction_key(digest)
            before = self.before.get(rel)
            if before is not None and before[0] == key:  # the last check's, for the same page
                self.ids_digest[rel] = before[1]
                continue
            kept = self.store.read(_cache_name("linkids", rel), key) if self.store is not None else None
            if kept is not None and len(kept) == 64:  # written only for a page without problems
                self.ids_digest[rel] = kept
                continue
            data = _extract_cached(rel, key, text, self.store)
            if data["problems"]:
                raise BuildError(f"{self.page_name(rel)}: {data['problems'][0]}")
            self.ids.known[rel] = set(data["ids"])
            self.ids_digest[rel] = hashlib.sha256(" ".join(sorted(self.ids.known[rel])).encode()).hexdigest()
            # only its ids are kept: its links are read back from the cache when they are checked, so that a large
            # site's links (hundreds of thousands) are not all held at once
            if self.store is not None:
                self.store.write(_cache_name("linkids", rel), key, self.ids_digest[rel])
            else:
                self.found[rel] = data  # nowhere to read it back from

    def extraction(self, rel: str) -> dict[str, list]:
        if rel in self.found:
            return self.found[rel]
        return _extract_cached(rel, self.page_digest[rel], self.loaders[rel], self.store)

    def resolve(self, folder: str, path: str) -> str | None:
        """The output file a link's path names from a page in ``folder``, or None (outside or missing)."""
        memo = (folder, path)
        if memo in self.resolved:
            return self.resolved[memo]
        p = unquote(path) if "%" in path else path
        joined = p[1:] if p.startswith("/") else folder + p
        norm = posixpath.normpath(joined) if joined else ""
        target: str | None
        if norm == "." or norm == "":
            norm = ""
        if norm == ".." or norm.startswith("../") or norm.startswith("/"):
            target = None
        elif norm in self.dirs or p.endswith("/"):
            index = f"{norm}/index.html" if norm else "index.html"
            target = index if index in self.files else None
        else:
            target = norm if norm in self.files else None
        self.resolved[memo] = target
        return target

    def site_digest(self) -> str:
        """A digest of every file and folder of the site and of every page's ids: a page whose links resolved in a
        site of the same digest resolves again."""
        if not self._site:
            world = hashlib.sha256(f"{_code()}\n".encode())
            for name in sorted(self.files | {d + "/" for d in self.dirs}):
                world.update(f"{name}\n".encode())
            for rel in self.html_files:
                world.update(f"{rel}\0{self.ids_digest[rel]}\n".encode())
            self._site = world.hexdigest()
        return self._site

    def pages_links(self) -> int:
        """Every page's links checked, or its verdict (how many links it has) read back where it was kept under the
        site's digest and the page's."""
        site = self.site_digest()
        same_site = site == self.before_site
        n = 0
        for rel in self.html_files:
            before = self.before.get(rel) if same_site else None
            if before is not None and before[0] == self.page_digest[rel]:  # the same page in the same site
                n += before[2]
                self.counts[rel] = before[2]
                continue
            verdict = key_of((), [site, rel, self.page_digest[rel]])
            name = _cache_name("linkcheck", rel)
            kept = self.store.read(name, verdict) if self.store is not None else None
            if kept is not None and kept.isdigit():
                n += int(kept)
                self.counts[rel] = int(kept)
                continue
            count = self.page_links(rel)
            n += count
            self.counts[rel] = count
            if self.store is not None:
                self.store.write(name, verdict, str(count))
        return n

    def page_links(self, rel: str) -> int:
        folder = rel.rsplit("/", 1)[0] + "/" if "/" in rel else ""
        self.resolved.clear()  # a page's links repeat within it; kept across pages, they were millions of (folder, link)
        return sum(
            _check_one(rel, folder, tag, attr, link, self.page_name, self.resolve, self.ids)
            for tag, attr, link in self.extraction(rel)["refs"]
        )

    def css_links(self) -> int:
        """Every style sheet's ``url()`` must name a file of the site (``data:`` URLs aside)."""
        n = 0
        for rel in sorted(f for f in self.files if f.endswith(".css")):
            folder = rel.rsplit("/", 1)[0] + "/" if "/" in rel else ""
            try:
                css = self.site.path(rel).read_text(encoding="utf-8")
            except (OSError, UnicodeError) as e:
                raise BuildError(f"{rel}: file: expected a readable UTF-8 style sheet, found {e}") from None
            for link in _css_urls(css):
                if link.strip().lower().startswith("data:"):
                    continue
                n += _check_one(rel, folder, "css", "url()", link, lambda r: r, self.resolve, self.ids)
        return n


def _split(url: str) -> tuple[str, str, str]:
    """(scheme, path, fragment) of a URL; the common relative link without urlsplit's generality."""
    if ":" in url or url.startswith("//"):
        try:
            parts = urlsplit(url)
        except ValueError:
            return "?", url, ""
        return parts.scheme.lower() or ("//" if url.startswith("//") else ""), parts.path, parts.fragment
    rest, _, fragment = url.partition("#")
    return "", rest.partition("?")[0], fragment


def _check_one(rel, folder, tag, attr, link, page_name, resolve, ids) -> int:  # type: ignore[no-untyped-def]
    url = link.strip()
    scheme, path, fragment = _split(url)
    if scheme:
        if scheme == "?":
            raise BuildError(f"{page_name(rel)}: {attr}={link!r}: expected a valid URL, found one urllib cannot split")
        if (tag, attr) not in NAVIGATION:
            raise BuildError(f"{page_name(rel)}: {attr}={link!r}: expected a local resource, found an external one")
        if scheme not in SAFE_SCHEMES and scheme != "//":
            raise BuildError(
                f"{page_name(rel)}: {attr}={link!r}: expected a link by http, https or mailto, found the scheme {scheme!r}"
            )
        return 0
    target = resolve(folder, path) if path else rel
    if target is None:
        raise BuildError(f"{page_name(rel)}: link {link!r}: expected a page or file of the site, found none")
    if fragment and (unquote(fragment) if "%" in fragment else fragment) not in ids.get(target, ()):
        raise BuildError(f"{page_name(rel)}: link {link!r}: expected an element with id {fragment!r}, found none")
    return 1
