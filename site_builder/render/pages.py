"""Page rendering: one template per page kind, written into the output folder."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from markdown_it import MarkdownIt
from markupsafe import Markup

from site_builder import static_assets
from site_builder.assemble import SeriesData, source_links
from site_builder.errors import BuildError
from site_builder.explorers import EXPLORERS
from site_builder.figures import Registry, ResultsFile
from site_builder.plan import PlannedPage
from site_builder.render.deck import render_slides
from site_builder.render.markdown import fig_html
from site_builder.render.results_page import render_results
from site_builder.render.templates import SiteSandbox, render_template

STATIC = Path(__file__).resolve().parent.parent / "static"


def root_of(url: str) -> str:
    """The relative prefix from a page at ``url`` back to the site root."""
    return "../" * url.count("/")


def _json_script(value: Any) -> Markup:
    return Markup(json.dumps(value, separators=(",", ":"), ensure_ascii=False).replace("</", "<\\/"))


class PageRenderer:
    def __init__(
        self,
        env: SiteSandbox,
        md: MarkdownIt,
        out: Path,
        registry: Registry,
        nav: list[dict[str, Any]],
        site_title: str,
        explorer_data: dict[str, Any],
    ) -> None:
        self.env = env
        self.md = md
        self.out = out
        self.registry = registry
        self.nav = nav
        self.site_title = site_title
        self.explorer_data = explorer_data
        self.uses_plotly = False
        self.written: dict[str, str] = {}  # page URL -> the HTML written (read again by the link check)
        self.series: SeriesData | None = None  # decks and glossaries, from the collect phase

    def render(self, p: PlannedPage) -> None:
        ctx: dict[str, Any] = {"title": p.title, "page": p, "charts": [], "chart_data": {}, "scripts": []}
        ctx.update(decks=[], glossary=[], term_html={}, slides=[], deck=None)
        root = root_of(p.url)
        if p.parsed is not None:
            env = self.markdown_env(p, root)
            ctx["meta"] = p.parsed.page.meta
            if "deck" in p.extra:
                ctx["deck"] = p.extra["deck"]
                ctx["slides"] = render_slides(p.extra["deck"].slides, self.md, env, source_links(p.extra["deck"], root))
                ctx["body"] = Markup("")
            else:
                ctx["body"] = Markup(self.md.renderer.render(p.parsed.tokens, self.md.options, env))
            if "records" in p.extra:
                ctx["records"] = p.extra["records"]
            if "glossary" in p.extra:
                ctx["glossary"] = p.extra["glossary"]
                ctx["decks"] = p.extra["decks"]
                ctx["term_html"] = {
                    t.key: Markup(self.md.render(t.body, env)) for g in p.extra["glossary"] for t in g["terms"]
                }
            if p.charts:
                self.uses_plotly = True
                ctx["charts"] = p.charts
                ctx["chart_data"] = {n: _json_script(self.explorer_data[n]) for n in p.charts}
                ctx["scripts"] = [s for n in p.charts for s in EXPLORERS[n].scripts]
        elif p.results is not None:
            body, toc = render_results(
                p.results.text, p.results.sections, self.md, self.registry.by_cell(p.results.label), root
            )
            ctx.update(body=Markup(body), toc=toc, source=p.results.label, meta={})
        elif p.kind.name == "figures":
            ctx.update(rows=self._figure_rows(root), meta={})
        self._write(p, root, ctx)

    def markdown_env(self, p: PlannedPage, root: str) -> dict[str, Any]:
        env: dict[str, Any] = {"registry": self.registry, "page": p.url, "root": root}
        if self.series is not None:
            env["terms"] = self.series.terms
            env["term_href"] = self.series.term_href(p.series)
        return env

    def _figure_rows(self, root: str) -> list[dict[str, Any]]:
        rows = []
        for f in sorted(self.registry.figures.values(), key=lambda f: f.key):
            pages = sorted(self.registry.used_on.get(f.key, ()))
            rows.append(
                {
                    "key": f.key,
                    "fig": Markup(fig_html(f, root)),
                    "source": f.source.describe(),
                    "href": root + f.source.href(),
                    "pages": [{"url": root + u, "title": u or "home"} for u in pages],
                }
            )
        return rows

    def _write(self, p: PlannedPage, root: str, ctx: dict[str, Any]) -> None:
        template = p.kind.template

        def fig(key: str) -> Markup:
            try:
                f = self.registry.get(key)
            except KeyError:
                raise BuildError(f"templates/{template}: fig({key!r}): expected a registered figure key") from None
            return Markup(fig_html(f, root))

        context = dict(root=root, url=p.url, site_title=self.site_title, nav=self.nav, fig=fig, **ctx)
        html = render_template(self.env, template, context)
        path = self.out / p.url / "index.html"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(html, encoding="utf-8")
        self.written[p.url] = html

    def write_downloads(self, files: dict[str, ResultsFile]) -> None:
        """Each produced results document beside its page, as results.md and results.json to download."""
        for rf in files.values():
            if not rf.label.startswith("data/"):
                continue
            base = self.out / rf.page.rstrip("/")
            base.parent.mkdir(parents=True, exist_ok=True)
            base.with_name(base.name + ".md").write_text(rf.text, encoding="utf-8")
            shutil.copyfile(rf.path.with_suffix(".json"), base.with_name(base.name + ".json"))

    def write_static(self) -> None:
        static_assets.verify()
        shutil.copytree(STATIC, self.out / "assets")
