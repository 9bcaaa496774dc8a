"""Collect: every page of the site planned (content and generated), its references checked, the decks and
glossaries assembled, the figures each page uses recorded, and the explorers' payloads made, before anything
is written."""

from __future__ import annotations

import time
from typing import Any

from site_builder import outdir
from site_builder.content.assemble import SeriesData, collect_series
from site_builder.content.glossary import load_glossary
from site_builder.content.pages import Page
from site_builder.content.parse import Parsed, check_refs
from site_builder.content.plan import PlannedPage
from site_builder.datatypes import dataclass
from site_builder.errors import BuildError
from site_builder.explorers import EXPLORERS
from site_builder.kinds import KINDS
from site_builder.kinds.method_records import fixed_records
from site_builder.phases.context import BuildContext
from site_builder.phases.load import Loaded
from site_builder.phases.models import Modeled
from site_builder.phases.store import Models
from site_builder.results.figures import Registry, ResultsFile

RESERVED = {
    "assets": "the site's assets (site_builder/static/)",
    "explorers": "the explorers' data (explorers/)",
    "figures.json": "the figure list (figures.json)",
    "search": "the search index (search/)",
    "sitemap.xml": "the sitemap (sitemap.xml)",
    outdir.MARKER: f"the build's marker file ({outdir.MARKER})",
}
"""First URL segments the build writes itself: no page may live at or under them."""


@dataclass
class Collected:
    """What the collect phase gives the render phase: the parser, templates, page plan and series data."""

    md: Any  # the Markdown parser (markdown_it.MarkdownIt)
    env: Any  # the templates (render.templates.SiteSandbox)
    plan: list[PlannedPage]
    series: SeriesData
    template_figs: dict[str, list[tuple[str, str]]]  # template -> its fig("key") calls
    fixed: dict[str, Any]  # the method page's records that no page changes
    figures_digest: str
    charts: list[str]  # explorers shown on some page
    explorer_data: dict[str, str]  # explorer -> its payload as JSON text


def collect(ctx: BuildContext, loaded: Loaded, modeled: Modeled) -> Collected:
    from site_builder.cache import keys
    from site_builder.markdown.parser import make_markdown
    from site_builder.render.templates import make_env

    t0 = time.perf_counter()
    paths, kept, registry, files, models = ctx.paths, loaded.kept, modeled.registry, modeled.files, modeled.models
    md = make_markdown(figure_text=lambda key: registry.figures[key].text if key in registry.figures else None)
    env = make_env(paths.templates, ctx.opts.template_seconds)
    parsed = [_parsed(models, p, md, registry) for p in loaded.pages]
    terms = load_glossary(paths.content, loaded.front)
    for pp in parsed:
        check_refs(pp, registry.figures, EXPLORERS, terms)
    plan = plan_pages(parsed, files)
    series_data = collect_series(
        plan, files, terms, lambda page: models.parsed(page, md, registry), registry, models.slide_heads
    )
    template_figs = _template_figures(loaded, modeled, env, plan)
    fixed = kept.records if kept is not None else fixed_records(paths.project, loaded.digests, registry, files)
    for p in plan:
        p.kind.collect(p, fixed, registry, files)
    figures_digest = kept.figures_digest if kept is not None else keys.figures_digest(registry)
    charts = sorted({n for p in plan for n in p.charts})
    explorer_data: dict[str, str] = {}
    for n in charts:
        if kept is not None and n in kept.payloads:
            explorer_data[n] = kept.payloads[n]
        else:
            explorer_data[n] = models.explorer_payload(EXPLORERS[n], modeled.documents(ctx))
    ctx.stage("collect", t0, f"{len(plan)} pages, {sum(len(v) for v in registry.used_on.values())} figure uses")
    return Collected(md, env, plan, series_data, template_figs, fixed, figures_digest, charts, explorer_data)


def _parsed(models: Models, page: Page, md: Any, registry: Registry) -> Parsed:
    """A content page parsed (content/parse.py Parsed), its tokens let go at once when its kind's render does not
    read them (a deck renders each slide from its text): held for every page, they were most of the memory."""
    parsed = models.parsed(page, md, registry)
    if not KINDS[page.kind].renders_tokens:
        parsed.release(md)
    return parsed


def _template_figures(
    loaded: Loaded, modeled: Modeled, env: Any, plan: list[PlannedPage]
) -> dict[str, list[tuple[str, str]]]:
    """The literal fig("key") calls of each page's template, each checked and recorded as used on the page (and
    the figures its content names)."""
    kept, registry = loaded.kept, modeled.registry
    templates = sorted({p.kind.template for p in plan})
    if kept is not None and set(templates) <= kept.template_figures.keys():
        template_figs = kept.template_figures
    else:
        template_figs = modeled.models.template_figures(env, modeled.models.paths.templates, templates)
    template_keys: dict[str, list[str]] = {}
    for name in templates:
        for key, where in template_figs[name]:
            if key not in registry.figures:
                raise BuildError(f"{where}: fig({key!r}): expected a registered figure key")
        template_keys[name] = [key for key, _ in template_figs[name]]
    for p in plan:  # every key was checked: the templates' above, the content's by check_refs
        registry.note_uses(template_keys[p.kind.template], p.url)
        if p.parsed:
            registry.note_uses([key for key, _ in p.parsed.figs], p.url)
    return template_figs


def plan_pages(parsed: list, files: dict[str, ResultsFile]) -> list[PlannedPage]:
    """Every page of the site, content and generated; two sources of one URL are an error naming both."""
    plan: list[PlannedPage] = []
    for pp in parsed:
        page = pp.page
        plan.append(
            PlannedPage(
                page.url,
                KINDS[page.kind],
                page.label,
                page.title,
                page.series,
                page.meta.get("nav"),
                page.meta.get("nav_order", 0),
                parsed=pp,
            )
        )
    for kind in KINDS.values():
        plan.extend(kind.generated(files))
    seen: dict[str, str] = {}
    for p in plan:
        if p.url in seen:
            raise BuildError(f"{p.made_from}: page /{p.url}: expected one source per URL, found {seen[p.url]} too")
        seen[p.url] = p.made_from
        top = p.url.split("/", 1)[0]
        if top in RESERVED:
            if p.url == f"{top}/":
                raise BuildError(
                    f"{p.made_from}: page /{p.url}: expected one source per URL, found {RESERVED[top]} too"
                )
            raise BuildError(f"{p.made_from}: page /{p.url}: expected a URL outside /{top}/, found one inside it")
    return plan
