"""The producers: the results documents the project writes with ``make results``, and where each renders.

A producer turns the loaded inputs into a :class:`~site_builder.results_doc.ResultsDoc`. Its
``entry`` module is what the results cache reads to find the source the document depends on. The
build meets the documents as :class:`Produced` (the written text), whether computed now or read
from the cache.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from site_builder.figures import ResultsFile
from site_builder.series import SERIES

if TYPE_CHECKING:
    from site_builder.results_doc import KeyedCell, ResultsDoc
    from site_builder.sources.inputs import Inputs

VENDORED_RESULTS_MD = "demo-fixed-band/tinystories-gpu/results.md"


@dataclass(frozen=True)
class Producer:
    name: str
    page: str
    nav_title: str
    series: str
    entries: tuple[str, ...]  # the modules whose source (and what they import) the document depends on
    build: Callable[[Inputs], ResultsDoc]
    cost: float = 0.1  # seconds it takes to compute, roughly (measured): only to share the work between processes
    reads: tuple[str, ...] = ()  # the roots of pinned inputs (vendor, reference) the document is computed from

    @property
    def results_label(self) -> str:
        """Its results.md as the figure registry and the decks' ``Source:`` lines name it."""
        return f"data/{self.name}/results.md"


@dataclass
class Produced:
    """A results document as written: its results.md and results.json text."""

    name: str
    markdown: str
    json_text: str

    @classmethod
    def of(cls, doc: ResultsDoc) -> Produced:
        return cls(doc.name, doc.to_markdown(), doc.to_json())

    @cached_property
    def parsed(self) -> dict[str, Any]:
        return json.loads(self.json_text)

    @property
    def data(self) -> dict[str, Any]:
        return self.parsed["data"]

    def keyed_cells(self) -> list[KeyedCell]:
        from site_builder.results_doc import KeyedCell

        return [
            KeyedCell(k, f["value"], f["text"], f["section"], f["row"], f["column"])
            for k, f in self.parsed["figures"].items()
        ]

    def to_cache(self) -> str:
        return json.dumps({"name": self.name, "markdown": self.markdown, "json": self.json_text})

    @classmethod
    def from_cache(cls, text: str) -> Produced:
        d = json.loads(text)
        return cls(d["name"], d["markdown"], d["json"])


def _experiment(inputs: Inputs) -> ResultsDoc:
    from site_builder.results.experiment import build_experiment_results

    return build_experiment_results(inputs.experiment)


def _analysis(inputs: Inputs) -> ResultsDoc:
    from site_builder.results.analysis import build_analysis_results

    return build_analysis_results()


def _simulation(inputs: Inputs) -> ResultsDoc:
    from site_builder.results.sim_inputs import sim_inputs_from
    from site_builder.results.simulation import build_simulation_results

    return build_simulation_results(sim_inputs_from(inputs.experiment), inputs.presets)


def _trainers(inputs: Inputs) -> ResultsDoc:
    from site_builder.results.trainers import build_trainers_results

    return build_trainers_results()


# Every document depends on how its inputs are read and validated, and on the glue below.
INPUT_MODULES = ("site_builder.sources.inputs", "site_builder.producers")

PRODUCERS: tuple[Producer, ...] = (
    Producer(
        "experiment",
        "cit/experiment/derived/",
        "Experiment, recomputed",
        "cit",
        ("site_builder.results.experiment", *INPUT_MODULES),
        _experiment,
        cost=0.03,
        reads=("vendor",),
    ),
    Producer(
        "analysis",
        "fopttrn/analysis/results/",
        "Analysis results",
        "fopttrn",
        ("site_builder.results.analysis", *INPUT_MODULES),
        _analysis,
        cost=0.17,
    ),
    Producer(
        "simulation",
        "cit/simulation/results/",
        "Simulation results",
        "cit",
        ("site_builder.results.simulation", "site_builder.results.sim_inputs", *INPUT_MODULES),
        _simulation,
        cost=0.45,
        reads=("vendor", "reference"),
    ),
    Producer(
        "trainers",
        "fopttrn/trainers/results/",
        "Three trainers, simulated",
        "fopttrn",
        ("site_builder.results.trainers", *INPUT_MODULES),
        _trainers,
        cost=0.22,
    ),
)
assert all(p.series in SERIES for p in PRODUCERS)


def vendored_results(vendor: Path) -> ResultsFile:
    return ResultsFile(
        label=f"vendor/{VENDORED_RESULTS_MD}",
        path=vendor / VENDORED_RESULTS_MD,
        page="cit/experiment/results/",
        title="Experiment results (as published by the experiment)",
    )


def produced_results(project: Path, p: Producer) -> ResultsFile:
    return ResultsFile(
        label=p.results_label, path=project / "data" / p.name / "results.md", page=p.page, title=p.nav_title
    )
