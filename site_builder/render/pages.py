"""Page rendering: one template per page kind, written into the output folder."""

from __future__ import annotations

import hashlib
import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

from markdown_it import MarkdownIt
from markupsafe import Markup

from site_builder import static_assets
from site_builder.cache.carry import Carry
from site_builder.cache.store import ResultsCache, entry_name
from site_builder.content.plan import PlannedPage
from site_builder.datatypes import dataclass
from site_builder.errors import BuildError
from site_builder.explorers import EXPLORERS
from site_builder.markdown.parser import fig_html
from site_builder.render import extras
from site_builder.render.templates import SiteSandbox, render_template
from site_builder.results.figures import Registry, ResultsFile

STATIC = Path(__file__).resolve().parent.parent / "static"


def root_of(url: str) -> str:
    """The relative prefix from a page at ``url`` back to the site root."""
    return "../" * url.count("/")


def json_script(value: Any) -> Markup:
    return _json_text(json.dumps(value, separators=(",", ":"), ensure_ascii=False))


def _json_text(text: str) -> Markup:
    """Compact JSON as a page embeds it in a ``<script type="application/json">`` element: every ``<`` written as
    ``\\u003c`` (JSON reads it back as ``<``), so no ``</script``, ``<!--`` or ``<script`` in the data can end or
    change the element as the HTML parser reads it. (In JSON, ``<`` can only stand inside a string.)"""
    return Markup(text.replace("<", "\\u003c"))


Part = tuple[
    dict[str, str], dict[str, str], dict[str, list[str]], list[str], dict[str, str], dict[str, tuple[str, list[str]]]
]
"""What a forked process rendered: pages' HTML (those rendered or read), digests, tables, those reused, keys, and
what each page's render read."""


def _file_of(p: PlannedPage) -> str:
    """The page's file in the output folder."""
    return p.url if p.url.endswith(".html") else f"{p.url}index.html"


def _entry(p: PlannedPage) -> str:
    """A page's entry name in the cache of rendered pages."""
    return entry_name("page", p.url or "home")


def _reads_entry(p: PlannedPage) -> str:
    """The entry naming the Shared values a page's last render read, under its own key."""
    return entry_name("reads", p.url or "home")


class Shared:
    """A site-wide value of the renderer that pages may read (navigation, titles, the figures…): every read is
    noted as a dependency of the page being rendered (site_builder/cache/keys.py), so a page's key holds what its
    render read, and no list of what a page may read is kept."""

    def __init__(self, digest: Callable[[Any, PageRenderer], str] | None = None) -> None:
        self.digest = digest  # how the value is digested for a key, when not taken whole (keys.digest)

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, obj: PageRenderer | None, owner: type | None = None) -> Any:
        if obj is None:
            return self
        obj.reads.add(self.name)
        return obj.shared[self.name]

    def __set__(self, obj: PageRenderer, value: Any) -> None:
        obj.shared[self.name] = value
        obj.shared_digests.pop(self.name, None)


def _registry_digest(registry: Registry, renderer: PageRenderer) -> str:
    """Every figure with its value, text and source (digested once, in the collect phase) and the pages using them,
    in the order their uses were noted (the plan's): each key and its pages (joined by NUL, which no URL holds) as
    length-prefixed text, not through keys.digest's JSON, which for a large site's hundreds of thousands of uses
    cost several times as much."""
    h = hashlib.sha256(f"registry\n{renderer.figures_digest}\n".encode())
    for key, pages in registry.used_on.items():
        joined = "\0".join(pages)
        h.update(f"{len(key)}:{key}{len(joined)}:{joined}".encode("utf-8", "surrogatepass"))
    return h.hexdigest()


@dataclass
class Rendering:
    """What a kind's context hook (site_builder/content/plan.py Kind.context) reads: the renderer and the page's Markdown
    parser, environment and link prefix."""

    renderer: PageRenderer
    md: MarkdownIt
    env: dict[str, Any]
    root: str


class PageRenderer:
    registry = Shared(_registry_digest)
    nav = Shared()
    site_title = Shared()
    term_links = Shared()  # glossary key -> what a page shows of the term (content/assemble.py TermLink)
    titles = Shared()  # page URL -> title, every page of the site (the figure index names them)
    series_titles = Shared()
    files = Shared()  # the results files (the figure index groups by them)
    pins = Shared()  # results file label -> "root path sha256" of a vendored (pinned) one

    def __init__(
        self,
        env: SiteSandbox,
        md: MarkdownIt,
        out: Path,
        registry: Registry,
        nav: list[dict[str, Any]],
        site_title: str,
    ) -> None:
        self.shared: dict[str, Any] = {}  # the Shared values, by name
        self.shared_digests: dict[str, str] = {}
        self.reads: set[str] = set()  # the Shared values read since the page being rendered began
        self.env = env
        self.md = md
        self.out = out
        self.registry = registry
        self.nav = nav
        self.site_title = site_title
        self.term_links = None
        self.titles = {}
        self.series_titles = {}
        self.files = {}
        self.pins = {}
        self.figures_digest = ""  # render/keys.figures_digest of the registry
        self.code = ""  # a digest of the code, templates and every input but the pages' own (keys.own_key)
        # page URL -> its file in the output folder, if rendered or read from the cache (not carried over). Only the
        # file's name: the checks after render read the pages back one at a time (a large site's HTML, held until
        # the last check, was a third of its build's memory)
        self.written: dict[str, str] = {}
        self._html = ""  # the HTML of the page written last (render() stores it in the cache)
        self.digests: dict[str, str] = {}  # page URL -> SHA-256 of its HTML, for every page (carried ones too)
        self.tables: dict[str, list[str]] = {}  # page URL -> its CSV tables' file names
        self.keys: dict[str, str] = {}  # page URL -> its render key (keys.page_key), with a cache
        self._planned: dict[tuple[str, str], str | None] = {}  # (URL, own key) -> key_of's answer, read once
        self.read: dict[str, tuple[str, list[str]]] = {}  # page URL -> (own key, the Shared names its render read)
        self.carry: Carry | None = None  # the previous output, when pages may be carried over from it
        self.cache: ResultsCache | None = None  # rendered pages by key (cache/keys.py), None: render every page
        self.reused: list[str] = []  # pages written from the cache
        self._tables: list[tuple[str, str]] = []

    def shared_digest(self, name: str) -> str:
        """The digest of the Shared value ``name`` (once per build)."""
        if name not in self.shared_digests:
            from site_builder.cache import keys

            how = type(self).__dict__.get(name)
            value = self.shared[name]
            made = how.digest(value, self) if isinstance(how, Shared) and how.digest is not None else keys.digest(value)
            self.shared_digests[name] = made
        return self.shared_digests[name]

    def _key(self, own: str, names: list[str]) -> str | None:
        from site_builder.cache import keys

        if not all(n in self.shared for n in names):
            return None  # a name this code no longer has: render again
        return keys.page_key(own, [(n, self.shared_digest(n)) for n in names])

    def key_of(self, p: PlannedPage, own: str | None) -> str | None:
        """``p``'s render key from the values its last render (from the same ``own`` key) read, or None when it was
        not rendered from it before (or there is no cache)."""
        if own is None or self.cache is None:
            return None
        if (p.url, own) in self._planned:
            return self._planned[(p.url, own)]
        self._planned[(p.url, own)] = found = self._key_from_reads(p, own)
        return found

    def _key_from_reads(self, p: PlannedPage, own: str) -> str | None:
        assert self.cache is not None
        names = self.carry.reads_of(p.url, own) if self.carry is not None else None
        if names is None:
            stored = self.cache.read(_reads_entry(p), own)
            try:
                names = json.loads(stored) if stored is not None else None
            except ValueError:
                return None
            if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
                return None
        key = self._key(own, names)
        if key is not None:
            self.read[p.url] = (own, names)
        return key

    def render(self, p: PlannedPage, own: str | None = None) -> None:
        """Render ``p``; with an ``own`` key (keys.own_key) and a cache, a page rendered before from the same inputs
        is written from it (or linked from the previous output, when it was written there under the same key)."""
        name = _entry(p)
        key = self.key_of(p, own)
        if key is not None:
            self.keys[p.url] = key
            if self._reuse(p, name, key):
                return
        self._tables = []
        self.reads = set()
        self._render(p)
        if own is not None and self.cache is not None:
            names = sorted(self.reads)
            key = self._key(own, names)
            assert key is not None
            self.keys[p.url] = key
            self.read[p.url] = (own, names)
            body = json.dumps([self._html, self._tables], ensure_ascii=False)
            self._html = ""
            self.cache.write_bytes(name, key, body.encode("utf-8"))
            self.cache.write(_reads_entry(p), own, json.dumps(names))

    def _reuse(self, p: PlannedPage, name: str, key: str) -> bool:
        """Write ``p`` as rendered before under ``key``: linked from the previous output, or from the cache."""
        if self.carry is not None:
            carried = self.carry.page(p.url, _file_of(p), key)
            if carried is not None:
                self.digests[p.url], self.tables[p.url] = carried
                self.reused.append(p.url)
                return True
        assert self.cache is not None
        stored = self.cache.read_bytes(name, key)
        if stored is None:
            return False
        try:
            html, tables = json.loads(stored)
        except ValueError:
            return False
        if not isinstance(html, str):
            return False
        self.write_tables(p.url, [(str(a), str(b)) for a, b in tables])
        self._write_html(p, html)
        self.reused.append(p.url)
        return True

    def cached(self, p: PlannedPage, own: str | None) -> bool:
        """Whether ``p`` will most likely be written from the cache (for sharing the work out)."""
        key = self.key_of(p, own)
        if key is None:
            return False
        if self.carry is not None and self.carry.has_page(p.url, key):
            return True
        return self.cache is not None and self.cache.has(_entry(p), key)

    def render_part(self, pages: list[PlannedPage], owns: dict[str, str]) -> Part:
        """Render ``pages`` (in another process, beside this one): what :meth:`merge_part` takes back."""
        for p in pages:
            self.render(p, owns.get(p.url))
        urls = [p.url for p in pages]
        written = {u: self.written[u] for u in urls if u in self.written}
        keys = {u: self.keys[u] for u in urls if u in self.keys}
        read = {u: self.read[u] for u in urls if u in self.read}
        tables = {u: self.tables.get(u, []) for u in urls}
        return written, {u: self.digests[u] for u in urls}, tables, self.reused, keys, read

    def merge_part(self, part: Part, order: list[str]) -> None:
        """Take back what :meth:`render_part` rendered; pages listed in ``order`` (the plan's), as when serial."""
        written, digests, tables, reused, keys, read = part

        def merged(mine: dict[str, Any], theirs: dict[str, Any]) -> dict[str, Any]:
            both = {**mine, **theirs}
            return {url: both[url] for url in order if url in both}

        self.written = merged(self.written, written)
        self.digests = merged(self.digests, digests)
        self.tables = merged(self.tables, tables)
        self.keys = merged(self.keys, keys)
        self.read = merged(self.read, read)
        done = set(self.reused) | set(reused)
        self.reused = [url for url in order if url in done]

    def output(self) -> dict[str, Any]:
        """What was written, for the next build to carry over: each page's key, digest and tables, and the own key
        and the names of the shared values its render read (its key's parts, cache/carry.py ``reads_of``)."""
        pages = {
            u: [self.keys[u], self.digests[u], self.tables.get(u, []), *self.read[u]]
            for u in self.digests
            if u in self.keys and u in self.read
        }
        return {"pages": pages}

    def _render(self, p: PlannedPage) -> None:
        ctx: dict[str, Any] = {"title": p.title, "page": p, "charts": [], "chart_data": [], "scripts": []}
        ctx["shared_scripts"] = []
        ctx.update(decks=[], glossary=[], term_html={}, slides=[], deck=None)
        root = p.kind.root if p.kind.root is not None else root_of(p.url)
        env = self.markdown_env(p, root)
        if p.charts:
            ctx["charts"] = p.charts
            ctx["chart_data"] = [EXPLORERS[n].data_file for n in p.charts]  # fetched by site.js, not held inline
            ctx["scripts"] = [s for n in p.charts for s in EXPLORERS[n].scripts]
            ctx["shared_scripts"] = list(dict.fromkeys(s for n in p.charts for s in EXPLORERS[n].shared))
        ctx.update(p.kind.context(p, Rendering(self, self.md, env, root)))
        ctx["description"] = extras.description(p, self.md, env, self.series_titles.get(p.series or ""))
        self._write(p, root, ctx)

    def html(self, url: str) -> str:
        """The HTML written for the page at ``url`` (one of :attr:`written`), read back from the output folder."""
        return (self.out / self.written[url]).read_text(encoding="utf-8")

    def write_tables(self, url: str, tables: list[tuple[str, str]]) -> None:
        """Each results table as CSV, in ``<page>/tables/`` (linked under the table)."""
        self._tables = tables
        self.tables[url] = [name for name, _ in tables]
        if not tables:
            return
        folder = self.out / url / "tables"
        folder.mkdir(parents=True, exist_ok=True)
        for name, text in tables:
            (folder / name).write_text(text, encoding="utf-8", newline="")

    def markdown_env(self, p: PlannedPage, root: str) -> dict[str, Any]:
        env: dict[str, Any] = {"registry": self.registry, "page": p.url, "root": root}
        links = self.term_links
        if links is not None:
            env["terms"] = links
            env["term_href"] = lambda key: links[key].href(p.series)
        return env

    def _write(self, p: PlannedPage, root: str, ctx: dict[str, Any]) -> None:
        template = p.kind.template

        def fig(key: str) -> Markup:
            try:
                f = self.registry.get(key)
            except KeyError:
                raise BuildError(f"templates/{template}: fig({key!r}): expected a registered figure key") from None
            return Markup(fig_html(f, root))

        context = dict(root=root, url=p.url, site_title=self.site_title, nav=self.nav, fig=fig, **ctx)
        self._write_html(p, render_template(self.env, template, context))

    def _write_html(self, p: PlannedPage, html: str) -> None:
        path = self.out / _file_of(p)
        path.parent.mkdir(parents=True, exist_ok=True)
        data = html.encode("utf-8")
        path.write_bytes(data)
        self.written[p.url] = _file_of(p)
        self._html = html
        self.digests[p.url] = hashlib.sha256(data).hexdigest()

    def write_downloads(self, files: dict[str, ResultsFile], unchanged: bool = False) -> None:
        """Each produced results document beside its page, as results.md and results.json to download;
        ``unchanged``: the same files as the previous output holds, which are linked from it when it can be done."""
        produced = [rf for rf in files.values() if rf.label.startswith("data/")]
        names = [f"{rf.page.rstrip('/')}.{ext}" for rf in produced for ext in ("md", "json")]
        if unchanged and self.carry is not None and self.carry.files(names):
            return
        for rf in produced:
            base = self.out / rf.page.rstrip("/")
            base.parent.mkdir(parents=True, exist_ok=True)
            base.with_name(base.name + ".md").write_text(rf.text, encoding="utf-8")
            shutil.copyfile(rf.path.with_suffix(".json"), base.with_name(base.name + ".json"))

    def write_static(self, unchanged: bool = False) -> None:
        """The site's assets (``site_builder/static/``); ``unchanged``: the same files as the previous output
        holds, which are linked from it when it can be done."""
        if unchanged and self.carry is not None and self.carry.folder("assets"):
            return
        static_assets.verify()
        shutil.copytree(STATIC, self.out / "assets")
