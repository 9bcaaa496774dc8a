"""The models' inputs, read and validated in one place: the vendored experiment and the reference presets."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from site_builder.errors import InputError, describe
from site_builder.paths import Paths
from site_builder.sources import reading
from site_builder.sources.pins import Pinned, Roots, load_pinned

if TYPE_CHECKING:
    from site_builder.models.simulation.presets import Presets
    from site_builder.sources.experiment import ExperimentData

PRESETS = "presets.yaml"


@dataclass(frozen=True)
class Inputs:
    """Everything the models need, loaded and validated."""

    experiment: ExperimentData
    presets: Presets


def load_inputs(paths: Paths, pinned: Pinned | None = None) -> Inputs:
    """Read and validate the vendored experiment and the reference presets (the models' inputs).

    Every file is read through the pins (loaded and verified here when not given): an unpinned file or
    one that changed since it was pinned is an error naming it.
    """
    from site_builder.sources.experiment import load_experiment
    from site_builder.sources.presets import validate_presets

    if pinned is None:
        pinned = load_pinned(paths.pins, Roots(paths.vendor, paths.reference))
    experiment = load_experiment(pinned.folder("vendor"))
    reference = pinned.folder("reference")
    label = reference.label(PRESETS)
    raw = reading.load_yaml(reference.read_text(PRESETS, reading.YAML_MAX_BYTES), label)
    if not isinstance(raw, dict):
        raise InputError(label, "top level", "a mapping", describe(raw))
    return Inputs(experiment, validate_presets(raw, label))
