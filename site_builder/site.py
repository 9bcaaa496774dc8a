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


PRODUCERS: tuple[Producer, ...] = (
    Producer("experiment", "cit/experiment/derived/", "Experiment, recomputed", "cit", _experiment),
    Producer("analysis", "fopttrn/analysis/results/", "Analysis results", "fopttrn", _analysis),
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
