"""The closed form: step time, time to target, energy and hot spots of every variant on every topology."""

from __future__ import annotations

from dataclasses import field, replace

from site_builder.datatypes import dataclass

from . import collectives as col
from .inputs import MeasuredConfig, SimInputs, steps_to
from .module import VALUE_BYTES, ModuleSpec, binding_stage, module_power_w, module_time, rfft_flops_per_value
from .presets import Link, Presets

# The band's transform on a GPU: a 256-point real FFT per 1-D chunk (20 FLOPs/value); DeMo's top-k uses 2-D
# 64x64 chunks, a real FFT along each axis (2 x 15 = 30 FLOPs/value). Only the sender's forward transform is
# charged; the receivers' inverse is left out for every DeMo variant alike.
GPU_TRANSFORM_FLOPS_PER_VALUE = {"1d256": rfft_flops_per_value(256), "2d64": 2 * rfft_flops_per_value(64)}


@dataclass(frozen=True)
class Variant:
    key: str  # "A", "B", "C", "Cp", "E", "Ep"
    name: str  # "A", "B", "C", "C′", "E", "E′"
    label: str
    steps_from: str  # the measured config whose steps (and payload) it uses
    collective: str  # "allreduce-dense", "allgather", "allreduce-band", "switch-sum"
    gpu_transform: str | None = None  # key of GPU_TRANSFORM_FLOPS_PER_VALUE when the GPU computes the transform
    module: str | None = None  # None, "worker" (pluggable) or "switch"
    hypothetical: bool = False


VARIANTS: dict[str, Variant] = {
    v.key: v
    for v in (
        Variant("A", "A", "AdamW, ring all-reduce", "A", "allreduce-dense"),
        Variant("B", "B", "DeMo top-k, all-gather", "B", "allgather", gpu_transform="2d64"),
        Variant("C", "C", "fixed band on the GPU, all-gather", "C", "allgather", gpu_transform="1d256"),
        Variant(
            "Cp",
            "C′",
            "band ring all-reduced (C's steps)",
            "C",
            "allreduce-band",
            gpu_transform="1d256",
            hypothetical=True,
        ),
        Variant("E", "E", "band in a pluggable module, all-gather", "E", "allgather", module="worker"),
        Variant(
            "Ep",
            "E′",
            "band computed and summed at the switch (E's steps)",
            "E",
            "switch-sum",
            module="switch",
            hypothetical=True,
        ),
    )
}
MODULE_VARIANTS = ("E", "Ep")


@dataclass(frozen=True)
class Phase:
    """A piece of the step: compute, the module's stream, or a sync round."""

    kind: str  # "compute", "module", "round"
    time: float
    resource: str  # the resource the phase is charged to in the hot spots
    round: col.Round | None = None


@dataclass(frozen=True)
class StepPlan:
    variant: Variant
    topology: col.Topology
    phases: list[Phase] = field(default_factory=list)
    compute_flops: float = 0.0  # per worker per step (training + GPU transform)
    train_flops: float = 0.0  # per worker per step (training only)
    modules: int = 0
    module_values: float = 0.0  # values each module streams per step
    module_power: float = 0.0

    @property
    def time(self) -> float:
        return sum(p.time for p in self.phases)

    @property
    def rounds(self) -> list[col.Round]:
        return [p.round for p in self.phases if p.round is not None]


def module_resource(stage: str) -> str:
    """The hot-spot resource a module stage is charged to: "module optics", ..., "module FPGA"."""
    return f"module {'FPGA' if stage == 'fpga' else stage}"


def training_flops(inputs: SimInputs, n_params: float | None = None) -> float:
    """6·N·tokens FLOPs per worker per step (forward and backward)."""
    n = inputs.n_params if n_params is None else n_params
    return 6.0 * n * inputs.tokens_per_worker


def payload_bytes(inputs: SimInputs, variant: Variant, n_params: float | None = None) -> float:
    """Per worker per step: dense BF16 for AdamW, else the measured payload (scaled with the model size)."""
    n = inputs.n_params if n_params is None else n_params
    if variant.collective == "allreduce-dense":
        return float(VALUE_BYTES * n)
    cfg = inputs.configs[variant.steps_from]
    return cfg.payload_bytes * (n / inputs.n_params)


def build_plan(
    inputs: SimInputs,
    presets: Presets,
    variant: Variant | str,
    topo: col.Topology,
    budget: str | float | None = "free",
    module: ModuleSpec | None = None,
    n_params: float | None = None,
) -> StepPlan:
    """The phases of one step of ``variant`` on ``topo`` (budget only matters for E and E′)."""
    v = VARIANTS[variant] if isinstance(variant, str) else variant
    n = float(inputs.n_params if n_params is None else n_params)
    dev = presets.device
    flops = train = training_flops(inputs, n)
    if v.gpu_transform is not None:
        flops += GPU_TRANSFORM_FLOPS_PER_VALUE[v.gpu_transform] * n
    phases = [Phase("compute", flops / dev.flops, "GPU compute")]
    payload = payload_bytes(inputs, v, n)
    spec = (module or ModuleSpec()).with_budget(budget) if v.module is not None else None
    port = spec.port_bytes_per_s if spec is not None else None
    mod_phase: list[Phase] = []
    if spec is not None:
        stage, _ = binding_stage(spec)
        mod_phase = [Phase("module", module_time(spec, n), module_resource(stage))]
    rounds: list[col.Round]
    if v.collective in ("allreduce-dense", "allreduce-band"):
        rounds = col.allreduce(topo, payload)
        phases += [Phase("round", r.time, r.binding, r) for r in rounds]
    elif v.collective == "allgather":
        rounds = col.allgather(topo, payload, port)
        phases += mod_phase + [Phase("round", r.time, r.binding, r) for r in rounds]
    elif v.collective == "switch-sum":
        up = col.switch_up(topo, VALUE_BYTES * n)
        assert spec is not None and port is not None
        rest = col.switch_sum(topo, payload, port, spec.latency_s)
        phases += [Phase("round", r.time, r.binding, r) for r in up] + mod_phase
        phases += [Phase("round", r.time, r.binding, r) for r in rest]
    else:  # pragma: no cover - guarded by VARIANTS
        raise ValueError(v.collective)
    return StepPlan(
        variant=v,
        topology=topo,
        phases=phases,
        compute_flops=flops,
        train_flops=train,
        modules=topo.workers if spec is not None else 0,
        module_values=n if spec is not None else 0.0,
        module_power=module_power_w(spec) if spec is not None else 0.0,
    )


def steps_for(
    inputs: SimInputs, variant: Variant | str, target: float, steps_config: str | None = None, whole: bool = True
) -> float | None:
    """Steps of ``variant`` to ``target``: whole steps, or the seeds' unrounded mean when ``whole`` is False."""
    v = VARIANTS[variant] if isinstance(variant, str) else variant
    cfg: MeasuredConfig = inputs.configs[steps_config or v.steps_from]
    return steps_to(cfg, target, whole)


def time_to_target(plan: StepPlan, steps: float | None) -> float | None:
    return None if steps is None else steps * plan.time


@dataclass(frozen=True)
class Energy:
    compute: float  # J per step, all workers: static for the whole step + pJ/FLOP
    link: float  # J per step: each link's pJ/bit over every byte crossing it
    module: float  # J per step: static + laser for the whole step + pJ/bit over the bits streamed

    @property
    def total(self) -> float:
        return self.compute + self.link + self.module


def energy_per_step(plan: StepPlan, presets: Presets) -> Energy:
    dev = presets.device
    topo = plan.topology
    t = plan.time
    compute = topo.workers * (dev.idle_w * t + dev.pj_per_flop * 1e-12 * plan.compute_flops)
    link = 0.0
    for r in plan.rounds:
        bits = 8.0 * r.senders * r.per_sender
        link += bits * (r.link.pj_per_bit + r.end_hops * topo.intra.pj_per_bit) * 1e-12
    module = 0.0
    if plan.modules:
        spec = ModuleSpec()
        bits = 8.0 * VALUE_BYTES * plan.module_values
        module = plan.modules * (plan.module_power * t + spec.pj_per_bit * 1e-12 * bits)
    return Energy(compute, link, module)


def hot_spots(plan: StepPlan) -> dict[str, float]:
    """Each resource's share of the step; rounds go to their slowest operation, the module to its binding stage."""
    total = plan.time
    out: dict[str, float] = {}
    for p in plan.phases:
        out[p.resource] = out.get(p.resource, 0.0) + p.time / total
    return out


TOPOLOGY_SPECS: tuple[tuple[str, str, int, int, str | None], ...] = (
    ("1dc8", "1 DC × 8 (NDR)", 1, 8, None),
    ("2dc4.100gbe", "2 DC × 4, 100 GbE", 2, 4, "eth-100g"),
    ("2dc4.25gbe", "2 DC × 4, 25 GbE", 2, 4, "eth-25g"),
    ("2dc4.8gbps", "2 DC × 4, 8 Gb/s WAN (illustrative)", 2, 4, "wan-8g"),
    ("2dc4.400g", "2 DC × 4, 400G (illustrative)", 2, 4, "eth-400g"),
    ("2dc4.800g", "2 DC × 4, 800G (illustrative)", 2, 4, "eth-800g"),
    ("8dc1.100gbe", "8 DC × 1, 100 GbE", 8, 1, "eth-100g"),
    ("8dc1.25gbe", "8 DC × 1, 25 GbE", 8, 1, "eth-25g"),
)


def topologies(presets: Presets, workers: int = 8) -> dict[str, col.Topology]:
    """The eight topologies; intra-DC traffic always runs on InfiniBand NDR."""
    out: dict[str, col.Topology] = {}
    for key, label, dcs, per_dc, wan in TOPOLOGY_SPECS:
        if dcs * per_dc != workers:
            raise ValueError(f"topology {key} has {dcs * per_dc} workers, the inputs have {workers}")
        link: Link | None = presets.links[wan] if wan else None
        out[key] = col.Topology(key, label, dcs, per_dc, presets.links["ib-ndr"], link)
    return out


def step_time_at_wan(
    inputs: SimInputs,
    presets: Presets,
    variant: str,
    topo: col.Topology,
    wan_bandwidth: float,
    budget: str | float | None = "free",
) -> float:
    """Step time of ``variant`` on ``topo`` with its inter-DC bandwidth replaced (latency kept; modules at
    ``budget``, [free] unless given)."""
    return build_plan(inputs, presets, variant, topo.with_wan_bandwidth(wan_bandwidth), budget).time


def plan_time_at_wan(plan: StepPlan, wan_bandwidth: float) -> float:
    """The step of ``plan`` with its inter-DC bandwidth replaced, from the plan itself: only the WAN rounds are
    redone (latency kept), the rest of the step is the plan's. Equal to ``step_time_at_wan`` bit for bit (a test),
    and cheap enough to bisect on."""
    t = 0.0
    for p in plan.phases:
        r = p.round
        if r is not None and r.scope == "wan":
            t += replace(r, link=replace(r.link, bandwidth=wan_bandwidth)).time
        else:
            t += p.time
    return t
