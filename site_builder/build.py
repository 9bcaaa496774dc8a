"""The build, phase by phase: load → models (cached) → figures → collect → render → checks → swap.

Nothing is written into the output folder until every page has been collected; the site is built in
a temporary folder and swapped in by renames only when every phase passed.
"""

from __future__ import annotations

import json
import shutil
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from site_builder import cache as results_cache
from site_builder.collect import check_refs, parse_page
from site_builder.content import load_content
from site_builder.errors import BuildError, InputError
from site_builder.explorers import EXPLORERS
from site_builder.figures import Figure, Registry, ResultsFile, Source
from site_builder.page_kinds import KINDS
from site_builder.paths import Options, Paths
from site_builder.plan import PlannedPage, navigation
from site_builder.producers import (
    INPUT_MODULES,
    PRODUCERS,
    Inputs,
    Produced,
    Producer,
    produced_results,
    vendored_results,
)
from site_builder.series import SERIES
from site_builder.sources import pins
from site_builder.sources.inputs import load_inputs

SITE_TITLE = "Fourier Optics for Training · Compute in Transit"
VENDORED = "experiment_vendored"


@dataclass
class Summary:
    pages: int = 0
    figures: int = 0
    seconds: float = 0.0
    stages: list[tuple[str, float, str]] = field(default_factory=list)
    computed: list[str] = field(default_factory=list)  # models recomputed (cache misses)


class Models:
    """The models' outputs, each read from the cache or computed (loading the inputs only if needed)."""

    def __init__(self, paths: Paths, digests: list[str]) -> None:
        self.paths = paths
        self.digests = digests
        self.cache = results_cache.ResultsCache(paths.cache)
        self._inputs: Inputs | None = None

    @property
    def inputs(self) -> Inputs:
        if self._inputs is None:
            self._inputs = load_inputs(self.paths)
        return self._inputs

    def produced(self, p: Producer) -> Produced:
        def compute() -> str:
            try:
                return Produced.of(p.build(self.inputs)).to_cache()
            except BuildError:
                raise
            except (ValueError, KeyError, ZeroDivisionError) as e:
                raise BuildError(f"model {p.name}: {type(e).__name__}: {e}") from None

        key = results_cache.key_of(p.entries, self.digests)
        return Produced.from_cache(self.cache.get_or_compute(p.name, key, compute))

    def vendored_figures(self, rf: ResultsFile) -> list[list[object]]:
        """Figures the experiment model recomputes whose cells are in the experiment's own results.md."""

        def compute() -> str:
            from site_builder.results import experiment_vendored

            reg = Registry()
            experiment_vendored.register(reg, self.inputs.experiment, rf)
            rows = [
                [f.key, f.value, f.text, f.source.section, list(f.source.row), f.source.column]
                for f in reg.figures.values()
            ]
            return json.dumps(rows, ensure_ascii=False)

        entries = ("site_builder.results.experiment_vendored", *INPUT_MODULES)
        key = results_cache.key_of(entries, self.digests, [rf.label, rf.page])
        return json.loads(self.cache.get_or_compute(VENDORED, key, compute))


def pinned_digests(paths: Paths) -> list[str]:
    pinned = pins.load_pins(paths.pins)
    pins.verify(pinned, pins.Roots(paths.vendor, paths.reference), "data/sources.yaml")
    return [f"{root} {rel} {digest}" for root, files in sorted(pinned.items()) for rel, digest in sorted(files.items())]


def compute_all(paths: Paths, models: Models) -> dict[str, Produced]:
    return {p.name: models.produced(p) for p in PRODUCERS}


def check_drift(paths: Paths, docs: dict[str, Produced]) -> None:
    """The committed results and explorer cases must equal what the models write now, character for character."""
    expected: list[tuple[str, str]] = []
    for p in PRODUCERS:
        expected += [(f"data/{p.name}/results.md", docs[p.name].markdown)]
        expected += [(f"data/{p.name}/results.json", docs[p.name].json_text)]
    for e in EXPLORERS.values():
        expected.append((f"data/explorers/{e.name}.json", e.cases_json(docs)))
    for label, want in expected:
        path = paths.project / label
        if not path.is_file():
            raise InputError(label, "file", "the models' output (run `make results`)", "no such file")
        have = path.read_text(encoding="utf-8")
        if have != want:
            a, b = have.splitlines(), want.splitlines()
            n = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
            found = a[n][:70] if n < len(a) else "end of file"
            raise InputError(label, f"line {n + 1}", "what the model writes now (run `make results`)", repr(found))


def write_results(opts: Options, log: Callable[[str], None] = print) -> list[Path]:
    """``make results``: recompute every model (no cache read) and write data/*/results.* and the explorer cases."""
    paths = opts.paths()
    models = Models(paths, pinned_digests(paths))
    models.cache = results_cache.ResultsCache(None)
    docs = compute_all(paths, models)
    files: list[tuple[str, str]] = []
    for p in PRODUCERS:
        files += [
            (f"data/{p.name}/results.md", docs[p.name].markdown),
            (f"data/{p.name}/results.json", docs[p.name].json_text),
        ]
    files += [(f"data/explorers/{e.name}.json", e.cases_json(docs)) for e in EXPLORERS.values()]
    written = []
    for label, text in files:
        path = paths.project / label
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.tmp")
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(path)
        written.append(path)
        log(f"wrote {label}")
    return written


def build_registry(paths: Paths, models: Models, docs: dict[str, Produced]) -> tuple[Registry, dict[str, ResultsFile]]:
    registry = Registry()
    files: dict[str, ResultsFile] = {}
    vend = vendored_results(paths.vendor)
    files[vend.label] = vend
    for key, value, text, section, row, column in models.vendored_figures(vend):
        registry.add(Figure(key, value, text, Source(vend.label, section, tuple(row), column, vend.page)))  # type: ignore[arg-type]
    for p in PRODUCERS:
        rf = produced_results(paths.project, p)
        rf.series = p.series
        files[rf.label] = rf
        for c in docs[p.name].keyed_cells():
            registry.add(Figure(c.key, c.value, c.text, Source(rf.label, c.section, (c.row,), c.column, rf.page)))
    return registry, files


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
    nav_titles = {"vendor": "Experiment results"}
    for i, rf in enumerate(files.values()):
        nav = nav_titles.get(rf.label.split("/", 1)[0], rf.title)
        plan.append(PlannedPage(rf.page, KINDS["results"], rf.label, rf.title, rf.series, nav, 10 + i, results=rf))
    plan.append(PlannedPage("figures/", KINDS["figures"], "templates/figures.html", "Every number on the site"))
    seen: dict[str, str] = {"assets/": "the site's assets (site_builder/static/)"}
    for p in plan:
        if p.url in seen:
            raise BuildError(f"{p.made_from}: page /{p.url}: expected one source per URL, found {seen[p.url]} too")
        seen[p.url] = p.made_from
    for p in plan:
        if p.url.startswith("assets/"):
            raise BuildError(f"{p.made_from}: page /{p.url}: expected a URL outside /assets/, found one inside it")
    return plan


def build(opts: Options, log: Callable[[str], None] = print) -> Summary:
    from site_builder.render.links import check_links
    from site_builder.render.markdown import make_markdown
    from site_builder.render.pages import PageRenderer
    from site_builder.render.templates import fig_keys, make_env

    paths = opts.paths()
    summary = Summary()
    t_start = time.perf_counter()

    def stage(name: str, t0: float, note: str) -> None:
        dt = time.perf_counter() - t0
        summary.stages.append((name, dt, note))
        log(f"{name:<8} {dt:6.2f} s  {note}")

    t0 = time.perf_counter()
    digests = pinned_digests(paths)
    pages = load_content(paths.content)
    stage("load", t0, f"{len(digests)} pinned inputs verified, {len(pages)} content pages")

    t0 = time.perf_counter()
    models = Models(paths, digests)
    docs = compute_all(paths, models)
    check_drift(paths, docs)
    c = models.cache
    stage("models", t0, f"{len(docs)} results documents ({len(c.misses)} computed, {len(c.hits)} from cache), no drift")

    t0 = time.perf_counter()
    registry, files = build_registry(paths, models, docs)
    checked = registry.check_cells(files)
    summary.computed = list(models.cache.misses)
    stage("figures", t0, f"{checked} figures equal their results cells")

    t0 = time.perf_counter()
    md = make_markdown()
    env = make_env(paths.templates)
    parsed = [parse_page(p, md) for p in pages]
    for pp in parsed:
        check_refs(pp, registry.figures, EXPLORERS)
    plan = plan_pages(parsed, files)
    template_figs = {k.template: fig_keys(env, k.template) for k in {p.kind for p in plan}}
    for p in plan:
        for key, where in template_figs[p.kind.template]:
            if key not in registry.figures:
                raise BuildError(f"{where}: fig({key!r}): expected a registered figure key")
            registry.use(key, p.url)
        for key, _ in p.parsed.figs if p.parsed else ():
            registry.use(key, p.url)
    charts = sorted({n for p in plan for n in p.charts})
    explorer_data = {n: EXPLORERS[n].payload(docs) for n in charts}
    stage("collect", t0, f"{len(plan)} pages, {sum(len(v) for v in registry.used_on.values())} figure uses")

    out = paths.out
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.tmp-", dir=out.parent))
    try:
        t0 = time.perf_counter()
        nav = navigation(plan, {k: s.title for k, s in SERIES.items()})
        renderer = PageRenderer(env, md, tmp, registry, nav, SITE_TITLE, explorer_data)
        for p in plan:
            renderer.render(p)
        renderer.write_static()
        (tmp / "figures.json").write_text(json.dumps(registry.to_json(), indent=1, ensure_ascii=False), "utf-8")
        stage("render", t0, f"{len(plan)} pages")

        t0 = time.perf_counter()
        n_links = check_links(tmp, {p.url: p.made_from for p in plan})
        stage("checks", t0, f"{n_links} internal links and anchors resolve")
        _swap(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    summary.pages = len(plan)
    summary.figures = len(registry.figures)
    summary.seconds = time.perf_counter() - t_start
    log(f"built {summary.pages} pages, {summary.figures} figures in {summary.seconds:.2f} s -> {out}")
    return summary


def _swap(tmp: Path, out: Path) -> None:
    """Replace ``out`` by ``tmp`` with renames only, so a reader never sees a half-written site."""
    old = None
    if out.exists():
        old = out.parent / f".{out.name}.old-{tmp.name.rsplit('-', 1)[-1]}"
        out.rename(old)
    tmp.rename(out)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


__all__ = ["Options", "Summary", "build", "load_inputs", "write_results"]
