"""The simulation's model, rebuilt from its results document, for the parity cases of the simulation explorers.

An explorer's cases are computed by the Python model, but an explorer sees only the results documents. The
simulation's ``data`` records every input the closed form reads (``parameters``: the device, the links, the
model size; ``measured``: each measured configuration's payload and steps to the target), so the closed form
can be run again here on exactly those values: ``tests/unit/test_explorer_link_kernel.py`` checks that the
rebuilt model gives every step of results.md §2 to the last bit.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from typing import Any

from site_builder.datatypes import dataclass
from site_builder.models.simulation import closed_form as cf
from site_builder.models.simulation.collectives import Topology
from site_builder.models.simulation.inputs import MeasuredConfig, SimInputs
from site_builder.models.simulation.presets import Device, Link, Presets
from site_builder.results.producers import ResultsText

HOME = "2dc4.100gbe"  # the topology of the explorers: 2 DC × 4 over 100 GbE (results' HOME)


def sim_data(docs: Mapping[str, ResultsText]) -> dict[str, Any]:
    return docs["simulation"].data


@dataclass(frozen=True)
class SimModel:
    inputs: SimInputs
    presets: Presets
    target: float

    @cached_property
    def topologies(self) -> dict[str, Topology]:
        return cf.topologies(self.presets, self.inputs.workers)

    @property
    def home(self) -> Topology:
        return self.topologies[HOME]


def rebuild(docs: Mapping[str, ResultsText]) -> SimModel:
    """The simulation's inputs and presets, as recorded in its results.json ``data``."""
    data = sim_data(docs)
    p = data["parameters"]
    m = data["measured"]
    target = float(data["target"])
    device = Device(**p["device"])
    links = {k: Link(key=k, **v) for k, v in p["links"].items()}
    configs = {
        name: MeasuredConfig(
            name=name,
            label=name,
            steps_to={target: c["steps"]},
            mean_steps_to={target: c["mean_steps"]},
            payload_bytes=c["payload_bytes"],
            wire_bytes=c["wire_bytes"],
            seeds=c["seeds"],
            planes=c["planes"],
            enob=c["enob"],
        )
        for name, c in m["configs"].items()
    }
    inputs = SimInputs(
        n_params=p["n_params"],
        workers=p["workers"],
        seqs_per_worker=m["seqs_per_worker"],
        seq_len=m["seq_len"],
        configs=configs,
    )
    return SimModel(inputs, Presets(device, links), target)
