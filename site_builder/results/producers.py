"""The producers: the results documents the project writes with ``make results``, and where each renders.

Each results source is declared here once: its :class:`Producer` (name, page, series, results writer, the named
inputs it is computed from and any file it reads itself), the loaders of those inputs (:data:`LOADERS`) and the
vendored results file the build reads for its cells (:data:`VENDORED_RESULTS`). Everything else is derived from
these declarations: the results cache's entries, the files ``pin`` pins and the build checks are pinned
(:func:`reads`), the decks' ``Source:`` names, the provenance of a figure. A declaration that does not hold
together is a one-line error when this module is imported.

A producer turns its inputs into a :class:`~site_builder.results.doc.ResultsDoc`. The build meets the documents
as :class:`ResultsText` (the written text), whether computed now or read from the cache.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterable, Mapping
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from site_builder.datatypes import dataclass
from site_builder.errors import InputError
from site_builder.results.figures import ResultsFile
from site_builder.series import SERIES
from site_builder.sources.inputs import Inputs, InputsView, Loader
from site_builder.sources.pins import ROOTS, Pinned, Reads

if TYPE_CHECKING:
    from site_builder.paths import Paths
    from site_builder.results.doc import KeyedCell, ResultsDoc

LABEL = "site_builder/results/producers.py"

# Every document depends on how its inputs are loaded, and on the glue below.
INPUT_MODULES = ("site_builder.sources.inputs", "site_builder.results.producers")


@dataclass(frozen=True)
class Producer:
    """A results source, declared once: its page, series, writer modules and how its document is built."""

    name: str
    page: str
    nav_title: str
    series: str
    writers: tuple[str, ...]  # the results writer's modules (their source, and what they import, is in the key)
    build: Callable[[InputsView], ResultsDoc]
    # seconds it takes to compute, roughly (measured: CPU seconds, one process, 2026-12): only to share the work
    # between processes (the two halves of site_builder/processes.py halves should cost about the same)
    cost: float = 0.1
    inputs: tuple[str, ...] = ()  # the named inputs (LOADERS) the document is computed from
    reads: tuple[str, ...] = ()  # "root/pattern" of any pinned file the writer reads itself (not through an input)

    @property
    def entries(self) -> tuple[str, ...]:
        """The modules whose source (and what they import) the document depends on: the results cache's entries."""
        return entries_of(self.writers, self.inputs)

    @property
    def results_label(self) -> str:
        """Its results.md as the figure registry and the decks' ``Source:`` lines name it."""
        return f"data/{self.name}/results.md"


@dataclass(frozen=True)
class Vendored:
    """A results file the build reads as vendored, for its cells: the figures ``writers`` recompute from
    ``inputs`` are checked against it and point at it."""

    name: str  # its cache entry (the figures recomputed)
    file: str  # its path under the vendor folder
    page: str
    title: str
    writers: tuple[str, ...]
    inputs: tuple[str, ...]

    @property
    def label(self) -> str:
        return f"vendor/{self.file}"

    @property
    def reads(self) -> tuple[str, ...]:
        return (self.label,)

    @property
    def entries(self) -> tuple[str, ...]:
        return entries_of(self.writers, self.inputs)


def entries_of(writers: tuple[str, ...], inputs: tuple[str, ...]) -> tuple[str, ...]:
    return (*writers, *(LOADERS[n].module for n in inputs), *INPUT_MODULES)


@dataclass
class ResultsText:
    """A results document as written: its results.md and results.json text."""

    name: str
    markdown: str
    json_text: str

    @classmethod
    def of(cls, doc: ResultsDoc) -> ResultsText:
        return cls(doc.name, doc.to_markdown(), doc.to_json())

    @cached_property
    def parsed(self) -> dict[str, Any]:
        return json.loads(self.json_text)

    @property
    def data(self) -> dict[str, Any]:
        return self.parsed["data"]

    def keyed_cells(self) -> list[KeyedCell]:
        from site_builder.results.doc import KeyedCell

        return [
            KeyedCell(k, f["value"], f["text"], f["section"], f["row"], f["column"])
            for k, f in self.parsed["figures"].items()
        ]

    def to_cache(self) -> str:
        return json.dumps({"name": self.name, "markdown": self.markdown, "json": self.json_text})

    @classmethod
    def from_cache(cls, text: str) -> ResultsText:
        d = json.loads(text)
        return cls(d["name"], d["markdown"], d["json"])


def _experiment(inputs: InputsView) -> ResultsDoc:
    from site_builder.results.experiment import build_experiment_results

    return build_experiment_results(inputs["experiment"])


def _analysis(inputs: InputsView) -> ResultsDoc:
    from site_builder.results.analysis import build_analysis_results

    return build_analysis_results()


def _simulation(inputs: InputsView) -> ResultsDoc:
    from site_builder.results.sim_inputs import sim_inputs_from
    from site_builder.results.simulation import build_simulation_results

    return build_simulation_results(sim_inputs_from(inputs["experiment"]), inputs["presets"])


def _trainers(inputs: InputsView) -> ResultsDoc:
    from site_builder.results.trainers import build_trainers_results

    return build_trainers_results()


def _load_experiment(pinned: Pinned) -> Any:
    from site_builder.sources import experiment

    return experiment.load(pinned)


def _load_presets(pinned: Pinned) -> Any:
    from site_builder.sources import presets

    return presets.load(pinned)


# The named inputs, each loaded and validated by its module of site_builder/sources (its load(pinned), and the
# files it declares it reads, READS).
LOADERS: dict[str, Loader] = {
    x.name: x
    for x in (
        Loader("experiment", "site_builder.sources.experiment", _load_experiment),
        Loader("presets", "site_builder.sources.presets", _load_presets),
    )
}

PRODUCERS: tuple[Producer, ...] = (
    Producer(
        "experiment",
        "cit/experiment/derived/",
        "Experiment, recomputed",
        "cit",
        ("site_builder.results.experiment",),
        _experiment,
        cost=0.04,
        inputs=("experiment",),
    ),
    Producer(
        "analysis",
        "fopttrn/analysis/results/",
        "Analysis results",
        "fopttrn",
        ("site_builder.results.analysis",),
        _analysis,
        cost=0.10,
    ),
    Producer(
        "simulation",
        "cit/simulation/results/",
        "Simulation results",
        "cit",
        ("site_builder.results.simulation", "site_builder.results.sim_inputs"),
        _simulation,
        cost=0.23,
        inputs=("experiment", "presets"),
    ),
    Producer(
        "trainers",
        "fopttrn/trainers/results/",
        "Three trainers, simulated",
        "fopttrn",
        ("site_builder.results.trainers",),
        _trainers,
        cost=0.21,
    ),
)

# The experiment's own results.md, as published: the vendored results page, and the figures recomputed in its cells.
VENDORED_RESULTS = Vendored(
    "experiment_vendored",
    "demo-fixed-band/tinystories-gpu/results.md",
    "cit/experiment/results/",
    "Experiment results (as published by the experiment)",
    ("site_builder.results.experiment_vendored",),
    ("experiment",),
)


def _split(owner: str, pattern: object) -> tuple[str, str]:
    """A declared ``root/pattern`` as (root, pattern); a root not among the pins' roots is an error naming it."""
    root, _, rest = pattern.partition("/") if isinstance(pattern, str) else ("", "", "")
    if root not in ROOTS or not rest:
        raise InputError(LABEL, f"{owner}.reads", f"'root/pattern' with root one of {', '.join(ROOTS)}", repr(pattern))
    return root, rest


def check_declarations(
    producers: Iterable[Producer], vendored: Vendored, loaders: Mapping[str, Loader], series: Iterable[str]
) -> None:
    """The declarations hold together: known series and inputs, read roots among the pins' roots, each name and
    page declared once. Anything else is one line naming the producer and the field."""
    known = tuple(series)
    names: dict[str, str] = {vendored.name: "vendored results"}
    pages: dict[str, str] = {vendored.page: f"vendored results {vendored.name!r}"}
    for key, loader in loaders.items():
        if key != loader.name:
            raise InputError(LABEL, f"LOADERS[{key!r}].name", repr(key), repr(loader.name))
    for owner, inputs, reads in [(f"vendored results {vendored.name!r}", vendored.inputs, vendored.reads)] + [
        (f"producer {p.name!r}", p.inputs, p.reads) for p in producers
    ]:
        for n in inputs:
            if n not in loaders:
                raise InputError(LABEL, f"{owner}.inputs", f"inputs among LOADERS ({', '.join(loaders)})", repr(n))
        for pattern in reads:
            _split(owner, pattern)
    for p in producers:
        owner = f"producer {p.name!r}"
        if p.series not in known:
            raise InputError(LABEL, f"{owner}.series", f"one of {', '.join(known)}", repr(p.series))
        if p.name in names:
            raise InputError(LABEL, f"{owner}.name", "a name declared once", f"it also names the {names[p.name]}")
        if p.page in pages:
            raise InputError(LABEL, f"{owner}.page", "a page declared once", f"it is also the page of {pages[p.page]}")
        names[p.name], pages[p.page] = owner, owner


check_declarations(PRODUCERS, VENDORED_RESULTS, LOADERS, SERIES)


def patterns_of(reader: Producer | Vendored) -> tuple[str, ...]:
    """Every ``root/pattern`` a reader reads: its own reads and those its inputs' loaders declare."""
    out = list(reader.reads)
    for n in reader.inputs:
        declared = LOADERS[n].reads()
        if not isinstance(declared, tuple):
            raise InputError(
                LABEL, f"loader {n!r}.reads", "its module's READS, a tuple of 'root/pattern'", repr(declared)
            )
        for x in declared:
            _split(f"loader {n!r}", x)
        out += [x for x in declared if x not in out]
    return tuple(out)


def read_roots(reader: Producer | Vendored) -> tuple[str, ...]:
    """The roots of pinned inputs a reader reads, in the pins' order."""
    found = {_split(reader.name, x)[0] for x in patterns_of(reader)}
    return tuple(r for r in ROOTS if r in found)


@functools.cache
def reads() -> Reads:
    """Every file pattern the build reads from each root: what the producers and the vendored results declare."""
    out: dict[str, list[str]] = {root: [] for root in ROOTS}
    for reader in (*PRODUCERS, VENDORED_RESULTS):
        for x in patterns_of(reader):
            root, pattern = _split(f"reader {reader.name!r}", x)
            if pattern not in out[root]:
                out[root].append(pattern)
    return {root: tuple(patterns) for root, patterns in out.items()}


def inputs_from(pinned: Pinned | Callable[[], Pinned]) -> Inputs:
    """The declared inputs, each loaded through the pins when a model first asks for it."""
    return Inputs(LOADERS, pinned)


def load_inputs(paths: Paths, pinned: Pinned | None = None) -> Inputs:
    """The inputs of the project at ``paths``, through its pins (loaded and verified when first needed if not
    given): an unpinned file or one that changed since it was pinned is an error naming it."""
    from site_builder.sources.pins import Roots, load_pinned

    def pins() -> Pinned:
        return load_pinned(paths.pins, Roots(paths.vendor, paths.reference), reads(), paths.label(paths.pins))

    return Inputs(LOADERS, pinned if pinned is not None else pins)


def vendored_results(vendor: Path) -> ResultsFile:
    v = VENDORED_RESULTS
    return ResultsFile(label=v.label, path=vendor / v.file, page=v.page, title=v.title)


def produced_results(project: Path, p: Producer) -> ResultsFile:
    return ResultsFile(
        label=p.results_label, path=project / "data" / p.name / "results.md", page=p.page, title=p.nav_title
    )
