"""The build, stage by stage: load, models, figures, render, checks; then swap the output in atomically."""

from __future__ import annotations

import json
import shutil
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from site_builder.content import Page, check_fig_keys, load_content
from site_builder.errors import BuildError, InputError
from site_builder.figures import Registry, ResultsFile
from site_builder.results import experiment_vendored
from site_builder.results_doc import ResultsDoc
from site_builder.site import PRODUCERS, Inputs, Producer, produced_results, vendored_results
from site_builder.sources import pins
from site_builder.sources.experiment import load_experiment

PROJECT = Path(__file__).resolve().parent.parent


@dataclass
class Options:
    project: Path = PROJECT
    out: Path | None = None
    vendor: Path | None = None
    reference: Path | None = None

    def resolved(self) -> tuple[Path, Path, Path]:
        out = self.out if self.out is not None else self.project / "site"
        vendor = self.vendor if self.vendor is not None else self.project.parent / "shared" / "vendor"
        reference = self.reference if self.reference is not None else self.project.parent / "shared" / "reference"
        return out.resolve(), vendor.resolve(), reference.resolve()


@dataclass
class Summary:
    pages: int = 0
    figures: int = 0
    seconds: float = 0.0
    stages: list[tuple[str, float, str]] = field(default_factory=list)


def load_inputs(opts: Options) -> Inputs:
    _, vendor, reference = opts.resolved()
    pin_file = opts.project / "data" / "sources.yaml"
    pinned = pins.load_pins(pin_file)
    pins.verify(pinned, pins.Roots(vendor, reference), "data/sources.yaml")
    experiment = load_experiment(vendor)
    presets_path = reference / "presets.yaml"
    try:
        presets = yaml.safe_load(presets_path.read_text(encoding="utf-8"))
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f"line {mark.line + 1}" if mark is not None else "file"
        raise InputError(str(presets_path), where, "valid YAML", str(getattr(e, "problem", e))) from None
    if not isinstance(presets, dict):
        raise InputError(str(presets_path), "top level", "a mapping", type(presets).__name__)
    return Inputs(experiment, presets, str(presets_path))


def produce(inputs: Inputs) -> dict[str, ResultsDoc]:
    docs = {}
    for p in PRODUCERS:
        try:
            docs[p.name] = p.build(inputs)
        except BuildError:
            raise
        except (ValueError, KeyError, ZeroDivisionError) as e:
            raise BuildError(f"model {p.name}: {type(e).__name__}: {e}") from None
    return docs


def check_drift(project: Path, producer: Producer, doc: ResultsDoc) -> None:
    """The committed results files must equal what the model writes now."""
    folder = project / "data" / producer.name
    for name, want in (("results.md", doc.to_markdown()), ("results.json", doc.to_json())):
        path = folder / name
        label = f"data/{producer.name}/{name}"
        if not path.is_file():
            raise InputError(label, "file", "the model's results (run `make results`)", "no such file")
        have = path.read_text(encoding="utf-8")
        if have != want:
            a, b = have.splitlines(), want.splitlines()
            n = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
            found = a[n][:70] if n < len(a) else "end of file"
            raise InputError(label, f"line {n + 1}", "what the model writes now (run `make results`)", repr(found))


def write_results(opts: Options, log: Callable[[str], None] = print) -> list[Path]:
    """``make results``: run the models and write data/<name>/results.{md,json}."""
    inputs = load_inputs(opts)
    docs = produce(inputs)
    written = []
    for p in PRODUCERS:
        folder = opts.project / "data" / p.name
        folder.mkdir(parents=True, exist_ok=True)
        for name, text in (("results.md", docs[p.name].to_markdown()), ("results.json", docs[p.name].to_json())):
            tmp = folder / f".{name}.tmp"
            tmp.write_text(text, encoding="utf-8")
            tmp.replace(folder / name)
            written.append(folder / name)
            log(f"wrote data/{p.name}/{name}")
    return written


def build(opts: Options, log: Callable[[str], None] = print) -> Summary:
    from site_builder.render.site_writer import SiteWriter

    out, vendor, _ = opts.resolved()
    summary = Summary()
    t_start = time.perf_counter()

    def stage(name: str, t0: float, note: str) -> None:
        dt = time.perf_counter() - t0
        summary.stages.append((name, dt, note))
        log(f"{name:<8} {dt:6.2f} s  {note}")

    t0 = time.perf_counter()
    inputs = load_inputs(opts)
    pages = load_content(opts.project / "content")
    stage("load", t0, f"{len(inputs.experiment.runs)} runs, {len(pages)} content pages, pins verified")

    t0 = time.perf_counter()
    docs = produce(inputs)
    for p in PRODUCERS:
        check_drift(opts.project, p, docs[p.name])
    stage("models", t0, f"{len(docs)} results documents recomputed, no drift")

    t0 = time.perf_counter()
    registry = Registry()
    files: dict[str, ResultsFile] = {}
    vend = vendored_results(vendor)
    files[vend.label] = vend
    experiment_vendored.register(registry, inputs.experiment, vend)
    for p in PRODUCERS:
        rf = produced_results(opts.project, p)
        files[rf.label] = rf
        registry.add_doc(docs[p.name], rf)
    checked = registry.check_cells(files)
    for page in pages:
        check_fig_keys(page, registry.figures)
    stage("figures", t0, f"{checked} figures equal their results cells")

    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.tmp-", dir=out.parent))
    try:
        t0 = time.perf_counter()
        writer = SiteWriter(opts.project, tmp, registry, files, inputs, docs)
        n_pages = writer.write_all(pages)
        stage("render", t0, f"{n_pages} pages")

        t0 = time.perf_counter()
        (tmp / "figures.json").write_text(json.dumps(registry.to_json(), indent=1, ensure_ascii=False), "utf-8")
        n_links = writer.check_links()
        stage("checks", t0, f"{n_links} internal links and anchors resolve")
        _swap(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    summary.pages = n_pages
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


__all__ = ["Options", "Page", "Summary", "build", "write_results"]
