"""Page rendering: one template per page kind, written into the output folder."""

from __future__ import annotations

import hashlib
import json
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from markdown_it import MarkdownIt
from markupsafe import Markup

from site_builder import static_assets
from site_builder.assemble import SeriesData
from site_builder.cache import ResultsCache, entry_name
from site_builder.errors import BuildError
from site_builder.explorers import EXPLORERS
from site_builder.figures import Registry, ResultsFile
from site_builder.markdown.parser import fig_html
from site_builder.plan import PlannedPage
from site_builder.render import extras
from site_builder.render.carry import Carry
from site_builder.render.templates import SiteSandbox, render_template

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


Part = tuple[dict[str, str], dict[str, str], dict[str, list[str]], list[str]]
"""What a forked process rendered: pages' HTML (those rendered or read), digests, tables, and those reused."""


def _file_of(p: PlannedPage) -> str:
    """The page's file in the output folder."""
    return p.url if p.url.endswith(".html") else f"{p.url}index.html"


def _entry(p: PlannedPage) -> str:
    """A page's entry name in the cache of rendered pages."""
    return entry_name("page", p.url or "home")


@dataclass
class Rendering:
    """What a kind's context hook (site_builder/plan.py Kind.context) reads: the renderer and the page's Markdown
    parser, environment and link prefix."""

    renderer: PageRenderer
    md: MarkdownIt
    env: dict[str, Any]
    root: str


class PageRenderer:
    def __init__(
        self,
        env: SiteSandbox,
        md: MarkdownIt,
        out: Path,
        registry: Registry,
        nav: list[dict[str, Any]],
        site_title: str,
        explorer_data: dict[str, str],
    ) -> None:
        self.env = env
        self.md = md
        self.out = out
        self.registry = registry
        self.nav = nav
        self.site_title = site_title
        self.explorer_data = explorer_data  # explorer -> its payload as compact JSON text
        self.written: dict[str, str] = {}  # page URL -> the HTML written, if rendered or read from the cache
        self.digests: dict[str, str] = {}  # page URL -> SHA-256 of its HTML, for every page (carried ones too)
        self.tables: dict[str, list[str]] = {}  # page URL -> its CSV tables' file names
        self.carry: Carry | None = None  # the previous output, when pages may be carried over from it
        self.series: SeriesData | None = None  # decks and glossaries, from the collect phase
        self.titles: dict[str, str] = {}  # page URL -> title, every page of the site (the figure index names them)
        self.series_titles: dict[str, str] = {}
        self.files: dict[str, ResultsFile] = {}  # the results files (the figure index groups by them)
        self.pins: dict[str, str] = {}  # results file label -> "root path sha256" of a vendored (pinned) one
        self.cache: ResultsCache | None = None  # rendered pages by key (render/keys.py), None: render every page
        self.reused: list[str] = []  # pages written from the cache
        self._tables: list[tuple[str, str]] = []

    def render(self, p: PlannedPage, key: str | None = None) -> None:
        """Render ``p``; with a ``key`` and a cache, a page rendered before from the same inputs is written from it
        (or linked from the previous output, when it was written there under the same key)."""
        name = _entry(p)
        if key is not None and self.carry is not None:
            carried = self.carry.page(p.url, _file_of(p), key)
            if carried is not None:
                self.digests[p.url], self.tables[p.url] = carried
                self.reused.append(p.url)
                return
        if key is not None and self.cache is not None:
            stored = self.cache.read_bytes(name, key)
            if stored is not None:
                try:
                    html, tables = json.loads(stored)
                except ValueError:
                    html = None
                if isinstance(html, str):
                    self.write_tables(p.url, [(str(a), str(b)) for a, b in tables])
                    self._write_html(p, html)
                    self.reused.append(p.url)
                    return
        self._tables = []
        self._render(p)
        if key is not None and self.cache is not None:
            body = json.dumps([self.written[p.url], self._tables], ensure_ascii=False)
            self.cache.write_bytes(name, key, body.encode("utf-8"))

    def cached(self, p: PlannedPage, key: str | None) -> bool:
        """Whether ``p`` will most likely be written from the cache (for sharing the work out)."""
        if key is not None and self.carry is not None and self.carry.has_page(p.url, key):
            return True
        return key is not None and self.cache is not None and self.cache.has(_entry(p), key)

    def render_part(self, pages: list[PlannedPage], keys: dict[str, str]) -> Part:
        """Render ``pages`` (in another process, beside this one): what :meth:`merge_part` takes back."""
        for p in pages:
            self.render(p, keys.get(p.url))
        urls = [p.url for p in pages]
        written = {u: self.written[u] for u in urls if u in self.written}
        return written, {u: self.digests[u] for u in urls}, {u: self.tables.get(u, []) for u in urls}, self.reused

    def merge_part(self, part: Part, order: list[str]) -> None:
        """Take back what :meth:`render_part` rendered; pages listed in ``order`` (the plan's), as when serial."""
        written, digests, tables, reused = part

        def merged(mine: dict[str, Any], theirs: dict[str, Any]) -> dict[str, Any]:
            both = {**mine, **theirs}
            return {url: both[url] for url in order if url in both}

        self.written = merged(self.written, written)
        self.digests = merged(self.digests, digests)
        self.tables = merged(self.tables, tables)
        done = set(self.reused) | set(reused)
        self.reused = [url for url in order if url in done]

    def output(self, keys: dict[str, str]) -> dict[str, Any]:
        """What was written, for the next build to carry over: each page's key, digest and tables."""
        pages = {u: [keys[u], self.digests[u], self.tables.get(u, [])] for u in self.digests if u in keys}
        return {"pages": pages}

    def _render(self, p: PlannedPage) -> None:
        ctx: dict[str, Any] = {"title": p.title, "page": p, "charts": [], "chart_data": {}, "scripts": []}
        ctx["shared_scripts"] = []
        ctx.update(decks=[], glossary=[], term_html={}, slides=[], deck=None)
        root = p.kind.root if p.kind.root is not None else root_of(p.url)
        env = self.markdown_env(p, root)
        if p.charts:
            ctx["charts"] = p.charts
            ctx["chart_data"] = {n: _json_text(self.explorer_data[n]) for n in p.charts}
            ctx["scripts"] = [s for n in p.charts for s in EXPLORERS[n].scripts]
            ctx["shared_scripts"] = list(dict.fromkeys(s for n in p.charts for s in EXPLORERS[n].shared))
        ctx.update(p.kind.context(p, Rendering(self, self.md, env, root)))
        ctx["description"] = extras.description(p, self.md, env, self.series_titles.get(p.series or ""))
        self._write(p, root, ctx)

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
        if self.series is not None:
            env["terms"] = self.series.terms
            env["term_href"] = self.series.term_href(p.series)
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
        self.written[p.url] = html
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
