"""Devices and links for the simulation, validated from the parsed ``presets.yaml`` mapping.

Numbers that ``presets.yaml`` lacks but the deck/issue gives are named constants here, each marked as
coming from the deck or issue and as illustrative.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

from site_builder.errors import InputError, describe

# From the deck/issue (presets.yaml's H100 default is 0.55): the model fraction of peak used for training.
MFU = 0.40
# From the deck/issue, illustrative: the "8 Gb/s WAN share" is the 100 GbE preset at 1 GB/s.
WAN_SHARE_BANDWIDTH = 1.0e9
# From the deck/issue, illustrative: 400G and 800G inter-DC links (not in presets.yaml). Latency and pJ/bit are
# taken from the 100 GbE preset; the bandwidths are 400 Gb/s and 800 Gb/s in bytes/s.
LINK_400G_BANDWIDTH = 50.0e9
LINK_800G_BANDWIDTH = 100.0e9

REQUIRED_LINKS = ("ib-ndr", "eth-100g", "eth-25g")


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


def _number(data: Any, path: list[str], file: str) -> float:
    node: Any = data
    where = ".".join(path)
    for i, part in enumerate(path):
        if not isinstance(node, dict):
            raise InputError(file, ".".join(path[:i]) or "(top level)", "a mapping", describe(node))
        if part not in node:
            raise InputError(file, where, "a positive finite number", "nothing (key missing)")
        node = node[part]
    if isinstance(node, bool) or not isinstance(node, int | float):
        raise InputError(file, where, "a positive finite number", describe(node))
    value = float(node)
    if not math.isfinite(value) or value <= 0:
        raise InputError(file, where, "a positive finite number", describe(node))
    return value


def _text(data: dict[str, Any], path: list[str], file: str) -> str:
    node: Any = data
    for part in path:
        node = node.get(part) if isinstance(node, dict) else None
    if not isinstance(node, str) or not node.strip():
        raise InputError(file, ".".join(path), "a non-empty string", describe(node))
    return node


def presets_from_mapping(data: dict[str, Any], file: str) -> Presets:
    """Validate the parsed presets mapping and build the simulation's devices and links."""
    if not isinstance(data, dict):
        raise InputError(file, "(top level)", "a mapping", describe(data))
    h100 = ["accelerators", "h100"]
    device = Device(
        name=_text(data, [*h100, "name"], file),
        peak_flops=_number(data, [*h100, "peak_flops_bf16_dense"], file),
        mfu=MFU,
        idle_w=_number(data, [*h100, "idle_w"], file),
        pj_per_flop=_number(data, [*h100, "pj_per_flop"], file),
    )
    links: dict[str, Link] = {}
    for key in REQUIRED_LINKS:
        base = ["links", key]
        links[key] = Link(
            key=key,
            name=_text(data, [*base, "name"], file),
            bandwidth=_number(data, [*base, "bandwidth"], file),
            latency=_number(data, [*base, "latency"], file),
            pj_per_bit=_number(data, [*base, "pj_per_bit"], file),
        )
    eth = links["eth-100g"]
    links["wan-8g"] = replace(
        eth, key="wan-8g", name="8 Gb/s WAN share (100 GbE at 1 GB/s)", bandwidth=WAN_SHARE_BANDWIDTH, illustrative=True
    )
    links["eth-400g"] = replace(
        eth, key="eth-400g", name="400G (illustrative)", bandwidth=LINK_400G_BANDWIDTH, illustrative=True
    )
    links["eth-800g"] = replace(
        eth, key="eth-800g", name="800G (illustrative)", bandwidth=LINK_800G_BANDWIDTH, illustrative=True
    )
    llama = None
    models = data.get("models")
    if isinstance(models, dict) and "llama3-8b" in models:
        value = _number(data, ["models", "llama3-8b", "params_total_untied"], file)
        if value != int(value):
            raise InputError(file, "models.llama3-8b.params_total_untied", "an integer", describe(value))
        llama = int(value)
    return Presets(device=device, links=links, llama3_8b_params=llama)
