"""The models' inputs, read and validated in one place: the vendored experiment and the reference presets."""

from __future__ import annotations

from site_builder.errors import InputError
from site_builder.paths import Paths
from site_builder.producers import Inputs


def load_inputs(paths: Paths) -> Inputs:
    """Read and validate the vendored experiment and the reference presets (the models' inputs)."""
    import yaml

    from site_builder.sources.experiment import load_experiment
    from site_builder.sources.presets import validate_presets

    experiment = load_experiment(paths.vendor)
    presets_path = paths.reference / "presets.yaml"
    label = str(presets_path)
    try:
        raw = yaml.safe_load(presets_path.read_text(encoding="utf-8"))
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f"line {mark.line + 1}" if mark is not None else "file"
        raise InputError(label, where, "valid YAML", str(getattr(e, "problem", e))) from None
    if not isinstance(raw, dict):
        raise InputError(label, "top level", "a mapping", type(raw).__name__)
    return Inputs(experiment, validate_presets(raw, label))
