"""The simulation's devices and links, as typed values (validated from ``presets.yaml`` by
``site_builder.sources.presets``)."""

from __future__ import annotations

from site_builder.datatypes import dataclass


@dataclass(frozen=True)
class Device:
    name: str
    peak_flops: float  # BF16 dense FLOP/s
    mfu: float  # fraction of peak achieved in training
    idle_w: float  # static W per device
    pj_per_flop: float

    @property
    def flops(self) -> float:
        return self.peak_flops * self.mfu


@dataclass(frozen=True)
class Link:
    key: str
    name: str
    bandwidth: float  # bytes/s, one direction
    latency: float  # s per transfer
    pj_per_bit: float
    illustrative: bool = False


@dataclass(frozen=True)
class Presets:
    device: Device
    links: dict[str, Link]
    llama3_8b_params: int | None = None  # models.llama3-8b.params_total_untied, for the size extrapolation
    commit_named: str = ""  # the Disaggregated_Inference_Sim commit deck CiT 05 names for the presets
    commit_read: str = ""  # the commit presets.yaml's values were read at (its header says why)
