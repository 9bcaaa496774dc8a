"""The simulation's inputs for tests: the real measured steps and bytes, from the vendored experiment."""

from __future__ import annotations

import functools

from site_builder.models.simulation.inputs import SimInputs
from site_builder.results.sim_inputs import sim_inputs_from
from site_builder.sources.experiment import load_experiment
from tests.conftest import VENDOR


@functools.cache
def sim_inputs() -> SimInputs:
    return sim_inputs_from(load_experiment(VENDOR))
