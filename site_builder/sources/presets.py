"""The reference presets (devices and links), validated into the simulation's typed presets.

``presets.yaml`` is parsed elsewhere; :func:`validate_presets` checks the parsed mapping where the other
inputs are checked, so a bad value stops the build with one line naming the file, the key path, what was
expected and what was found. Numbers that ``presets.yaml`` lacks but deck CiT 05 and our issue give are the
named constants below, each marked as coming from the deck or issue and as illustrative.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

from site_builder.errors import InputError, describe
from site_builder.models.simulation.presets import Device, Link, Presets
from site_builder.sources import reading
from site_builder.sources.pins import Pinned

PRESETS = "presets.yaml"
READS = (f"reference/{PRESETS}",)  # every file load() reads, as root/pattern; `pin` pins it

# From the deck/issue (presets.yaml's H100 default is 0.55): the model fraction of peak used for training.
MFU = 0.40
# From the deck/issue, illustrative: the "8 Gb/s WAN share" is the 100 GbE preset at 1 GB/s.
WAN_SHARE_BANDWIDTH = 1.0e9
# From the deck/issue, illustrative: 400G and 800G inter-DC links (not in presets.yaml). Latency and pJ/bit are
# taken from the 100 GbE preset; the bandwidths are 400 Gb/s and 800 Gb/s in bytes/s.
LINK_400G_BANDWIDTH = 50.0e9
LINK_800G_BANDWIDTH = 100.0e9

# From deck CiT 05: the presets are Disaggregated_Inference_Sim's at this commit. presets.yaml's header records it
# (69ffd2b8886c03f164bdb07dea954d1452169a06), says that commit holds no hardware.py, and that its values were read
# at 0caa0905bdac5e05bc53b5ee26de83fdcf6666fb, the version that reproduces that commit's results file exactly.
# A YAML comment is not data, so both short hashes are named here, as the deck and the file's header give them.
PRESETS_COMMIT_NAMED = "69ffd2b"
PRESETS_COMMIT_READ = "0caa090"

REQUIRED_LINKS = ("ib-ndr", "eth-100g", "eth-25g")


def _number(data: dict[str, Any], path: list[str], label: str) -> float:
    node: Any = data
    where = ".".join(path)
    for i, part in enumerate(path):
        if not isinstance(node, dict):
            raise InputError(label, ".".join(path[:i]) or "(top level)", "a mapping", describe(node))
        if part not in node:
            raise InputError(label, where, "a positive finite number", "nothing (key missing)")
        node = node[part]
    if isinstance(node, bool) or not isinstance(node, int | float):
        raise InputError(label, where, "a positive finite number", describe(node))
    value = float(node)
    if not math.isfinite(value) or value <= 0:
        raise InputError(label, where, "a positive finite number", describe(node))
    return value


def _text(data: dict[str, Any], path: list[str], label: str) -> str:
    node: Any = data
    for part in path:
        node = node.get(part) if isinstance(node, dict) else None
    if not isinstance(node, str) or not node.strip():
        raise InputError(label, ".".join(path), "a non-empty string", describe(node))
    return node


def load(pinned: Pinned) -> Presets:
    """The input "presets": the reference presets.yaml, read through its pin and validated."""
    reference = pinned.folder("reference")
    label = reference.label(PRESETS)
    raw = reading.load_yaml(reference.read_text(PRESETS, reading.YAML_MAX_BYTES), label)
    if not isinstance(raw, dict):
        raise InputError(label, "top level", "a mapping", describe(raw))
    return validate_presets(raw, label)


def validate_presets(raw: object, label: str) -> Presets:
    """Check the parsed ``presets.yaml`` (``label`` names it in errors) and build the simulation's devices and
    links: the H100 at the deck's MFU, the three required links, and the illustrative links derived from them."""
    if not isinstance(raw, dict):
        raise InputError(label, "(top level)", "a mapping", describe(raw))
    h100 = ["accelerators", "h100"]
    device = Device(
        name=_text(raw, [*h100, "name"], label),
        peak_flops=_number(raw, [*h100, "peak_flops_bf16_dense"], label),
        mfu=MFU,
        idle_w=_number(raw, [*h100, "idle_w"], label),
        pj_per_flop=_number(raw, [*h100, "pj_per_flop"], label),
    )
    links: dict[str, Link] = {}
    for key in REQUIRED_LINKS:
        base = ["links", key]
        links[key] = Link(
            key=key,
            name=_text(raw, [*base, "name"], label),
            bandwidth=_number(raw, [*base, "bandwidth"], label),
            latency=_number(raw, [*base, "latency"], label),
            pj_per_bit=_number(raw, [*base, "pj_per_bit"], label),
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
    models = raw.get("models")
    if isinstance(models, dict) and "llama3-8b" in models:
        value = _number(raw, ["models", "llama3-8b", "params_total_untied"], label)
        if value != int(value):
            raise InputError(label, "models.llama3-8b.params_total_untied", "an integer", describe(value))
        llama = int(value)
    return Presets(
        device=device,
        links=links,
        llama3_8b_params=llama,
        commit_named=PRESETS_COMMIT_NAMED,
        commit_read=PRESETS_COMMIT_READ,
    )
