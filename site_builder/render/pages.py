"""Page rendering: one template per page kind, written into the output folder."""

from __future__ import annotations

import json
import shutil
from importlib.util import find_spec
from pathlib import Path
from typing import Any

import jinja2
from markdown_it import MarkdownIt
from markupsafe import Markup

from site_builder.errors import BuildError
from site_builder.explorers import EXPLORERS
from site_builder.figures import Registry
from site_builder.plan import PlannedPage
from site_builder.render.markdown import fig_html
from site_builder.render.results_page import render_results

STATIC = Path(__file__).resolve().parent.parent / "static"


def plotly_js() -> Path:
    """The plotly.min.js the plotly package ships (found without importing plotly)."""
    spec = find_spec("plotly")
    locations = list(spec.submodule_search_locations or []) if spec else []
    path = Path(locations[0]) / "package_data" / "plotly.min.js" if locations else None
    if path is None or not path.is_file():
        raise BuildError("plotly: package_data/plotly.min.js: expected the file the plotly package ships, found none")
    return path


def root_of(url: str) -> str:
    """The relative prefix from a page at ``url`` back to the site root."""
    return "../" * url.count("/")


def _json_script(value: Any) -> Markup:
    return Markup(json.dumps(value, separators=(",", ":"), ensure_ascii=False).replace("</", "<\\/"))


class PageRenderer:
    def __init__(
        self,
        env: jinja2.Environment,
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

    def render(self, p: PlannedPage) -> None:
        ctx: dict[str, Any] = {"title": p.title, "page": p, "charts": [], "chart_data": {}, "scripts": []}
        root = root_of(p.url)
        if p.parsed is not None:
            env = {"registry": self.registry, "page": p.url, "root": root}
            ctx["body"] = Markup(self.md.renderer.render(p.parsed.tokens, self.md.options, env))
            ctx["meta"] = p.parsed.page.meta
            if p.charts:
                self.uses_plotly = True
                ctx["charts"] = p.charts
                ctx["chart_data"] = {n: _json_script(self.explorer_data[n]) for n in p.charts}
                ctx["scripts"] = [s for n in p.charts for s in EXPLORERS[n].scripts]
        elif p.results is not None:
            body, toc = render_results(p.results.text, p.results.sections, self.md)
            ctx.update(body=Markup(body), toc=toc, source=p.results.label, meta={})
        elif p.kind.name == "figures":
            ctx.update(rows=self._figure_rows(root), meta={})
        self._write(p, root, ctx)

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

        try:
            tpl = self.env.get_template(template)
            html = tpl.render(root=root, url=p.url, site_title=self.site_title, nav=self.nav, fig=fig, **ctx)
        except jinja2.TemplateSyntaxError as e:
            raise BuildError(
                f"templates/{e.name or template}: line {e.lineno}: expected valid Jinja, found {e.message}"
            ) from None
        except jinja2.TemplateNotFound as e:
            raise BuildError(f"templates/{e.name}: file: expected a template, found no such file") from None
        except jinja2.UndefinedError as e:
            raise BuildError(f"templates/{template}: render: expected defined names, found {e.message}") from None
        path = self.out / p.url / "index.html"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(html, encoding="utf-8")

    def write_static(self) -> None:
        shutil.copytree(STATIC, self.out / "assets")
        if self.uses_plotly:
            shutil.copyfile(plotly_js(), self.out / "assets" / "plotly.min.js")
