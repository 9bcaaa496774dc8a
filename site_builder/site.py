"""The site map: which results files exist, where they render, and how the build reaches them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from site_builder.figures import ResultsFile
from site_builder.results_doc import ResultsDoc
from site_builder.sources.experiment import RESULTS_MD, ExperimentData

SITE_TITLE = "Fourier Optics for Training · Compute in Transit"


@dataclass(frozen=True)
class Inputs:
    """Everything the models need, loaded and validated."""

    experiment: ExperimentData
    presets: dict[str, object]
    presets_label: str


@dataclass(frozen=True)
class Producer:
    """A results document the project writes with ``make results`` and checks for drift."""

    name: str
    page: str
    nav_title: str
    series: str
    build: Callable[[Inputs], ResultsDoc]


def _experiment(inputs: Inputs) -> ResultsDoc:
    from site_builder.results.experiment import build_experiment_results

    return build_experiment_results(inputs.experiment)


def _analysis(inputs: Inputs) -> ResultsDoc:
    from site_builder.results.analysis import build_analysis_results

    return build_analysis_results()


def _simulation(inputs: Inputs) -> ResultsDoc:
    from site_builder.models.simulation.presets import presets_from_mapping
    from site_builder.results.sim_inputs import sim_inputs_from
    from site_builder.results.simulation import build_simulation_results

    presets = presets_from_mapping(inputs.presets, inputs.presets_label)
    return build_simulation_results(sim_inputs_from(inputs.experiment), presets)


PRODUCERS: tuple[Producer, ...] = (
    Producer("experiment", "cit/experiment/derived/", "Experiment, recomputed", "cit", _experiment),
    Producer("analysis", "fopttrn/analysis/results/", "Analysis results", "fopttrn", _analysis),
    Producer("simulation", "cit/simulation/results/", "Simulation results", "cit", _simulation),
)


def vendored_results(vendor: Path) -> ResultsFile:
    return ResultsFile(
        label=f"vendor/{RESULTS_MD}",
        path=vendor / RESULTS_MD,
        page="cit/experiment/results/",
        title="Experiment results (as published by the experiment)",
    )


def produced_results(project: Path, p: Producer) -> ResultsFile:
    return ResultsFile(
        label=f"data/{p.name}/results.md", path=project / "data" / p.name / "results.md", page=p.page, title=p.nav_title
    )
