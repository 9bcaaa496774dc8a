"""Writes every page of the site into a folder, then checks its internal links and anchors."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import jinja2
from markupsafe import Markup

from site_builder.content import Page
from site_builder.errors import BuildError
from site_builder.figures import Registry, ResultsFile
from site_builder.render.charts import chart_payloads
from site_builder.render.markdown import fig_html, make_markdown
from site_builder.render.results_page import render_results
from site_builder.results_doc import ResultsDoc
from site_builder.site import PRODUCERS, SITE_TITLE, Inputs

STATIC = Path(__file__).resolve().parent.parent / "static"
HREF = re.compile(r'\s(href|src)="([^"]*)"')
IDS = re.compile(r'\sid="([^"]+)"')


def plotly_js() -> Path:
    import plotly

    path = Path(plotly.__file__).parent / "package_data" / "plotly.min.js"
    if not path.is_file():
        raise BuildError(f"{path}: expected the plotly.min.js the plotly package ships, found no such file")
    return path


def root_of(url: str) -> str:
    """The relative prefix from a page at ``url`` back to the site root."""
    return "../" * url.count("/")


class SiteWriter:
    def __init__(
        self,
        project: Path,
        out: Path,
        registry: Registry,
        files: dict[str, ResultsFile],
        inputs: Inputs,
        docs: dict[str, ResultsDoc],
    ) -> None:
        self.project = project
        self.out = out
        self.registry = registry
        self.files = files
        self.inputs = inputs
        self.docs = docs
        self.md = make_markdown()
        self.env = jinja2.Environment(
            loader=jinja2.FileSystemLoader(project / "templates"),
            autoescape=jinja2.select_autoescape(["html"]),
            undefined=jinja2.StrictUndefined,
            trim_blocks=True,
            lstrip_blocks=True,
        )
        self.written: dict[str, str] = {}  # page url -> the file it was made from
        self.uses_plotly = False

    # -- helpers -----------------------------------------------------------------------------
    def nav(self) -> list[dict[str, Any]]:
        cit = [
            {"title": "Results home", "url": "cit/"},
            {"title": "Experiment results", "url": "cit/experiment/results/"},
            {"title": "Experiment, recomputed", "url": "cit/experiment/derived/"},
        ]
        fopt: list[dict[str, str]] = []
        for p in PRODUCERS:
            if p.name == "experiment":
                continue
            (cit if p.series == "cit" else fopt).append({"title": p.nav_title, "url": p.page})
        return [
            {"title": "Compute in Transit", "items": cit},
            {"title": "Fourier Optics for Training", "items": fopt},
            {"title": "Every number", "items": [{"title": "Figure index", "url": "figures/"}]},
        ]

    def _render(self, template: str, url: str, made_from: str, **ctx: Any) -> None:
        root = root_of(url)

        def fig(key: str) -> Markup:
            try:
                f = self.registry.use(key, url)
            except KeyError:
                raise BuildError(f"templates/{template}: fig({key!r}): expected a registered figure key") from None
            return Markup(fig_html(f, root))

        try:
            tpl = self.env.get_template(template)
            html = tpl.render(root=root, url=url, site_title=SITE_TITLE, nav=self.nav(), fig=fig, **ctx)
        except jinja2.TemplateSyntaxError as e:
            raise BuildError(
                f"templates/{e.name or template}: line {e.lineno}: expected valid Jinja, found {e.message}"
            ) from None
        except jinja2.TemplateNotFound as e:
            raise BuildError(f"templates/{e.name}: file: expected a template, found no such file") from None
        except jinja2.UndefinedError as e:
            raise BuildError(f"templates/{template}: render: expected defined names, found {e.message}") from None
        path = self.out / url / "index.html"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(html, encoding="utf-8")
        self.written[url] = made_from

    # -- pages -----------------------------------------------------------------------------------
    def write_content(self, page: Page) -> None:
        env: dict[str, Any] = {"registry": self.registry, "page": page.url, "root": root_of(page.url)}
        body = self.md.render(page.body, env)
        charts = env.get("charts", [])
        payloads = chart_payloads(charts, self.inputs, self.docs)
        if charts:
            self.uses_plotly = True
        self._render(
            f"{page.template}.html",
            page.url,
            page.label,
            page=page,
            title=page.title,
            body=Markup(body),
            charts=charts,
            chart_data={
                k: Markup(json.dumps(v, separators=(",", ":")).replace("</", "<\\/")) for k, v in payloads.items()
            },
        )

    def write_results_pages(self) -> None:
        for rf in self.files.values():
            text = rf.path.read_text(encoding="utf-8")
            body, toc = render_results(text, rf.label, self.md)
            self._render(
                "results.html",
                rf.page,
                rf.label,
                title=rf.title,
                body=Markup(body),
                toc=toc,
                source=rf.label,
                charts=[],
                chart_data={},
            )

    def write_figure_index(self) -> None:
        root = root_of("figures/")
        rows = []
        for f in sorted(self.registry.figures.values(), key=lambda f: f.key):
            pages = sorted(self.registry.used_on.get(f.key, ()))
            rows.append(
                {
                    "key": f.key,
                    "fig": Markup(fig_html(f, root)),
                    "source": f.source.describe(),
                    "href": root + f.source.href(),
                    "pages": [{"url": root + p, "title": p or "home"} for p in pages],
                }
            )
        self._render(
            "figures.html",
            "figures/",
            "templates/figures.html",
            title="Every number on the site",
            rows=rows,
            charts=[],
            chart_data={},
        )

    def write_static(self) -> None:
        shutil.copytree(STATIC, self.out / "assets")
        if self.uses_plotly:
            shutil.copyfile(plotly_js(), self.out / "assets" / "plotly.min.js")

    def write_all(self, pages: list[Page]) -> int:
        urls = [p.url for p in pages]
        dup = {u for u in urls if urls.count(u) > 1}
        if dup:
            raise BuildError(f"content: two content files give the page {sorted(dup)[0] or '/'}")
        for page in pages:
            self.write_content(page)
        self.write_results_pages()
        self.write_figure_index()
        self.write_static()
        return len(self.written)

    # -- checks ----------------------------------------------------------------------------------
    def check_links(self) -> int:
        """Every internal href/src resolves to a written file, and every #anchor to an id on it."""
        ids: dict[Path, set[str]] = {}

        def ids_of(path: Path) -> set[str]:
            if path not in ids:
                ids[path] = set(IDS.findall(path.read_text(encoding="utf-8"))) if path.suffix == ".html" else set()
            return ids[path]

        n = 0
        for html in sorted(self.out.rglob("*.html")):
            text = html.read_text(encoding="utf-8")
            rel = html.relative_to(self.out).as_posix()
            url = rel.removesuffix("index.html")
            page = f"{self.written[url]} (page /{url})" if url in self.written else rel
            for attr, link in HREF.findall(text):
                parts = urlsplit(link)
                if parts.scheme or link.startswith("//"):
                    if attr == "src" or parts.scheme not in ("http", "https", "mailto"):
                        raise BuildError(f"{page}: {attr}={link!r}: expected a local resource, found an external one")
                    continue
                target = html if not parts.path else (html.parent / unquote(parts.path))
                if parts.path.endswith("/") or target.is_dir():
                    target = target / "index.html"
                target = target.resolve()
                if not target.is_relative_to(self.out.resolve()) or not target.is_file():
                    raise BuildError(f"{page}: link {link!r}: expected a page or file of the site, found none")
                if parts.fragment and unquote(parts.fragment) not in ids_of(target):
                    raise BuildError(
                        f"{page}: link {link!r}: expected an element with id {parts.fragment!r}, found none"
                    )
                n += 1
        return n
