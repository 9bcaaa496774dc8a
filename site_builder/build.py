"""The build, phase by phase: load → models (cached) → figures → collect → render → checks → swap.

Nothing is written into the output folder until every page has been collected; the site is built in
a temporary folder and swapped in by renames only when every phase passed.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import signal
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from site_builder import basis, outdir, parity, print_phase, processes, uptodate
from site_builder import cache as results_cache
from site_builder.assemble import collect_series
from site_builder.collect import Parsed, check_refs, parse_page
from site_builder.content import FrontMatter, Page, load_content
from site_builder.errors import BuildError, InputError
from site_builder.explorers import EXPLORERS, Explorer
from site_builder.figures import Figure, Figures, Registry, ResultsFile, Source
from site_builder.glossary import load_glossary
from site_builder.mdtables import MdSection, MdTable
from site_builder.page_kinds import KINDS
from site_builder.paths import Options, Paths
from site_builder.plan import PlannedPage, navigation
from site_builder.producers import (
    INPUT_MODULES,
    PRODUCERS,
    VENDORED_RESULTS_MD,
    Inputs,
    Produced,
    Producer,
    produced_results,
    vendored_results,
)
from site_builder.records import figures_shown, fixed_records
from site_builder.series import SERIES
from site_builder.sources.reading import DATA_MAX_BYTES, links_stay_inside, read_text

if TYPE_CHECKING:
    from markdown_it import MarkdownIt

    from site_builder.sources import pins

SITE_TITLE = "Fourier Optics for Training · Compute in Transit"
VENDORED = "experiment_vendored"
RESERVED = {
    "assets": "the site's assets (site_builder/static/)",
    "figures.json": "the figure list (figures.json)",
    "search": "the search index (search/)",
    "sitemap.xml": "the sitemap (sitemap.xml)",
    outdir.MARKER: f"the build's marker file ({outdir.MARKER})",
}
"""First URL segments the build writes itself: no page may live at or under them."""


@dataclass
class Summary:
    pages: int = 0
    figures: int = 0
    seconds: float = 0.0
    stages: list[tuple[str, float, str]] = field(default_factory=list)
    computed: list[str] = field(default_factory=list)  # models recomputed (cache misses)
    output: dict[str, Any] = field(default_factory=dict)  # what was written (uptodate.Record.output)
    printed: list[str] = field(default_factory=list)  # the decks' PDFs printed in Chromium (not from the store)


class Models:
    """The models' outputs, each read from the cache or computed (loading the inputs only if needed)."""

    def __init__(self, paths: Paths, digests: list[str], pinned: pins.Pinned | None = None) -> None:
        self.paths = paths
        self.digests = digests
        self.pinned = pinned
        self.cache = results_cache.ResultsCache(paths.cache)
        self._inputs: Inputs | None = None
        self._figure_texts: str | None = None
        self._parse_code: str | None = None
        self._doc_digests: tuple[dict[str, Produced], list[str]] | None = None
        self.payload_digests: dict[str, str] = {}  # explorer -> SHA-256 of its payload's JSON

    @property
    def inputs(self) -> Inputs:
        if self._inputs is None:
            from site_builder.sources.inputs import load_inputs

            self._inputs = load_inputs(self.paths, self.pinned)
        return self._inputs

    def _compute(self, p: Producer) -> str:
        try:
            return Produced.of(p.build(self.inputs)).to_cache()
        except BuildError:
            raise
        except (ValueError, KeyError, ZeroDivisionError) as e:
            raise BuildError(f"model {p.name}: {type(e).__name__}: {e}") from None

    def produced(self, p: Producer) -> Produced:
        key = results_cache.key_of(p.entries, self.digests)
        return Produced.from_cache(self.cache.get_or_compute(p.name, key, lambda: self._compute(p)))

    def produce_all(self) -> dict[str, Produced]:
        """Every results document, from the cache or computed. When more than one must be computed, they are
        shared between this process and a forked one by their rough costs: the same documents, sooner on a
        machine with a core to spare."""
        keys = {p.name: results_cache.key_of(p.entries, self.digests) for p in PRODUCERS}
        texts = {p.name: t for p in PRODUCERS if (t := self.cache.read(p.name, keys[p.name])) is not None}
        misses = [p for p in PRODUCERS if p.name not in texts]
        here, beside = processes.halves(misses, lambda p: p.cost)
        side: processes.Beside[list[str]] | None = None
        if beside and processes.can_share():
            _ = self.inputs  # read once, before the fork: the child inherits them
            import numpy  # noqa: F401  (both processes compute with it: imported once, before the fork)

            side = processes.Beside(lambda: [self._compute(p) for p in beside])
        else:
            here, beside = misses, []
        try:
            for p in here:
                texts[p.name] = self._compute(p)
            if side is not None:
                texts.update(zip((p.name for p in beside), side.result(), strict=True))
        finally:
            if side is not None:
                side.cancel()
        for p in PRODUCERS:
            if p in misses:
                self.cache.misses.append(p.name)
                self.cache.write(p.name, keys[p.name], texts[p.name])
            else:
                self.cache.hits.append(p.name)
        return {p.name: Produced.from_cache(texts[p.name]) for p in PRODUCERS}

    def _explorer_key(self, e: Explorer, docs: dict[str, Produced]) -> str:
        """An explorer's cache key: its module's source and the documents it reads (hashed once per build)."""
        if self._doc_digests is None or self._doc_digests[0] is not docs:
            digests = [f"{n} {hashlib.sha256(d.json_text.encode()).hexdigest()}" for n, d in sorted(docs.items())]
            self._doc_digests = (docs, digests)
        return results_cache.key_of((e.module_name,), self.digests, self._doc_digests[1])

    def explorer_cases(self, e: Explorer, docs: dict[str, Produced]) -> str:
        """An explorer's parity cases (cached: keyed by its module's source and the documents they come from)."""
        return self.cache.get_or_compute(f"cases-{e.name}", self._explorer_key(e, docs), lambda: e.cases_json(docs))

    def explorer_payload(self, e: Explorer, docs: dict[str, Produced]) -> str:
        """The data an explorer's page code draws, as the JSON text the page embeds (cached like its cases)."""
        key = self._explorer_key(e, docs)

        def compute() -> str:
            return json.dumps(e.payload(docs), ensure_ascii=False, allow_nan=False, separators=(",", ":"))

        text = self.cache.get_or_compute(f"payload-{e.name}", key, compute)
        self.payload_digests[e.name] = hashlib.sha256(text.encode()).hexdigest()
        return text

    def figure_texts(self, registry: Registry) -> str:
        """A SHA-256 over every figure's key and text (computed once per build)."""
        if self._figure_texts is None:
            h = hashlib.sha256()
            for f in registry.figures.values():
                h.update(f"{f.key}\0{f.text}\n".encode())
            self._figure_texts = h.hexdigest()
        return self._figure_texts

    def parsed(self, page: Page, md: MarkdownIt, registry: Registry) -> Parsed:
        """A content page and what it references (cached as JSON: keyed by its text, the parser's source and the
        figures' texts, which give the ids of headings that hold a figure). Its tokens are parsed again only if
        the page is rendered (reading them back from JSON costs what parsing does). A page with an error is never
        cached: it is parsed again."""
        if self._parse_code is None:  # the parser's source and the pinned inputs: once per build
            self._parse_code = results_cache.key_of(("site_builder.collect",), self.digests)
        h = hashlib.sha256(f"{self._parse_code}\n{self.figure_texts(registry)}\n{page.label}\0".encode())
        h.update(page.body.encode())
        key = h.hexdigest()
        name = results_cache.entry_name("parse", page.label)
        body = self.cache.read_bytes(name, key)
        refs = _refs_of(body) if body is not None else None
        if refs is not None:
            figs, charts, terms = refs
            return Parsed(page, None, figs, charts, terms, load_tokens=lambda: parse_page(page, md).tokens)
        got = parse_page(page, md)
        doc = {"figs": got.figs, "charts": got.charts, "terms": got.terms}
        self.cache.write_bytes(name, key, json.dumps(doc, ensure_ascii=False).encode())
        return got

    def template_figures(self, env: Any, folder: Path, names: list[str]) -> dict[str, list[tuple[str, str]]]:
        """The literal ``fig("key")`` calls of each page template, its parents and includes (cached: keyed by
        every template file's bytes and the scanning code)."""
        from site_builder.render.templates import fig_keys

        h = hashlib.sha256()
        for label, path in uptodate.walk(str(folder), ""):
            with open(path, "rb") as f:
                h.update(f"{label}\0{hashlib.file_digest(f, 'sha256').hexdigest()}\n".encode())
        key = results_cache.key_of(("site_builder.render.templates",), [h.hexdigest()], names)

        def compute() -> str:
            scanned: dict[str, Any] = {}
            return json.dumps({n: sorted(fig_keys(env, n, scanned)) for n in names}, ensure_ascii=False)

        found = json.loads(self.cache.get_or_compute("template-figures", key, compute))
        return {n: [(k, where) for k, where in found[n]] for n in names}

    def load_sections(self, rf: ResultsFile) -> None:
        """A results file's sections and tables (cached as JSON: keyed by its text and the table parser's source)."""
        text = hashlib.sha256(rf.text.encode()).hexdigest()
        key = results_cache.key_of(("site_builder.mdtables",), [text])
        name = results_cache.entry_name("sections", rf.label)
        body = self.cache.read_bytes(name, key)
        got = _sections_of(body) if body is not None else None
        if got is not None:
            rf.__dict__["sections"] = got  # what the cached property would compute
            return
        doc = [[s.title, s.level, s.line, [[t.line, t.columns, t.rows] for t in s.tables]] for s in rf.sections]
        self.cache.write_bytes(name, key, json.dumps(doc, ensure_ascii=False).encode())

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


Refs = list[tuple[str, str]]


def _pairs(value: object) -> Refs:
    if not isinstance(value, list) or not all(
        isinstance(x, list) and len(x) == 2 and all(isinstance(y, str) for y in x) for x in value
    ):
        raise ValueError("not a list of pairs of strings")
    return [(a, b) for a, b in value]


def _refs_of(body: bytes) -> tuple[Refs, Refs, Refs] | None:
    """A parse entry's figure, chart and term references, or None when it is not what this code writes."""
    try:
        doc = json.loads(body)
        return _pairs(doc["figs"]), _pairs(doc["charts"]), _pairs(doc["terms"])
    except (ValueError, KeyError, TypeError):
        return None


def _strings(value: object) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
        raise ValueError("not a list of strings")
    return value


def _sections_of(body: bytes) -> list[MdSection] | None:
    """A sections entry as parsed sections, or None when it is not what this code writes."""
    try:
        out = []
        for title, level, line, tables in json.loads(body):
            if not isinstance(title, str) or type(level) is not int or type(line) is not int:
                return None
            section = MdSection(title, level, line)
            for t_line, columns, rows in tables:
                if type(t_line) is not int:
                    return None
                section.tables.append(MdTable(t_line, _strings(columns), [_strings(r) for r in rows]))
            out.append(section)
        return out
    except (ValueError, TypeError):
        return None


def load_pinned(paths: Paths) -> pins.Pinned:
    """The verified pins; every file the build reads from the vendor and reference folders is among them."""
    from site_builder.sources import pins  # a build that reuses the basis (site_builder/basis.py) reads no pins

    return pins.load_pinned(paths.pins, pins.Roots(paths.vendor, paths.reference), paths.label(paths.pins))


def pinned_digests(paths: Paths) -> list[str]:
    return load_pinned(paths).digests()


def compute_all(paths: Paths, models: Models) -> dict[str, Produced]:
    return models.produce_all()


def check_drift(paths: Paths, docs: dict[str, Produced], models: Models | None = None) -> None:
    """The committed results and explorer cases must equal what the models write now, character for character."""
    expected: list[tuple[str, str]] = []
    for p in PRODUCERS:
        expected += [(f"data/{p.name}/results.md", docs[p.name].markdown)]
        expected += [(f"data/{p.name}/results.json", docs[p.name].json_text)]
    for e in EXPLORERS.values():
        cases = models.explorer_cases(e, docs) if models is not None else e.cases_json(docs)
        expected.append((f"data/explorers/{e.name}.json", cases))
    for label, want in expected:
        path = paths.project / label
        if not os.path.lexists(path):
            raise InputError(label, "file", "the models' output (run `make results`)", "no such file")
        have = read_text(path, label, DATA_MAX_BYTES)
        if have != want:
            a, b = have.splitlines(), want.splitlines()
            n = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
            found = a[n][:70] if n < len(a) else "end of file"
            raise InputError(label, f"line {n + 1}", "what the model writes now (run `make results`)", repr(found))


def write_results(opts: Options, log: Callable[[str], None] = print) -> list[Path]:
    """``make results``: recompute every model (no cache read) and write data/*/results.* and the explorer cases."""
    paths = opts.paths()
    pinned = load_pinned(paths)
    models = Models(paths, pinned.digests(), pinned)
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
        with _writing(label):
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_name(f".{path.name}.tmp")
            tmp.write_text(text, encoding="utf-8")
            tmp.replace(path)
        written.append(path)
        log(f"wrote {label}")
    return written


@contextlib.contextmanager
def _writing(label: str) -> Iterator[None]:
    """An OSError while writing (a full disk, a read-only folder…) as one line naming what was written."""
    try:
        yield
    except OSError as e:
        reason = (e.strerror or type(e).__name__).lower()
        where = f" ({e.filename})" if e.filename else ""
        raise BuildError(f"{label}: write: expected room to write{where}, found {reason}") from None


def results_files(paths: Paths, pinned: pins.Pinned | None = None) -> dict[str, ResultsFile]:
    """The results files figures point at: the vendored results.md (read through its pin when ``pinned``) and
    each producer's committed results.md, by label. Always from the declarations, never from a cache."""
    vend = vendored_results(paths.vendor)
    if pinned is not None:
        vendor = pinned.folder("vendor")
        vend.read = lambda: vendor.read_text(VENDORED_RESULTS_MD)
    files = {vend.label: vend}
    for p in PRODUCERS:
        rf = produced_results(paths.project, p)
        rf.series = p.series
        files[rf.label] = rf
    return files


def build_registry(paths: Paths, models: Models, docs: dict[str, Produced]) -> tuple[Registry, dict[str, ResultsFile]]:
    registry = Registry()
    files = results_files(paths, models.pinned)
    vend = files[f"vendor/{VENDORED_RESULTS_MD}"]
    for key, value, text, section, row, column in models.vendored_figures(vend):
        registry.add(Figure(key, value, text, Source(vend.label, section, tuple(row), column, vend.page)))  # type: ignore[arg-type]
    for p in PRODUCERS:
        rf = files[f"data/{p.name}/results.md"]
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
    plan.append(PlannedPage("404.html", KINDS["notfound"], "templates/404.html", "Page not found"))
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


def build(opts: Options, log: Callable[[str], None] = print, state: uptodate.State | None = None) -> Summary:
    """Build the site into ``--out``: checked before anything is written, built in a temporary folder next
    to it and swapped in by renames only when every phase passed. SIGTERM/SIGINT stop it cleanly.

    If no input changed since the last build into ``--out`` and the folder is as that build left it, nothing
    is done (:mod:`site_builder.uptodate`); ``state`` is that check when the caller already made it."""
    t_start = time.perf_counter()
    paths = opts.paths()
    # the path as given (a symbolic link is refused, not followed), before anything is written
    outdir.check_out(opts.out if opts.out is not None else paths.out, paths.protected(), project=paths.project)
    state = state if state is not None else uptodate.check(opts)
    if state.record is not None:
        uptodate.skip(opts, state.record, log)
        return Summary(state.record.pages, state.record.figures, time.perf_counter() - t_start)
    with outdir.interrupts_as_errors():
        outdir.remove_stale_tmp(paths.out)
        results_cache.IMPORT_MEMO.load(paths.cache)
        try:
            # processes started beside the build are stopped with it; the cache keys take the source files' digests
            # from the up-to-date check
            with contextlib.ExitStack() as children, results_cache.hashed(state.files):
                summary = _build(opts, paths, log, state, children)
        except outdir.Interrupted:
            _remove_own_tmp(paths.out)
            raise
        results_cache.IMPORT_MEMO.save()
        uptodate.remember(opts, state, summary.pages, summary.figures, summary.output)
    return summary


def _build(
    opts: Options, paths: Paths, log: Callable[[str], None], state: uptodate.State, children: contextlib.ExitStack
) -> Summary:
    from site_builder import page_scan, search
    from site_builder.render import extras, keys
    from site_builder.render.carry import Carry
    from site_builder.render.links import check_links
    from site_builder.render.markdown import make_markdown
    from site_builder.render.pages import PageRenderer
    from site_builder.render.templates import make_env

    summary = Summary()
    t_start = time.perf_counter()
    base_url = extras.site_url(opts.site_url)

    def stage(name: str, t0: float, note: str) -> None:
        dt = time.perf_counter() - t0
        summary.stages.append((name, dt, note))
        log(f"{name:<8} {dt:6.2f} s  {note}")

    t0 = time.perf_counter()
    store = results_cache.ResultsCache(paths.cache)
    kept = basis.read(store, state.basis) if state.basis and store.folder is not None else None
    front = FrontMatter(kept.front_matter if kept is not None else None)
    for folder in (paths.templates, paths.data):  # content/ is checked as it is read
        links_stay_inside(folder, folder.name, paths.project)
    pages = load_content(paths.content, front)
    if kept is None:
        pinned: pins.Pinned | None = load_pinned(paths)
        assert pinned is not None
        digests = pinned.digests()
        stage("load", t0, f"{len(digests)} pinned inputs verified, {len(pages)} content pages")
    else:
        pinned, digests = None, kept.digests
        stage("load", t0, f"{len(digests)} pinned inputs as verified before (unchanged), {len(pages)} content pages")

    t0 = time.perf_counter()
    models = Models(paths, digests, pinned)
    models.cache = store
    docs: dict[str, Produced] | None = None
    drift_side: processes.Beside[tuple[list[str], int]] | None = None
    # the checks below read only the code, data/ and the pinned inputs: the same files as the last successful
    # build into --out read means the same verdict, so they are not run again
    checked_before = state.unchanged(*(f"{d}/" for d in ("site_builder", "data", "vendor", "reference")))
    if kept is not None:
        # every input but content/ is as at a build that passed every check: its figures and verdicts hold
        registry, files = Registry(Figures(kept.figures)), results_files(paths)
        models._figure_texts = kept.figure_texts
        again = "as an earlier build from the same inputs (all but content/) found them"
        stage("models", t0, f"{len(PRODUCERS)} results documents, no drift, {again}")
        stage("figures", time.perf_counter(), f"{len(registry.figures)} figures equal their results cells, {again}")
    else:
        docs = compute_all(paths, models)
        n_docs = (
            f"{len(docs)} results documents ({len(models.cache.misses)} computed, {len(models.cache.hits)} from cache)"
        )
        if checked_before:
            stage("models", t0, f"{n_docs}, no drift (inputs as at the last build)")
        elif processes.can_share():
            # the explorers' cases are computed and every committed file compared in a forked process while this
            # one renders the site, which is swapped in only if that found no drift
            computed = docs  # as computed now (``docs`` is rebound below when the basis lacks a payload)
            drift = drift_side = processes.Beside(lambda: _drift_checked(paths, computed, models))
            children.callback(drift.cancel)

            def drift_first(kind: type[BaseException] | None, error: BaseException | None, _tb: object) -> None:
                """A later phase failed: if the committed files drifted, that is the error to report (it is
                usually the cause), as when the drift check ran first."""
                if isinstance(error, BuildError) and not isinstance(error, outdir.Interrupted):
                    drift.result()

            children.push(drift_first)
            stage("models", t0, f"{n_docs}; the drift check runs beside")
        else:
            cases = _drift_checked(paths, docs, models)
            stage("models", t0, f"{n_docs}, {_cases_note(cases)}, no drift")

        t0 = time.perf_counter()
        registry, files = build_registry(paths, models, docs)
        for rf in files.values():
            models.load_sections(rf)
        checked = len(registry.figures) if checked_before else registry.check_cells(files)
        again = " (inputs as at the last build)" if checked_before else ""
        stage("figures", t0, f"{checked} figures equal their results cells{again}")
    summary.computed = list(models.cache.misses)

    def documents() -> dict[str, Produced]:
        """The results documents, when the basis lacks something made from them (an explorer no page showed)."""
        nonlocal docs
        if docs is None:
            models.pinned = models.pinned or load_pinned(paths)
            docs = compute_all(paths, models)
        return docs

    t0 = time.perf_counter()
    md = make_markdown(figure_text=lambda key: registry.figures[key].text if key in registry.figures else None)
    env = make_env(paths.templates, opts.template_seconds, paths.cache)
    parsed = [models.parsed(p, md, registry) for p in pages]
    terms = load_glossary(paths.content, front)
    for pp in parsed:
        check_refs(pp, registry.figures, EXPLORERS, terms)
    plan = plan_pages(parsed, files)
    series_data = collect_series(plan, files, terms, md, registry)
    templates = sorted({p.kind.template for p in plan})
    if kept is not None and set(templates) <= kept.template_figures.keys():
        template_figs = kept.template_figures
    else:
        template_figs = models.template_figures(env, paths.templates, templates)
    for p in plan:
        for key, where in template_figs[p.kind.template]:
            if key not in registry.figures:
                raise BuildError(f"{where}: fig({key!r}): expected a registered figure key")
            registry.use(key, p.url)
        for key, _ in p.parsed.figs if p.parsed else ():
            registry.use(key, p.url)
    fixed = kept.records if kept is not None else fixed_records(paths.project, digests, registry, files)
    for p in plan:
        if p.kind.name == "method":
            p.extra["records"] = {**fixed, "figures": figures_shown(registry, files)}
    figures_digest = kept.figures_digest if kept is not None else keys.figures_digest(registry)
    charts = sorted({n for p in plan for n in p.charts})
    explorer_data: dict[str, str] = {}
    for n in charts:
        if kept is not None and n in kept.payloads:
            explorer_data[n], models.payload_digests[n] = kept.payloads[n]
        else:
            explorer_data[n] = models.explorer_payload(EXPLORERS[n], documents())
    stage("collect", t0, f"{len(plan)} pages, {sum(len(v) for v in registry.used_on.values())} figure uses")

    out = paths.out
    out_label = f"--out {out}"
    tmp = outdir.new_tmp(out)
    try:
        t0 = time.perf_counter()
        nav = navigation(plan, {k: s.title for k, s in SERIES.items()})
        with _writing(out_label):
            renderer = PageRenderer(env, md, tmp, registry, nav, SITE_TITLE, explorer_data)
            renderer.series = series_data
            renderer.titles = {p.url: p.title for p in plan if p.kind.name != "notfound"}
            renderer.series_titles = {k: s.title for k, s in SERIES.items()}
            renderer.files = files
            if kept is not None:
                renderer.pins = kept.pins
            elif models.pinned is not None:
                vendor_pins = models.pinned.pins.get("vendor", {})
                renderer.pins = {
                    rf.label: f"vendor {rel} {vendor_pins[rel]}"
                    for rf in files.values()
                    if rf.label.startswith("vendor/") and (rel := rf.label.removeprefix("vendor/")) in vendor_pins
                }
            if state.intact and state.output:
                renderer.carry = Carry(out, tmp, state.output)
            page_keys: dict[str, str] = {}
            if state.files and models.cache.folder is not None:  # the inputs were hashed: pages can be reused
                renderer.cache = models.cache
                # every input but the content pages and glossary entries (their parts are in the keys) and the
                # static files (copied as they are: no page holds their bytes; the method page lists the vendored
                # ones' digests, and that list is in its own key)
                code = [
                    (k, v)
                    for k, v in state.files.items()
                    if not (k.startswith("content/") and k.endswith(".md")) and not k.startswith("site_builder/static/")
                ]
                # every object the renderer was given, whole (render/keys.py): no list of what a page may read
                site_state = keys.site_state(
                    hashlib.sha256(json.dumps([code, opts.site_url]).encode()).hexdigest(),
                    registry,
                    figures_digest,
                    SITE_TITLE,
                    nav,
                    renderer.titles,
                    renderer.series_titles,
                    renderer.pins,
                    files,
                    series_data,
                )
                page_keys = {p.url: keys.page_key(site_state, p, models.payload_digests) for p in plan}
            theirs = _shared_out(plan, renderer, page_keys)
            render_side: processes.Beside[tuple[dict[str, str], list[str], bool]] | None = None
            if theirs:  # half the pages to render are rendered in a forked process, writing into the same folder
                render_side = processes.Beside(lambda: renderer.render_part(theirs, page_keys))
                children.callback(render_side.cancel)
            shared = {p.url for p in theirs}
            for p in plan:
                if p.url not in shared:
                    renderer.render(p, page_keys.get(p.url))
            if render_side is not None:
                renderer.merge_part(render_side.result(), [p.url for p in plan])
            renderer.write_static(unchanged=state.unchanged("site_builder/static/"))
            renderer.write_downloads(files, unchanged=state.unchanged("data/"))
            (tmp / "sitemap.xml").write_text(extras.sitemap(list(renderer.titles), base_url), "utf-8")

            def figure_list() -> str:
                return json.dumps(registry.to_json(files), separators=(",", ":"), ensure_ascii=False)

            # all it holds (the figures, the pages using them, the files) is in the figure index page's key
            index_key = page_keys.get("figures/")
            figures_json = (
                models.cache.get_or_compute("figures-json", index_key, figure_list) if index_key else figure_list()
            )
            (tmp / "figures.json").write_text(figures_json, "utf-8")
        reused = f" ({len(renderer.reused)} unchanged, from the cache)" if renderer.reused else ""
        stage("render", t0, f"{len(plan)} pages{reused}")
        t0 = time.perf_counter()
        decks = {d.page.url: d.pdf for d in series_data.decks}
        store_pdfs = print_phase.store_folder(opts, log) if opts.print_decks else None
        printed = print_phase.run(tmp, decks, store_pdfs, renderer.digests, opts.print_decks)
        stage("print", t0, printed.note())
        summary.printed = printed.printed

        # each page that the link check and the search index have not read yet is parsed once for both
        t0 = time.perf_counter()
        scanned = page_scan.prefill(tmp, renderer.digests, paths.cache) if paths.cache is not None else 0
        if scanned:
            stage("scan", t0, f"{scanned} new pages parsed once for the link check and the search index")
        t_checks = time.perf_counter()
        made_from = {p.url: p.made_from for p in plan}
        checks_note = "internal links and anchors resolve, no external resource, no inline script"

        def links() -> int:
            return check_links(
                tmp,
                made_from,
                pages=renderer.written,
                cache=paths.cache,
                unprinted=frozenset(printed.written) if printed.skipped else frozenset(),
                digests=renderer.digests,
            )

        # many pages new (their render was shared out): their links are read beside the search index's extraction
        link_side = processes.Beside(links) if theirs else None
        if link_side is not None:
            children.callback(link_side.cancel)
        else:
            stage("checks", t_checks, f"{links()} {checks_note}")

        t0 = time.perf_counter()
        previous = None  # the last build's index, updated where pages changed when it can be
        if renderer.carry is not None and isinstance(state.output.get("search"), str):
            previous = search.Previous(out, state.output["search"], renderer.carry.digests())
        n_files, reused = search.build_index(tmp, paths.cache, renderer.digests, previous, written=scanned > 0)
        n_pages = sum(1 for u in renderer.digests if not u.endswith(".html"))
        stage(
            "search",
            t0,
            f"{n_files} index files for {n_pages} pages ({n_pages - reused + scanned} extracted, {reused - scanned} from "
            "the cache)",
        )
        if link_side is not None:
            stage("checks", t_checks, f"{link_side.result()} {checks_note} (beside the search index)")
        if drift_side is not None:
            t0 = time.perf_counter()
            cases = drift_side.result()
            summary.computed += cases[0]
            stage("drift", t0, f"{_cases_note(cases)}: results and cases equal the committed files, no drift")
        t0 = time.perf_counter()
        # whatever the caches held: every figure written is read back against its cell in the files on disk
        unchanged_list = renderer.carry is not None and renderer.carry.same_bytes("figures.json", figures_json)
        shown = parity.check_built(
            {p.url: renderer.written[p.url] for p in plan if p.url in renderer.written},
            None if unchanged_list else figures_json,
            parity.Cells(paths.project, paths.vendor),
        )
        carried = len(plan) - sum(1 for p in plan if p.url in renderer.written)
        stage(
            "parity",
            t0,
            f"{shown} figures written equal their cells in the results files on disk ({carried} pages carried)",
        )
        _swap(tmp, out)
    except BaseException as error:
        try:  # the processes beside (which may be writing into the folder) stop first; a drift found wins
            children.__exit__(type(error), error, error.__traceback__)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        raise
    summary.output = {**renderer.output(page_keys), "search": search.code_key()}
    if store.folder is not None and state.basis:
        made = basis.Basis(
            digests,
            renderer.pins,
            Figures.rows_of(registry.figures),
            models.figure_texts(registry),
            figures_digest,
            fixed,
            {
                **(kept.payloads if kept is not None else {}),
                **{n: (explorer_data[n], models.payload_digests[n]) for n in charts},
            },
            {**(kept.template_figures if kept is not None else {}), **template_figs},
            front.used,
        )
        basis.write(store, state.basis, made, kept)
    summary.pages = len(plan)
    summary.figures = len(registry.figures)
    summary.seconds = time.perf_counter() - t_start
    log(f"built {summary.pages} pages, {summary.figures} figures in {summary.seconds:.2f} s -> {out}")
    return summary


RENDER_SHARED_FROM = 4  # pages to render (not from the cache) from which half are rendered in another process


def _shared_out(plan: list[PlannedPage], renderer: Any, page_keys: dict[str, str]) -> list[PlannedPage]:
    """The pages a forked process renders: about half the work of the pages not in the cache (their sources'
    sizes as the measure), or none when there are few of them or no process to spare."""
    todo = [p for p in plan if not renderer.cached(p, page_keys.get(p.url))]
    if len(todo) < RENDER_SHARED_FROM or not processes.can_share():
        return []

    def size(p: PlannedPage) -> int:
        if p.parsed is not None:
            return len(p.parsed.page.body)
        return len(p.results.text) if p.results is not None else 20_000

    return processes.halves(todo, size)[1]


def _drift_checked(paths: Paths, docs: dict[str, Produced], models: Models) -> tuple[list[str], int]:
    """:func:`check_drift`; returns the cache entries it computed (explorers' cases) and how many it read."""
    misses, hits = len(models.cache.misses), len(models.cache.hits)
    check_drift(paths, docs, models)
    return models.cache.misses[misses:], len(models.cache.hits) - hits


def _cases_note(counts: tuple[list[str], int]) -> str:
    return f"{len(EXPLORERS)} explorers' cases ({len(counts[0])} computed, {counts[1]} from cache)"


def _remove_own_tmp(out: Path) -> None:
    """Remove this process's temporary folders next to ``out`` (an interrupt may land between their making
    and the ``try`` that removes them)."""
    prefix = f".{out.name}.tmp-{os.getpid()}-"
    with contextlib.suppress(OSError):
        for entry in os.scandir(out.parent):
            if entry.name.startswith(prefix) and entry.is_dir(follow_symlinks=False):
                shutil.rmtree(entry.path, ignore_errors=True)


_SIGNALS = {s for s in (getattr(signal, "SIGTERM", None), getattr(signal, "SIGINT", None)) if s is not None}


def _swap(tmp: Path, out: Path) -> None:
    """Replace ``out`` by ``tmp`` with renames only, SIGTERM/SIGINT held back meanwhile: a signal between the
    two renames would leave the previous site under its temporary ``.old`` name. A signal that arrived
    during the swap is raised as soon as it is done (the new site is then in place)."""
    old = signal.pthread_sigmask(signal.SIG_BLOCK, _SIGNALS) if hasattr(signal, "pthread_sigmask") else None
    try:
        outdir.swap_in(tmp, out)
    finally:
        if old is not None:
            try:
                signal.pthread_sigmask(signal.SIG_SETMASK, old)  # a pending signal's handler runs here
            except outdir.Interrupted as e:
                e.args = (str(e).replace("nothing was written", f"the new site was already in place in {out}"),)
                raise


__all__ = ["Options", "Summary", "build", "write_results"]
