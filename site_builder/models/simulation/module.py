"""The photonic link module as a link kernel: four pipelined stages, the slowest sets the rate.

Rates are in values per second (one value = one BF16 element of the delta, 2 bytes). The figures marked
"deck/issue" come from deck CiT 05 and our issue; those marked illustrative are assumptions.
"""

from __future__ import annotations

import math
from dataclasses import replace

from site_builder.datatypes import dataclass

VALUE_BYTES = 2  # a delta value is BF16 on the wire and into the module

# From the deck/issue: a 25 GB/s QSFP56 module sitting on a 50 GB/s port (the module's rate is the cap).
MODULE_PORT_BYTES_PER_S = 25.0e9
# From the deck/issue: 4 lanes x 14 Gb/s NRZ; one optical pass per bit plane.
OPTICS_LANES = 4
OPTICS_LANE_BITS_PER_S = 14.0e9
DEFAULT_PLANES = 8
# From the deck/issue: the band's transform is a 256-point real FFT per chunk of 256 values.
CHUNK = 256
# Illustrative: the FPGA stage (quantise, track full scale, recombine planes) handles 20e9 values/s.
FPGA_VALUES_PER_S = 20.0e9
# Illustrative: fixed latency of one pass of a stream through the module's pipeline.
MODULE_LATENCY_S = 1.0e-6
# From the deck/issue: 9.7 W static (paper), 2.76 pJ/bit (developer); the 2 W laser is illustrative.
MODULE_STATIC_W = 9.7
LASER_W = 2.0
MODULE_PJ_PER_BIT = 2.76

# Compute budgets (FLOP/s charged for the transform); None = the transform is not charged.
BUDGETS: dict[str, float | None] = {"free": None, "low": 10.0e9, "high": 99.0e9}
BUDGET_LABELS = {
    "free": "[free] transform not charged",
    "low": "[low] 10 GFLOP/s charged",
    "high": "[high] 99 GFLOP/s charged",
}

STAGES = ("port", "optics", "compute", "fpga")


def rfft_flops_per_value(n: int) -> float:
    """FLOPs per value of a real FFT of length n (2.5·n·log2 n for the whole transform, shared over n values)."""
    if n < 2 or n & (n - 1):
        raise ValueError(f"FFT length must be a power of two >= 2, got {n}")
    return 2.5 * n * math.log2(n) / n


@dataclass(frozen=True)
class ModuleSpec:
    port_bytes_per_s: float = MODULE_PORT_BYTES_PER_S
    lanes: int = OPTICS_LANES
    lane_bits_per_s: float = OPTICS_LANE_BITS_PER_S
    planes: int = DEFAULT_PLANES
    flops_per_value: float = rfft_flops_per_value(CHUNK)  # 20.0
    budget_flops: float | None = None  # None: the transform is not charged ([free])
    fpga_values_per_s: float = FPGA_VALUES_PER_S
    latency_s: float = MODULE_LATENCY_S
    static_w: float = MODULE_STATIC_W
    laser_w: float = LASER_W
    pj_per_bit: float = MODULE_PJ_PER_BIT

    def with_budget(self, budget: str | float | None) -> ModuleSpec:
        flops = BUDGETS[budget] if isinstance(budget, str) else budget
        return replace(self, budget_flops=flops)


def stage_rates(spec: ModuleSpec) -> dict[str, float]:
    """Values per second each stage can sustain (``inf`` for a compute stage that is not charged)."""
    return {
        "port": spec.port_bytes_per_s / VALUE_BYTES,
        "optics": spec.lanes * spec.lane_bits_per_s / spec.planes,
        "compute": math.inf if spec.budget_flops is None else spec.budget_flops / spec.flops_per_value,
        "fpga": spec.fpga_values_per_s,
    }


def binding_stage(spec: ModuleSpec) -> tuple[str, float]:
    """The slowest stage and its rate (values/s); ties go to the earlier stage in STAGES."""
    rates = stage_rates(spec)
    name = min(STAGES, key=lambda s: (rates[s], STAGES.index(s)))
    return name, rates[name]


def module_time(spec: ModuleSpec, n_values: float) -> float:
    """Seconds for one stream of n values through the pipeline: latency + n / slowest rate."""
    return spec.latency_s + n_values / binding_stage(spec)[1]


def budget_stops_binding(spec: ModuleSpec) -> float:
    """The compute budget (FLOP/s) at which the transform stops being the slowest stage."""
    rates = stage_rates(spec)
    return spec.flops_per_value * min(rates[s] for s in STAGES if s != "compute")


def module_power_w(spec: ModuleSpec) -> float:
    return spec.static_w + spec.laser_w
