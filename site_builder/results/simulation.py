"""The training-transit simulation's results document (``data/simulation/results.md`` and ``results.json``).

One function per section (``_section_*``) over a shared :class:`_Context`: the inputs, the presets and what is
computed once and reused by later sections (the topologies, every shown step plan, the times to target). The
discrete-event runs of section 9 (:mod:`site_builder.models.simulation.fifo`) are independent points, each
with its own seed.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable
from dataclasses import asdict, field
from typing import Any

from site_builder import fmt
from site_builder.datatypes import dataclass
from site_builder.models.simulation import closed_form as cf
from site_builder.models.simulation import fifo
from site_builder.models.simulation.breakeven import REL_TOL, Crossing, crossing
from site_builder.models.simulation.collectives import Topology, wire_bytes_per_worker
from site_builder.models.simulation.extrapolate import diloco_time, scaled_sizes
from site_builder.models.simulation.inputs import SimInputs, steps_to
from site_builder.models.simulation.module import (
    BUDGET_LABELS,
    BUDGETS,
    CHUNK,
    FPGA_VALUES_PER_S,
    LASER_W,
    MODULE_LATENCY_S,
    MODULE_PJ_PER_BIT,
    MODULE_PORT_BYTES_PER_S,
    MODULE_STATIC_W,
    OPTICS_LANE_BITS_PER_S,
    OPTICS_LANES,
    VALUE_BYTES,
    ModuleSpec,
    binding_stage,
    budget_stops_binding,
    module_time,
    stage_rates,
)
from site_builder.models.simulation.presets import Presets
from site_builder.models.simulation.tables import HOT_SPOT_RESOURCES, ROWS
from site_builder.results.cells import Published, cell, published_against_ours
from site_builder.results.doc import Cell, ResultsDoc, Section, Table

TARGET = 3.158
HOME = "2dc4.100gbe"
WAN8 = "2dc4.8gbps"
SHOWN_TOPOLOGIES = (
    "1dc8",
    "2dc4.100gbe",
    "2dc4.25gbe",
    "2dc4.8gbps",
    "2dc4.400g",
    "2dc4.800g",
    "8dc1.100gbe",
    "8dc1.25gbe",
)
SHARED_WAN_VARIANTS = (("A", "free"), ("Cp", "free"), ("Ep", "free"))
SHARED_WAN_LOADS = (0.0, 0.5, 0.9)
SHARED_WAN_SYNCS = 200
SHARED_WAN_SEED = 20261129
SHARED_WAN_SPREAD_SEEDS = (1, 2)
WAN_SWEEP = (0.1e9, 1000e9)
BUDGET_SWEEP = (1e9, 1e14)
DILOCO_H = (1, 10, 100, 1000)


# Figures quoted by deck CiT 05 and the results home page (seeds 004 and 003), for the comparison table.
PUBLISHED: dict[str, str] = {
    "sim.time_to_target.2dc4.100gbe.A": "1.63 s",
    "sim.time_to_target.2dc4.100gbe.B": "0.93 s",
    "sim.time_to_target.2dc4.100gbe.C": "3.85 s",
    "sim.time_to_target.2dc4.100gbe.Cp": "2.16 s",
    "sim.time_to_target.2dc4.100gbe.E.free": "7.10 s",
    "sim.time_to_target.2dc4.100gbe.Ep.free": "6.71 s",
    "sim.step_ms.2dc4.100gbe.Ep.free": "3.726 ms",
    "sim.e_low.min_s": "59.01 s",
    "sim.e_low.max_s": "73.14 s",
    "sim.time_to_target.2dc4.8gbps.Ep.free": "9.98 s",
    "sim.time_to_target.2dc4.8gbps.A": "13.28 s",
    "sim.time_to_target.2dc4.8gbps.Cp": "7.02 s",
    "sim.time_to.1_785.2dc4.100gbe.A": "8.15 s",
    "sim.step_ms.2dc4.100gbe.E.low": "33.348 ms",
    "sim.step_ms.2dc4.100gbe.C": "1.443 ms",
    "sim.step_ms.2dc4.100gbe.A": "4.075 ms",
    "sim.step_ms.1dc8.A": "1.740 ms",
    "sim.step_ms.8dc1.25gbe.A": "18.505 ms",
    "sim.anchor.compute_ms": "0.492 ms",
    "sim.anchor.wan_ms": "2.573 ms",
    "sim.module.time_ms.low": "31.67 ms",
    "sim.module.budget_stops_binding.gflops": "140.0 GFLOP/s",
    "sim.wire.A": "55,417,152",
    "sim.wire.C": "13,854,288",
    "sim.wire_ratio.C": "4.0x",
    "sim.payload_ratio.C": "16.0x",
    "sim.energy.Ep.free.kj": "8.87 kJ",
    "sim.energy.A.kj": "1.95 kJ",
    "sim.energy.B.kj": "1.38 kJ",
    "sim.energy.Cp.kj": "5.90 kJ",
    "sim.energy.module_share.Ep.free": "7.2%",
    "sim.energy.module_share.Ep.low": "10.0%",
    "sim.hotspot.A.gpu_compute": "12.1%",
    "sim.hotspot.A.inter_dc_link": "63.1%",
    "sim.hotspot.E.low.module_compute": "95.0%",
    "sim.hotspot.E.high.module_compute": "65.6%",
    "sim.hotspot.E.free.module_optics": "57.4%",
    "sim.hotspot.E.free.module_port": "13.6%",
    "sim.hotspot.Cp.gpu_compute": "60.8%",
    "sim.breakeven.wan.Ep_vs_A.e.gbps": "1.57 GB/s",
    "sim.breakeven.wan.Ep_vs_A.c.gbps": "0.83 GB/s",
    "sim.breakeven.wan.Cp_vs_A.m.gbps": "6.58 GB/s",
    "sim.breakeven.wan.E_vs_A.e.gbps": "never",
    "sim.breakeven.wan.Ep_vs_Cp.c.gbps": "never",
    "sim.breakeven.budget.2dc4.8gbps.E_vs_C.gflops": "79.9 GFLOP/s",
    "sim.breakeven.budget.2dc4.8gbps.Ep_vs_A.gflops": "77.3 GFLOP/s",
    "sim.breakeven.enob": "8",
    "sim.planes.fastest": "8",
    "sim.shared_wan.A.load0_9.ms": "26.291 ms",
    "sim.shared_wan.Ep.load0_9.ms": "5.442 ms",
    "sim.extrap.diloco.h100.A.s": "0.21 s",
    "sim.extrap.diloco.h100.Ep.s": "0.94 s",
}

WHY_SHARED = (
    "The published engine's traffic pattern (how the sync interleaves with other jobs' 1 MB transfers, how its "
    "queues are served) is not public. Ours serves one FIFO queue per WAN egress and cuts the sync into 1 MB "
    "chunks, so at load 0.9 the sync gets about a tenth of the link, as in theirs, but the detail differs, and so "
    "do the means under load; at zero load the engine equals the closed form."
)


def _suffix(budget: str | None) -> str:
    return f".{budget}" if budget else ""


def _row_label(variant: str, budget: str | None) -> str:
    v = cf.VARIANTS[variant]
    text = f"{v.name} {v.label}"
    if budget:
        text += f" [{budget}]"
    if v.hypothetical:
        text += " (hypothetical)"
    return text


def _s(x: float) -> str:
    return fmt.unit(x, 2, "s")


def _ms(x: float) -> str:
    return fmt.unit(x * 1e3, 3, "ms")


def _gbps(x: float) -> str:
    return fmt.unit(x / 1e9, 2, "GB/s")


def _gflops(x: float) -> str:
    return fmt.unit(x / 1e9, 1, "GFLOP/s")


def _plain(x: float, most: int = 3) -> str:
    """The fewest decimals (up to ``most``) that show ``x`` exactly, grouped: 1, 0.1, 9.7, 3.125, 1,000."""
    for digits in range(most + 1):
        if abs(round(x, digits) - x) <= 1e-9 * max(1.0, abs(x)):
            return fmt.grouped(x, digits)
    return fmt.grouped(x, most)


def _sig(x: float, figures: int = 3) -> str:
    """``x`` to ``figures`` significant figures (12.546 -> 12.5, 52.67 -> 52.7, 0.927 -> 0.927)."""
    digits = max(0, figures - 1 - math.floor(math.log10(abs(x))))
    return fmt.grouped(x, digits)


def _power_of_ten(x: float) -> str:
    """A power of ten as ``1e-4``."""
    exponent = round(math.log10(x))
    if not math.isclose(x, 10.0**exponent):
        raise ValueError(f"{x!r} is not a power of ten")
    return f"1e{exponent}"


def _text_cell(text: str, key: str) -> Cell:
    """A figure whose value is its text: a label or a range (``2 DC × 4``, ``0.1–1,000 GB/s``)."""
    return cell(text, text, key)


def _budget_text(budget: str) -> str:
    """A charged budget of the module as text: ``10 GFLOP/s``."""
    flops = BUDGETS[budget]
    assert flops is not None
    return f"{_plain(flops / 1e9)} GFLOP/s"


def _crossing_text(c: Crossing, unit: Callable[[float], str]) -> tuple[str, float | None]:
    if c.value is None:
        return ("never" if c.wins == "never" else "always"), None
    return unit(c.value), c.value


def _crossing_cell(c: Crossing, unit: Callable[[float], str], key: str) -> tuple[Cell, float | None]:
    """The crossing as a keyed cell ("never"/"always" when there is none in range) and its value."""
    text, value = _crossing_text(c, unit)
    return cell(value if value is not None else text, text, key), value


# ------------------------------------------------------------------------------------------------ engine points
@dataclass(frozen=True)
class EnginePoint:
    """One independent run of the discrete-event engine: a plan, how many syncs, the load and the seed."""

    plan: cf.StepPlan
    syncs: int
    load: float
    seed: int


def _run_point(p: EnginePoint) -> fifo.EngineResult:
    return fifo.simulate(p.plan, p.syncs, p.load, p.seed)


def run_engine_points(points: list[EnginePoint]) -> list[fifo.EngineResult]:
    """Run independent engine points, in point order (each carries its own seed)."""
    return [_run_point(p) for p in points]


# ------------------------------------------------------------------------------------------------ context
@dataclass
class _Context:
    """The inputs and presets, and what is computed once and reused by later sections."""

    inputs: SimInputs
    presets: Presets
    doc: ResultsDoc
    topos: dict[str, Topology] = field(init=False)
    plans: dict[tuple[str, str, str | None], cf.StepPlan] = field(init=False)
    # time to TARGET per row (variant and budget) and topology, from section 2; section 7 reads AdamW's
    time_to_target: dict[str, dict[str, float | None]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.topos = cf.topologies(self.presets, self.inputs.workers)
        self.plans = {
            (tk, v, b): cf.build_plan(self.inputs, self.presets, v, topo, b or "free")
            for tk, topo in self.topos.items()
            for v, b in ROWS
        }

    @property
    def home(self) -> Topology:
        return self.topos[HOME]

    def plan(self, v: str, b: str | None, topo: str = HOME) -> cf.StepPlan:
        return self.plans[(topo, v, b)]

    def steps(self, v: str, config: str | None = None, target: float = TARGET) -> float | None:
        """Steps of variant ``v`` to ``target``, from its own measured configuration or from ``config``."""
        return cf.steps_for(self.inputs, v, target, config)

    def mean_steps(self, v: str) -> float:
        """Steps of ``v`` to TARGET as the seeds' unrounded mean (the document otherwise uses whole steps)."""
        steps = cf.steps_for(self.inputs, v, TARGET, whole=False)
        assert steps is not None
        return steps

    def steps_basis(self, v: str, basis: str) -> float:
        """Steps to TARGET on a break-even basis: "c" gives the in-transit variants the exact band's steps."""
        steps = self.steps(v, "C" if basis == "c" and v in cf.MODULE_VARIANTS else None)
        assert steps is not None
        return steps

    def figure_text(self, key: str) -> str:
        return next((k.text for k in self.doc.keyed_cells() if k.key == key), "not produced")


# ------------------------------------------------------------------------------------------------ sections
def _section_wire(ctx: _Context) -> dict[str, float]:
    s = ctx.doc.section("1. Wire bytes per variant")
    s.text(
        f"What one worker puts on the wire per step when all {ctx.inputs.workers} workers share a data centre, as "
        "the model's collective sends it, beside the wire column the experiment measured. A ring all-reduce of "
        "AdamW's dense BF16 payload sends 2·(W−1)/W of it; an all-gather sends the payload W−1 times; C′ "
        "all-reduces the band in a ring; E′ has each worker push its full delta into the module at its switch "
        "port, where the sums are formed, so its wire count is above every band variant's."
    )
    t = s.table(
        "Variant", "Payload, bytes", "Model wire, bytes", "Experiment wire, bytes", "Wire vs AdamW", "Payload vs AdamW"
    )
    a_wire = wire_bytes_per_worker(ctx.plan("A", None, "1dc8").rounds)
    a_payload = cf.payload_bytes(ctx.inputs, cf.VARIANTS["A"])
    wire_data: dict[str, float] = {}
    for v, b in ROWS:
        if b not in (None, "free"):
            continue
        wire = wire_bytes_per_worker(ctx.plan(v, b, "1dc8").rounds)
        wire_data[v] = wire
        payload = cf.payload_bytes(ctx.inputs, cf.VARIANTS[v])
        cfg = ctx.inputs.configs[cf.VARIANTS[v].steps_from]
        measured = cfg.wire_bytes if not cf.VARIANTS[v].hypothetical else None
        t.add(
            _row_label(v, None),
            cell(payload, fmt.integer(round(payload)), f"sim.payload.{v}"),
            cell(wire, fmt.grouped(wire), f"sim.wire.{v}"),
            fmt.grouped(measured) if measured is not None else "not measured",
            cell(a_wire / wire, fmt.ratio_x(a_wire / wire, 1), f"sim.wire_ratio.{v}"),
            cell(a_payload / payload, fmt.ratio_x(a_payload / payload, 1), f"sim.payload_ratio.{v}"),
        )
    s.text(
        f"Topology of this table: {ctx.topos['1dc8'].label}. C′ and E′ never ran; their step counts are C's and E's."
    )
    return wire_data


def _section_time(ctx: _Context) -> dict[str, dict[str, float]]:
    s = ctx.doc.section("2. Time to target")
    s.text(
        f"The time to a validation loss of {TARGET} is the step count times the step time, for "
        f"{ctx.inputs.workers} workers on H100s at MFU {ctx.presets.device.mfu:.2f}. Budgets: [free] leaves the "
        f"module's transform uncharged, [low] charges it at {_budget_text('low')}, [high] at "
        f"{_budget_text('high')}. The 8 Gb/s WAN and the 400G and 800G links are illustrative; C′ and E′ are "
        "hypothetical."
    )
    t = s.table("Variant", "Steps", *[ctx.topos[k].label for k in SHOWN_TOPOLOGIES])
    for v, b in ROWS:
        steps = ctx.steps(v)
        cells: list[Cell | str] = [_row_label(v, b), fmt.grouped(steps) if steps is not None else "not reached"]
        for tk in SHOWN_TOPOLOGIES:
            x = cf.time_to_target(ctx.plan(v, b, tk), steps)
            ctx.time_to_target.setdefault(f"{v}{_suffix(b)}", {})[tk] = x
            key = f"sim.time_to_target.{tk}.{v}{_suffix(b)}"
            cells.append(cell(x, _s(x), key) if x is not None else "not reached")
        t.add(*cells)
    s.text("Step time with no background traffic, in ms (the closed form; the engine matches it to within 1e-12):")
    t = s.table("Variant", *[ctx.topos[k].label for k in SHOWN_TOPOLOGIES])
    step_data: dict[str, dict[str, float]] = {}
    for v, b in ROWS:
        cells = [f"{_row_label(v, b)}, step"]
        for tk in SHOWN_TOPOLOGIES:
            x = ctx.plan(v, b, tk).time
            step_data.setdefault(f"{v}{_suffix(b)}", {})[tk] = x
            cells.append(cell(x, _ms(x), f"sim.step_ms.{tk}.{v}{_suffix(b)}"))
        t.add(*cells)
    e_low = [x for x in (ctx.time_to_target["E.low"][tk] for tk in SHOWN_TOPOLOGIES) if x is not None]
    t = s.table("Range", "Seconds to 3.158")
    t.add("E [low], fastest topology", cell(min(e_low), _s(min(e_low)), "sim.e_low.min_s"))
    t.add("E [low], slowest topology", cell(max(e_low), _s(max(e_low)), "sim.e_low.max_s"))
    s.text(
        f"Other losses on the ladder, {ctx.home.label} (a variant appears only where all of its seeds reached "
        "that loss):"
    )
    t = s.table("Target loss", "Variant", "Steps", "Seconds")
    for target in sorted({k for c in ctx.inputs.configs.values() for k in c.steps_to}, reverse=True):
        if abs(target - TARGET) < 1e-9:
            continue
        for v, b in ROWS:
            if b not in (None, "free"):
                continue
            steps = ctx.steps(v, target=target)
            if steps is None:
                continue
            x = steps * ctx.plan(v, b).time
            tag = f"{target:.3f}".replace(".", "_")
            t.add(
                f"{target:.3f} {_row_label(v, b)}",
                _row_label(v, b),
                fmt.grouped(steps),
                cell(x, _s(x), f"sim.time_to.{tag}.{HOME}.{v}{_suffix(b)}"),
            )
    return step_data


def _section_module(ctx: _Context) -> None:
    s = ctx.doc.section("3. The link module as a link kernel")
    base = ModuleSpec()
    ndr = ctx.presets.links["ib-ndr"]
    s.text(
        "A worker's delta passes through the module's four stages as a pipeline, so the slowest stage fixes the "
        "throughput, and the module's time per step is its latency plus the delta's value count divided by that "
        f"rate. Rates are values per second; one value is {VALUE_BYTES} bytes (BF16). Port: the paper's "
        f"{_plain(MODULE_PORT_BYTES_PER_S / 1e9)} GB/s QSFP56 module, seated on a {_plain(ndr.bandwidth / 1e9)} GB/s "
        f"port. Optics: {OPTICS_LANES} lanes of {_plain(OPTICS_LANE_BITS_PER_S / 1e9)} Gb/s NRZ and one optical pass "
        f"per bit plane, hence {_plain(OPTICS_LANES * OPTICS_LANE_BITS_PER_S / 1e9)} Gb/s ÷ planes values per "
        f"second (our derivation). Compute: the transform is a {CHUNK}-point real FFT per chunk, "
        f"2.5·{CHUNK}·log2 {CHUNK} ÷ {CHUNK} = {fmt.fixed(base.flops_per_value, 0)} FLOPs per value, set against "
        f"the budget. FPGA: {fmt.grouped(FPGA_VALUES_PER_S / 1e9)} G values/s (illustrative). Latency: "
        f"{fmt.fixed(MODULE_LATENCY_S * 1e6, 0)} µs (illustrative). Section 12 lists each of these inputs with "
        "its origin."
    )
    t = s.table(
        "Budget",
        "Port, G values/s",
        "Optics, G values/s",
        "Compute, G values/s",
        "FPGA, G values/s",
        "Binding stage",
        "Module time per step",
    )
    for b in BUDGETS:
        spec = base.with_budget(b)
        rates = stage_rates(spec)
        stage, _ = binding_stage(spec)
        mt = module_time(spec, ctx.inputs.n_params)
        t.add(
            BUDGET_LABELS[b],
            fmt.fixed(rates["port"] / 1e9, 2),
            fmt.fixed(rates["optics"] / 1e9, 2),
            "not charged" if rates["compute"] == float("inf") else fmt.fixed(rates["compute"] / 1e9, 2),
            fmt.fixed(rates["fpga"] / 1e9, 2),
            cell(stage, stage, f"sim.module.binding.{b}"),
            cell(mt, fmt.unit(mt * 1e3, 2, "ms"), f"sim.module.time_ms.{b}"),
        )
    stop = budget_stops_binding(base)
    t = s.table("Quantity", "Value")
    t.add(
        "Budget above which the transform stops binding",
        cell(stop, _gflops(stop), "sim.module.budget_stops_binding.gflops"),
    )
    port_values = stage_rates(base)["port"]
    t.add("Port rate", cell(port_values, fmt.unit(port_values / 1e9, 1, "G values/s"), "sim.module.port_gvalues"))
    direct = port_values * 2 * (CHUNK // 16)
    t.add(
        "Band computed directly at the port rate (16 multiply-adds per value)",
        cell(direct, _gflops(direct), "sim.module.direct_band_gflops"),
    )
    fft = port_values * base.flops_per_value
    t.add(
        "Whole-chunk FFT at the port rate (20 FLOPs per value)",
        cell(fft, _gflops(fft), "sim.module.fft_at_port_gflops"),
    )
    s.text(
        "The results home page quotes 100 GFLOP/s for a fast transform of each whole chunk (4 multiply-adds per "
        "value). With our convention of 2.5·n·log2 n FLOPs per real FFT the count is "
        f"{fmt.fixed(base.flops_per_value, 0)} FLOPs per value, or {_gflops(fft)}. Power: "
        f"{fmt.fixed(MODULE_STATIC_W, 1)} W static (the paper), a {fmt.fixed(LASER_W, 0)} W laser (illustrative), "
        f"{fmt.fixed(MODULE_PJ_PER_BIT, 2)} pJ/bit (the developer's figure)."
    )


def _section_worked(ctx: _Context) -> None:
    s = ctx.doc.section("4. The closed form, worked on AdamW, 2 DC × 4 over 100 GbE")
    pa = ctx.plan("A", None)
    comp = pa.phases[0].time
    rounds = pa.rounds
    rs = sum(r.time for r in rounds if r.label.startswith("reduce-scatter"))
    wan = sum(r.time for r in rounds if r.scope == "wan")
    ag = sum(r.time for r in rounds if r.label.startswith("all-gather"))
    s.text(
        f"Per worker, compute is 6·N·tokens ÷ ({_plain(ctx.presets.device.peak_flops / 1e12)} TFLOP/s × MFU), with "
        f"N the parameter count and tokens the worker's {ctx.inputs.seqs_per_worker} sequences of "
        f"{ctx.inputs.seq_len}. Each ring round takes a latency plus bytes ÷ bandwidth. Between data centres the "
        "all-reduce runs in three tiers: inside each DC a reduce-scatter over NDR; across the WAN an all-reduce "
        "of the shards, with a DC's workers sharing its egress (for two DCs, B ÷ bandwidth plus two latencies); "
        "then inside each DC an all-gather over NDR."
    )
    t = s.table("Piece", "Time")
    t.add("Compute", cell(comp, _ms(comp), "sim.anchor.compute_ms"))
    t.add("Reduce-scatter in each DC (NDR, 3 rounds)", cell(rs, _ms(rs), "sim.anchor.intra_rs_ms"))
    t.add("Shards all-reduced across the WAN", cell(wan, _ms(wan), "sim.anchor.wan_ms"))
    t.add("All-gather in each DC (NDR, 3 rounds)", cell(ag, _ms(ag), "sim.anchor.intra_ag_ms"))
    t.add("Step", cell(pa.time, _ms(pa.time), "sim.anchor.step_ms"))


def _section_energy(ctx: _Context) -> dict[str, dict[str, float]]:
    s = ctx.doc.section("5. Energy per step and to target")
    dev = ctx.presets.device
    s.text(
        f"Energy of the whole cluster of {ctx.inputs.workers} workers on {ctx.home.label}. GPUs: a static "
        f"{_plain(dev.idle_w)} W each for the full step, plus {_plain(dev.pj_per_flop)} pJ for every FLOP "
        "(illustrative coefficients from the presets). Links: every link charges its pJ/bit on each byte it "
        "carries; a byte bound for another DC also passes the NDR fabric at the sending and at the receiving end, "
        "and E′'s summed band passes it twice on the way back (into the switch's module, then out to the "
        f"workers). Modules: ({fmt.fixed(MODULE_STATIC_W, 1)} W + {fmt.fixed(LASER_W, 0)} W laser) each while "
        f"the step lasts, plus {fmt.fixed(MODULE_PJ_PER_BIT, 2)} pJ/bit over the delta each one streams. Energy "
        "to target is the step count times the energy per step."
    )
    t = s.table("Variant", "Compute, J", "Link, J", "Module, J", "Per step, J", "Module share", "To 3.158")
    energy_data: dict[str, dict[str, float]] = {}
    for v, b in ROWS:
        e = cf.energy_per_step(ctx.plan(v, b), ctx.presets)
        steps = ctx.steps(v)
        total = e.total * steps if steps is not None else None
        sfx = _suffix(b)
        energy_data[f"{v}{sfx}"] = {"compute": e.compute, "link": e.link, "module": e.module, "total": e.total}
        t.add(
            _row_label(v, b),
            fmt.fixed(e.compute, 3),
            fmt.fixed(e.link, 4),
            fmt.fixed(e.module, 3),
            cell(e.total, fmt.fixed(e.total, 3), f"sim.energy.{v}{sfx}.j_per_step"),
            cell(e.module / e.total, fmt.pct(e.module / e.total, 1), f"sim.energy.module_share.{v}{sfx}")
            if e.module
            else "none",
            cell(total, fmt.unit(total / 1e3, 2, "kJ"), f"sim.energy.{v}{sfx}.kj")
            if total is not None
            else "not reached",
        )
    return energy_data


def _section_hot_spots(ctx: _Context) -> dict[str, dict[str, float]]:
    s = ctx.doc.section("6. Hot spots")
    s.text(
        f"How the step on {ctx.home.label} divides among the resources. A round of the sync counts in full, "
        "latency included, against its slowest operation: the link, or the module's port where the port limits "
        "the sender (for E′'s store-and-forward return, port then NDR, that is the port, the slower leg). The "
        "module's stream counts against its binding stage, and GPU compute includes the transform of the band or "
        "of top-k."
    )
    t = s.table("Variant", *HOT_SPOT_RESOURCES)
    hot_data: dict[str, dict[str, float]] = {}
    for v, b in ROWS:
        hs = cf.hot_spots(ctx.plan(v, b))
        hot_data[f"{v}{_suffix(b)}"] = hs
        cells: list[Cell | str] = [_row_label(v, b)]
        for res in HOT_SPOT_RESOURCES:
            share = hs.get(res, 0.0)
            key = f"sim.hotspot.{v}{_suffix(b)}.{res.replace(' ', '_').replace('-', '_').lower()}"
            cells.append(cell(share, fmt.pct(share, 1), key) if share else "·")
        t.add(*cells)
    return hot_data


def _wan_pairs() -> list[tuple[str, str, str]]:
    """(challenger, incumbent, steps basis) of the WAN break-evens, in table order."""
    pairs = [(ch, inc, basis) for basis in ("e", "c") for ch in ("Ep", "E") for inc in ("A", "B", "C", "Cp")]
    pairs += [(ch, inc, "m") for ch, inc in (("Cp", "A"), ("Cp", "B"), ("Cp", "C"), ("C", "A"), ("C", "B"), ("B", "A"))]
    return pairs


def _wan_advantage(ctx: _Context, ch: str, inc: str, sc: float, si: float) -> Callable[[float], float]:
    """Challenger's time to target less the incumbent's on 2 DC × 4 at a WAN bandwidth (negative: it wins)."""

    def adv(bw: float) -> float:
        return sc * cf.step_time_at_wan(ctx.inputs, ctx.presets, ch, ctx.home, bw) - si * cf.step_time_at_wan(
            ctx.inputs, ctx.presets, inc, ctx.home, bw
        )

    return adv


def _budget_advantage(
    ctx: _Context, ch: str, inc: str, topo: Topology, sc: float, si: float
) -> Callable[[float], float]:
    """Challenger's time to target less the incumbent's on ``topo`` at a module compute budget (FLOP/s)."""

    def adv(g: float) -> float:
        return (
            sc * cf.build_plan(ctx.inputs, ctx.presets, ch, topo, g).time
            - si * cf.build_plan(ctx.inputs, ctx.presets, inc, topo, g).time
        )

    return adv


def _section_breakevens(ctx: _Context) -> tuple[dict[str, Any], dict[str, Any], list[dict[str, Any]]]:
    s = ctx.doc.section("7. Break-evens")
    s.text(
        "Each crossing is found by bisection, halving the interval in log space, to a relative tolerance of "
        f"{_power_of_ten(REL_TOL)}. (a) The bandwidth between data centres, searched from "
        f"{_plain(WAN_SWEEP[0] / 1e9)} to {_plain(WAN_SWEEP[1] / 1e9)} GB/s on 2 DC × 4 with the 100 GbE preset's "
        "latency kept; E and E′ run at [free]. The steps basis says whose step counts are used: 'E' gives the "
        "in-transit variants E's single-seed steps (a hypothesis); 'C' gives in-transit and band variants alike "
        "the exact band's steps; 'measured' marks pairs with no in-transit variant. Read a row as: below (or "
        "above) the crossing, the challenger reaches the target before the incumbent. The Gb/s column gives the "
        "crossing in bits to two decimals, the last column to three significant figures."
    )
    t = s.table("Challenger vs incumbent", "Steps basis", "Crossing", "Gb/s", "Challenger wins", "Crossing in bits")
    be_wan: dict[str, dict[str, object]] = {}
    for ch, inc, basis in _wan_pairs():
        c = crossing(_wan_advantage(ctx, ch, inc, ctx.steps_basis(ch, basis), ctx.steps_basis(inc, basis)), *WAN_SWEEP)
        crossing_cell, value = _crossing_cell(c, _gbps, f"sim.breakeven.wan.{ch}_vs_{inc}.{basis}.gbps")
        be_wan[f"{ch}_vs_{inc}.{basis}"] = {"value": value, "wins": c.wins}
        t.add(
            f"{cf.VARIANTS[ch].name} vs {cf.VARIANTS[inc].name} ({basis})",
            {"e": "E", "c": "C (exact)", "m": "measured"}[basis],
            crossing_cell,
            fmt.fixed(value * 8 / 1e9, 2) if value is not None else "·",
            c.wins,
            _gbit_cell(value, f"sim.breakeven.wan.{ch}_vs_{inc}.{basis}.gbit"),
        )
    sc_m, si_m = ctx.mean_steps("Cp"), ctx.mean_steps("A")
    c = crossing(_wan_advantage(ctx, "Cp", "A", sc_m, si_m), *WAN_SWEEP)
    crossing_cell, value = _crossing_cell(c, _gbps, "sim.breakeven.wan.Cp_vs_A.m_mean.gbps")
    t.add(
        "C′ vs A (measured, the seeds' unrounded mean steps)",
        "measured, unrounded mean",
        crossing_cell,
        fmt.fixed(value * 8 / 1e9, 2) if value is not None else "·",
        c.wins,
        _gbit_cell(value, "sim.breakeven.wan.Cp_vs_A.m_mean.gbit"),
    )
    s.text(
        "(b) The module's compute budget with the transform charged, searched from "
        f"{_plain(BUDGET_SWEEP[0] / 1e9)} to {_plain(BUDGET_SWEEP[1] / 1e9)} GFLOP/s. All of these rows rest on "
        "the step counts of E's single seed, so each one is a hypothesis."
    )
    t = s.table("Challenger vs incumbent, WAN", "Crossing", "Challenger wins")
    be_budget: dict[str, dict[str, object]] = {}
    for tk in (WAN8, HOME):
        topo = ctx.topos[tk]
        for ch, inc in (("E", "C"), ("E", "A"), ("Ep", "A"), ("Ep", "B"), ("Ep", "Cp"), ("Ep", "C")):
            adv = _budget_advantage(ctx, ch, inc, topo, ctx.steps_basis(ch, "e"), ctx.steps_basis(inc, "e"))
            c = crossing(adv, *BUDGET_SWEEP)
            crossing_cell, value = _crossing_cell(c, _gflops, f"sim.breakeven.budget.{tk}.{ch}_vs_{inc}.gflops")
            be_budget[f"{tk}.{ch}_vs_{inc}"] = {"value": value, "wins": c.wins}
            t.add(f"{cf.VARIANTS[ch].name} vs {cf.VARIANTS[inc].name}, {topo.label}", crossing_cell, c.wins)
    t.add("The transform stops binding (any WAN)", _gflops(budget_stops_binding(ModuleSpec())), "·")
    enob = _enob_breakeven(ctx, s)
    _sweeps(s)
    return be_wan, be_budget, enob


def _gbit_cell(value: float | None, key: str) -> Cell | str:
    """A WAN crossing in Gb/s to three significant figures (the home page's 52.7, 12.5 and 6.64), or "·"."""
    if value is None:
        return "·"
    return cell(value * 8 / 1e9, f"{_sig(value * 8 / 1e9)} Gb/s", key)


def _sweeps(s: Section) -> None:
    """The ranges the break-evens searched, and the bisection's tolerance, as figures."""
    s.text(
        "The searched ranges. A pair with no crossing inside its range reads 'never' or 'always': the claim holds "
        "only for that range. The WAN rows (a) and the ENOB rows (c) keep the module at [free]."
    )
    t = s.table("Searched range", "From", "To", "Range")
    lo, hi = WAN_SWEEP
    t.add(
        "Inter-DC bandwidth, (a)",
        cell(lo, f"{_plain(lo / 1e9)} GB/s", "sim.setting.wan_sweep.low"),
        cell(hi, f"{_plain(hi / 1e9)} GB/s", "sim.setting.wan_sweep.high"),
        _text_cell(f"{_plain(lo / 1e9)}–{_plain(hi / 1e9)} GB/s", "sim.setting.wan_sweep.range"),
    )
    lo, hi = BUDGET_SWEEP
    t.add(
        "Module compute budget, transform charged, (b)",
        cell(lo, f"{_plain(lo / 1e9)} GFLOP/s", "sim.setting.budget_sweep.low"),
        cell(hi, f"{_plain(hi / 1e9)} GFLOP/s", "sim.setting.budget_sweep.high"),
        _text_cell(f"{_plain(lo / 1e9)}–{_plain(hi / 1e9)} GFLOP/s", "sim.setting.budget_sweep.range"),
    )
    t = s.table("Quantity", "Value")
    t.add(
        "Relative tolerance of the bisection",
        cell(REL_TOL, _power_of_ten(REL_TOL), "sim.setting.breakeven.tolerance"),
    )


def _enob_breakeven(ctx: _Context, s: Section) -> list[dict[str, Any]]:
    s.text(
        "(c) ENOB acts on the result only through training: at each measured ENOB the optics run's own step count "
        "is used (one seed each, 8 planes), held constant up to the next measured value. Times to "
        f"{TARGET} are set against AdamW's, with E and E′ at [free]."
    )
    enob_cfgs = sorted(
        (
            c
            for c in ctx.inputs.configs.values()
            if c.name.startswith("E") and c.planes in (None, 8) and c.enob is not None
        ),
        key=lambda c: c.enob or 0.0,
    )
    t = s.table(
        "ENOB", "Steps to 3.158", "E′ [free], 8 Gb/s WAN", "AdamW, 8 Gb/s WAN", "E′ [free], 100 GbE", "AdamW, 100 GbE"
    )
    a8 = ctx.time_to_target["A"][WAN8]
    a100 = ctx.time_to_target["A"][HOME]
    enob_rows: list[dict[str, Any]] = []
    break_enob: float | None = None
    for c in enob_cfgs:
        steps = steps_to(c, TARGET)
        tag = fmt.fixed(c.enob or 0.0, 0)
        ep8 = steps * ctx.plan("Ep", "free", WAN8).time if steps is not None else None
        ep100 = steps * ctx.plan("Ep", "free").time if steps is not None else None
        if ep8 is not None and a8 is not None and ep8 < a8 and break_enob is None:
            break_enob = c.enob
        enob_rows.append({"enob": c.enob, "steps": steps, "Ep_8gbps_s": ep8, "Ep_100gbe_s": ep100})
        t.add(
            f"ENOB {tag}",
            cell(steps, fmt.grouped(steps), f"sim.enob.{tag}.steps") if steps is not None else "not reached",
            cell(ep8, _s(ep8), f"sim.enob.{tag}.Ep.8gbps.s") if ep8 is not None else "not reached",
            _s(a8) if a8 is not None else "·",
            cell(ep100, _s(ep100), f"sim.enob.{tag}.Ep.100gbe.s") if ep100 is not None else "not reached",
            _s(a100) if a100 is not None else "·",
        )
    t = s.table("Quantity", "Value")
    be_text = fmt.fixed(break_enob, 0) if break_enob is not None else "none"
    t.add(
        "Break-even ENOB (lowest measured ENOB at which E′ [free] beats AdamW on the 8 Gb/s WAN)",
        cell(break_enob if break_enob is not None else be_text, be_text, "sim.breakeven.enob"),
    )
    return enob_rows


def _section_planes(ctx: _Context) -> list[dict[str, Any]]:
    s = ctx.doc.section("8. Bit planes")
    s.text(
        "A bit plane costs one optical pass, so the plane count fixes the optics stage's rate as well as the "
        f"precision. {ctx.home.label}, ENOB 8, [free]; one seed for each plane count."
    )
    t = s.table(
        "Planes", "Optics, G values/s", "Binding stage", "Steps to 3.158", "E [free]", "E′ [free] (hypothetical)"
    )
    plane_cfgs = sorted(
        (c for c in ctx.inputs.configs.values() if c.name.startswith("E") and c.enob in (None, 8.0) and c.planes),
        key=lambda c: c.planes or 0,
    )
    best: tuple[float, int] | None = None
    plane_rows: list[dict[str, Any]] = []
    for c in plane_cfgs:
        planes = c.planes or 8
        spec = ModuleSpec(planes=planes)
        steps = steps_to(c, TARGET)
        pe = cf.build_plan(ctx.inputs, ctx.presets, "E", ctx.home, "free", module=spec)
        pep = cf.build_plan(ctx.inputs, ctx.presets, "Ep", ctx.home, "free", module=spec)
        te = steps * pe.time if steps is not None else None
        tep = steps * pep.time if steps is not None else None
        if te is not None and (best is None or te < best[0]):
            best = (te, planes)
        plane_rows.append({"planes": planes, "steps": steps, "E_s": te, "Ep_s": tep})
        t.add(
            f"{planes} planes",
            fmt.fixed(stage_rates(spec)["optics"] / 1e9, 2),
            binding_stage(spec)[0],
            fmt.grouped(steps) if steps is not None else "not reached",
            cell(te, _s(te), f"sim.planes.{planes}.E.s") if te is not None else "not reached",
            cell(tep, _s(tep), f"sim.planes.{planes}.Ep.s") if tep is not None else "not reached",
        )
    t = s.table("Quantity", "Value")
    if best is not None:
        t.add("Fastest plane count to 3.158 (E [free])", cell(best[1], str(best[1]), "sim.planes.fastest"))
    return plane_rows


def _shared_wan_plan(ctx: _Context, v: str, b: str | None) -> tuple[cf.StepPlan, str | None]:
    budget = b if cf.VARIANTS[v].module else None
    return ctx.plan(v, budget), budget


def _section_shared_wan(ctx: _Context) -> dict[str, dict[str, Any]]:
    s = ctx.doc.section("9. A shared WAN (discrete-event engine)")
    s.text(
        "Background traffic from other jobs on each WAN egress: "
        f"{_plain(fifo.BACKGROUND_TRANSFER_BYTES / 1e6)} MB transfers (illustrative) arriving as a Poisson process, "
        "at a load expressed as a fraction of the link's capacity. The sync's own WAN transfers are split into "
        f"pieces of at most {_plain(fifo.CHUNK_BYTES / 1e6)} MB and wait in the same FIFO queue. Each mean is taken "
        f"over {SHARED_WAN_SYNCS} syncs on {ctx.home.label} with seed {SHARED_WAN_SEED}; the spread is the range "
        f"of that mean across seeds {SHARED_WAN_SEED}, {_seeds_text(SHARED_WAN_SPREAD_SEEDS)} at load "
        f"{fmt.fixed(SHARED_WAN_LOADS[-1], 1)}. The closed form has no queues and cannot show any of this."
    )
    # Every (variant, load, seed) run is an independent point: run them all at once, then lay them out.
    points: list[EnginePoint] = []
    for v, b in SHARED_WAN_VARIANTS:
        plan, _ = _shared_wan_plan(ctx, v, b)
        points += [EnginePoint(plan, SHARED_WAN_SYNCS, load, SHARED_WAN_SEED) for load in SHARED_WAN_LOADS]
        points += [EnginePoint(plan, SHARED_WAN_SYNCS, 0.9, seed) for seed in SHARED_WAN_SPREAD_SEEDS]
    results = iter(run_engine_points(points))
    t = s.table("Variant", *[f"Load {fmt.fixed(x, 1)}" for x in SHARED_WAN_LOADS], "Spread at 0.9 over seeds")
    shared: dict[str, dict[str, Any]] = {}
    for v, b in SHARED_WAN_VARIANTS:
        _, budget = _shared_wan_plan(ctx, v, b)
        cells: list[Cell | str] = [_row_label(v, budget)]
        row: dict[str, Any] = {}
        for load in SHARED_WAN_LOADS:
            mean = next(results).mean_step
            row[fmt.fixed(load, 1)] = mean
            cells.append(cell(mean, _ms(mean), f"sim.shared_wan.{v}.load{fmt.fixed(load, 1).replace('.', '_')}.ms"))
        means = [row[fmt.fixed(0.9, 1)]] + [next(results).mean_step for _ in SHARED_WAN_SPREAD_SEEDS]
        spread = f"{fmt.fixed(min(means) * 1e3, 3)}–{fmt.fixed(max(means) * 1e3, 3)} ms"
        row["seeds_at_0.9"] = means
        cells.append(cell(statistics.pstdev(means), spread, f"sim.shared_wan.{v}.load0_9.spread"))
        shared[v] = row
        t.add(*cells)
    t = s.table("Setting", "Value")
    for load in SHARED_WAN_LOADS:
        tag = fmt.fixed(load, 1)
        t.add(
            f"Background load, column Load {tag}",
            cell(load, tag, f"sim.setting.shared_wan.load{tag.replace('.', '_')}"),
        )
    mb = fifo.BACKGROUND_TRANSFER_BYTES
    t.add("Size of each background transfer", cell(mb, f"{_plain(mb / 1e6)} MB", "sim.setting.shared_wan.transfer"))
    t.add(
        "Largest piece of the sync's WAN transfers",
        cell(fifo.CHUNK_BYTES, f"{_plain(fifo.CHUNK_BYTES / 1e6)} MB", "sim.setting.shared_wan.chunk"),
    )
    t.add("Syncs in each mean", cell(SHARED_WAN_SYNCS, fmt.integer(SHARED_WAN_SYNCS), "sim.setting.shared_wan.syncs"))
    t.add("Seed of the means", cell(SHARED_WAN_SEED, str(SHARED_WAN_SEED), "sim.setting.shared_wan.seed"))
    t.add(
        "Other seeds of the spread",
        _text_cell(_seeds_text(SHARED_WAN_SPREAD_SEEDS), "sim.setting.shared_wan.spread_seeds"),
    )
    return shared


def _seeds_text(seeds: tuple[int, ...]) -> str:
    """``1 and 2``; ``1, 2 and 3``."""
    names = [str(x) for x in seeds]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _section_extrapolations(ctx: _Context) -> tuple[list[dict[str, Any]], dict[str, dict[str, float]]]:
    s = ctx.doc.section("10. Extrapolations (outside the experiment)")
    s.text(
        f"Model size on {ctx.home.label}; every row is an extrapolation. Compute, payloads and the module's "
        f"stream grow in proportion to the parameter count, while the steps to {TARGET} stay as measured, which "
        "is an assumption. The largest size is the presets' Llama-3-8B shape."
    )
    size_cols = [("A", None), ("B", None), ("Cp", None), ("E", "high"), ("Ep", "free")]
    t = s.table(
        "Model size (extrapolated)", "Parameters", *[_row_label(v, b) for v, b in size_cols], "Hot spot of E [high]"
    )
    size_data: list[dict[str, Any]] = []
    for label, n in scaled_sizes(ctx.inputs.n_params, ctx.presets.llama3_8b_params):
        cells: list[Cell | str] = [f"{label} (extrapolated)", fmt.integer(n)]
        row: dict[str, Any] = {"size": label, "n_params": n}
        for v, b in size_cols:
            plan = cf.build_plan(ctx.inputs, ctx.presets, v, ctx.home, b or "free", n_params=n)
            steps = ctx.steps(v)
            x = plan.time * steps if steps is not None else None
            row[f"{v}{_suffix(b)}"] = x
            cells.append(cell(x, _s(x), f"sim.extrap.size.{label}.{v}{_suffix(b)}.s") if x is not None else "·")
        hs = cf.hot_spots(cf.build_plan(ctx.inputs, ctx.presets, "E", ctx.home, "high", n_params=n))
        top = max(hs, key=lambda k: hs[k])
        cells.append(f"{top} {fmt.pct(hs[top], 1)}")
        size_data.append(row)
        t.add(*cells)
    s.text(
        f"Syncing once every H steps, in the manner of DiLoCo, with the steps to {TARGET} left unchanged. That "
        "is assumed, not measured, and DiLoCo changes the optimiser as well. Training compute happens at every "
        "step; the transform, the module's stream and the collective happen once per sync. "
        f"{ctx.home.label}; E and E′ at [free]."
    )
    dl_cols = [("A", None), ("B", None), ("C", None), ("Cp", None), ("E", "free"), ("Ep", "free")]
    t = s.table("H (extrapolated)", *[_row_label(v, b) for v, b in dl_cols])
    dl_data: dict[str, dict[str, float]] = {}
    for h in DILOCO_H:
        cells = [f"H = {h} (extrapolated)"]
        for v, b in dl_cols:
            steps = ctx.steps(v)
            assert steps is not None
            x = diloco_time(ctx.plan(v, b), steps, h)
            dl_data.setdefault(str(h), {})[f"{v}{_suffix(b)}"] = x
            cells.append(cell(x, _s(x), f"sim.extrap.diloco.h{h}.{v}.s"))
        t.add(*cells)
    t = s.table("Setting (extrapolated)", "Value")
    for label, n in scaled_sizes(ctx.inputs.n_params, ctx.presets.llama3_8b_params):
        multiple = n / ctx.inputs.n_params
        if label.endswith("x") and multiple == int(multiple):
            t.add(
                f"Model size, {label} the experiment's parameters (extrapolated)",
                cell(multiple, f"{fmt.integer(int(multiple))}x", f"sim.setting.size.{label}"),
            )
    for h in DILOCO_H:
        t.add(
            f"Sync interval, the row H = {h} (extrapolated)",
            cell(h, fmt.integer(h), f"sim.setting.diloco.h{h}"),
        )
    return size_data, dl_data


def _section_published(ctx: _Context) -> dict[str, dict[str, Any]]:
    s = ctx.doc.section("11. Published figures and ours")
    s.text(
        "Each simulation figure that deck CiT 05 or the Compute in Transit results page quotes and that this "
        "model computes, beside our value. 'yes' means the two texts are identical once formatted."
    )
    compare = published_against_ours(
        s, ctx.doc, (Published(key, text, key) for key, text in PUBLISHED.items()), first_column="Figure key"
    )
    for paragraph in _published_notes(ctx, compare):
        s.text(paragraph)
    return compare


# Short names of the inter-DC links whose names hold a number the content must show as a figure.
_LINK_ORDER = ("ib-ndr", "eth-100g", "eth-25g", "wan-8g", "eth-400g", "eth-800g")


def _link_short(key: str, gbit: float) -> str | None:
    """``8 Gb/s WAN``, ``400G``, ``800G`` for the illustrative links (derived from their bandwidth), else None."""
    if key == "wan-8g":
        return f"{_plain(gbit)} Gb/s WAN"
    if key in ("eth-400g", "eth-800g"):
        return f"{_plain(gbit)}G"
    return None


def _section_inputs(ctx: _Context) -> None:
    s = ctx.doc.section("12. Inputs and settings")
    s.text(
        "Every input of the model that the experiment does not measure, with where it comes from. The device and "
        "the links are read and validated from presets.yaml, pinned by SHA-256 in data/sources.yaml: the "
        "presets of Disaggregated_Inference_Sim at the commit deck CiT 05 names. That file's header records that "
        "this commit holds no hardware.py and that its values were read at a version that does, whose presets "
        "reproduce the figures in that commit's results file; both short hashes are named constants of "
        "site_builder.sources.presets, since a YAML comment is not data. The MFU, the module's figures, the "
        "budgets and the illustrative links are named constants of the model, each marked with its origin: the "
        "deck, the module's paper, its developer, or an illustrative choice. The measured inputs, steps to each "
        "loss and bytes per step, come from the experiment model (section 1 here, and the experiment's results)."
    )
    _inputs_presets(s, ctx)
    _inputs_links(s, ctx)
    _inputs_topologies(s, ctx)
    _inputs_module(s, ctx)


def _inputs_presets(s: Section, ctx: _Context) -> None:
    pr = ctx.presets
    dev = pr.device
    t = s.table("Presets and device", "Value", "From")
    t.add(
        "Presets commit named by the deck",
        _text_cell(pr.commit_named, "sim.setting.presets.commit"),
        "deck CiT 05; presets.yaml's header",
    )
    t.add(
        "Commit the preset values were read at",
        _text_cell(pr.commit_read, "sim.setting.presets.commit_read"),
        "presets.yaml's header",
    )
    t.add("Accelerator", _text_cell(dev.name, "sim.setting.device.name"), "presets.yaml, accelerators.h100")
    t.add(
        "Peak BF16 dense rate",
        cell(dev.peak_flops, f"{_plain(dev.peak_flops / 1e12)} TFLOP/s", "sim.setting.device.peak"),
        "presets.yaml, accelerators.h100",
    )
    t.add(
        "Model FLOPs utilisation (MFU)",
        cell(dev.mfu, fmt.fixed(dev.mfu, 2), "sim.setting.device.mfu"),
        "deck CiT 05 (not the presets' default)",
    )
    t.add(
        "Rate a worker trains at (peak × MFU)",
        cell(dev.flops, f"{_plain(dev.flops / 1e12, 1)} TFLOP/s", "sim.setting.device.achieved"),
        "derived",
    )
    t.add(
        "Static power per GPU",
        cell(dev.idle_w, f"{_plain(dev.idle_w)} W", "sim.setting.device.static_w"),
        "presets.yaml (illustrative)",
    )
    t.add(
        "Energy per FLOP",
        cell(dev.pj_per_flop, f"{_plain(dev.pj_per_flop)} pJ/FLOP", "sim.setting.device.pj_per_flop"),
        "presets.yaml (illustrative)",
    )


def _inputs_links(s: Section, ctx: _Context) -> None:
    pr = ctx.presets
    s.text(
        "Links: NDR joins the workers inside a data centre (and is the port a pluggable module sits on); the "
        "others join the data centres. The last three are illustrative, derived from the 100 GbE preset with "
        "only the bandwidth changed."
    )
    t = s.table("Link", "Short name", "Bandwidth", "In bits", "Latency", "Energy per bit", "From")
    for key in _LINK_ORDER:
        li = pr.links[key]
        gbit = li.bandwidth * 8 / 1e9
        short = _link_short(key, gbit)
        t.add(
            li.name,
            _text_cell(short, f"sim.setting.link.{key}.name") if short else "·",
            cell(li.bandwidth, f"{_plain(li.bandwidth / 1e9)} GB/s", f"sim.setting.link.{key}.gbytes"),
            cell(gbit, f"{_plain(gbit)} Gb/s", f"sim.setting.link.{key}.gbit"),
            cell(li.latency, f"{_plain(li.latency * 1e6)} µs", f"sim.setting.link.{key}.latency"),
            cell(li.pj_per_bit, f"{_plain(li.pj_per_bit)} pJ/bit", f"sim.setting.link.{key}.pj_per_bit"),
            "illustrative" if li.illustrative else f"presets.yaml, links.{key}",
        )


def _inputs_topologies(s: Section, ctx: _Context) -> None:
    pr = ctx.presets
    s.text("Topologies: how the workers are spread over data centres, and the inter-DC links each shape is run on.")
    t = s.table("Shape", "Data centres", "Workers per data centre", "Inter-DC links")
    shapes: dict[tuple[int, int], list[str]] = {}
    for key, _label, dcs, per_dc, wan in cf.TOPOLOGY_SPECS:
        shapes.setdefault((dcs, per_dc), []).append(key if wan is None else wan)
    for (dcs, per_dc), links in shapes.items():
        names = [
            "none (NDR only)"
            if k not in pr.links
            else (_link_short(k, pr.links[k].bandwidth * 8 / 1e9) or pr.links[k].name)
            for k in links
        ]
        t.add(
            _text_cell(f"{dcs} DC × {per_dc}", f"sim.setting.shape.{dcs}dc{per_dc}"),
            fmt.integer(dcs),
            fmt.integer(per_dc),
            ", ".join(names),
        )


def _inputs_module(s: Section, ctx: _Context) -> None:
    pr = ctx.presets
    base = ModuleSpec()
    optics_bits = base.lanes * base.lane_bits_per_s
    t = s.table("The module", "Value", "From")
    t.add(
        "Module port rate (QSFP56)",
        cell(base.port_bytes_per_s, f"{_plain(base.port_bytes_per_s / 1e9)} GB/s", "sim.setting.module.port"),
        "deck CiT 05 (the QSFP56 form factor is the paper's)",
    )
    ndr = pr.links["ib-ndr"]
    t.add(
        "Rate of the port the module sits on (NDR)",
        cell(ndr.bandwidth, f"{_plain(ndr.bandwidth / 1e9)} GB/s", "sim.setting.module.host_port"),
        "presets.yaml, links.ib-ndr",
    )
    t.add("Optical lanes", cell(base.lanes, fmt.integer(base.lanes), "sim.setting.module.lanes"), "the module's paper")
    t.add(
        "Rate per lane (NRZ)",
        cell(base.lane_bits_per_s, f"{_plain(base.lane_bits_per_s / 1e9)} Gb/s", "sim.setting.module.lane"),
        "the module's paper",
    )
    t.add(
        "Optical line rate (lanes × rate)",
        cell(optics_bits, f"{_plain(optics_bits / 1e9)} Gb/s", "sim.setting.module.optics_gbit"),
        "derived",
    )
    t.add(
        "Optical line rate in bytes (÷ 8 bits)",
        cell(optics_bits / 8, f"{_plain(optics_bits / 8e9)} GB/s", "sim.setting.module.optics_gbytes"),
        "derived",
    )
    _module_stages(t, base, ctx)


def _module_stages(t: Table, base: ModuleSpec, ctx: _Context) -> None:
    """The module table's rows from its bit planes on: the stages, the power and the compute budgets."""
    e_planes = ctx.inputs.configs["E"].planes
    if e_planes != base.planes:
        raise ValueError(f"the module's {base.planes} bit planes are not the E run's {e_planes}")
    t.add(
        "Bit planes, one optical pass each",
        cell(base.planes, fmt.integer(base.planes), "sim.setting.module.planes"),
        "the model's default, checked equal to the E run's",
    )
    t.add(
        "Optics stage rate at that plane count",
        cell(
            stage_rates(base)["optics"],
            f"{_plain(stage_rates(base)['optics'] / 1e9)} G values/s",
            "sim.setting.module.optics_gvalues",
        ),
        "derived (line rate ÷ planes)",
    )
    t.add(
        "Points of the real FFT per chunk",
        cell(CHUNK, fmt.integer(CHUNK), "sim.setting.module.fft_points"),
        "deck CiT 05",
    )
    t.add(
        "FLOPs per value of that FFT",
        cell(base.flops_per_value, _plain(base.flops_per_value), "sim.setting.module.flops_per_value"),
        "derived (2.5·n·log2 n ÷ n)",
    )
    t.add(
        "FPGA stage rate",
        cell(base.fpga_values_per_s, f"{_plain(base.fpga_values_per_s / 1e9)} G values/s", "sim.setting.module.fpga"),
        "illustrative",
    )
    t.add(
        "Latency of one pass through the module",
        cell(base.latency_s, f"{_plain(base.latency_s * 1e6)} µs", "sim.setting.module.latency"),
        "illustrative",
    )
    t.add(
        "Static power",
        cell(base.static_w, f"{_plain(base.static_w)} W", "sim.setting.module.static_w"),
        "the module's paper",
    )
    t.add("Laser power", cell(base.laser_w, f"{_plain(base.laser_w)} W", "sim.setting.module.laser_w"), "illustrative")
    t.add(
        "Energy per bit processed (laser excluded)",
        cell(base.pj_per_bit, f"{_plain(base.pj_per_bit)} pJ/bit", "sim.setting.module.pj_per_bit"),
        "the developer's website",
    )
    for b in ("low", "high"):
        flops = BUDGETS[b]
        assert flops is not None
        t.add(
            f"Compute budget [{b}], transform charged",
            cell(flops, _budget_text(b), f"sim.setting.module.budget.{b}"),
            "illustrative bracket (deck CiT 05)",
        )


def _published_notes(ctx: _Context, compare: dict[str, dict[str, Any]]) -> list[str]:
    """Paragraphs: how the figures that needed a reading reproduce, and why the ones that do not differ."""
    back = next(r for r in ctx.plan("Ep", "free").rounds if r.port_first)
    assert back.port_rate is not None
    overlapped = back.link.latency + max(back.link_time, back.port_time)
    ep_keys = [k for k in compare if (".Ep" in k or "Ep_vs" in k) and not k.startswith("sim.shared_wan.")]
    ep_same = sum(1 for k in ep_keys if compare[k]["reproduced"])
    missed = [k for k, c in compare.items() if not c["reproduced"]]
    whole = {v: ctx.steps(v) for v in ("A", "C", "E")}
    c_whole = whole["C"]
    assert c_whole is not None
    ep = (
        "**E′, the band summed at the switch.** Its path is not public. We read it as: each worker sends its whole "
        "delta to the module in its switch's port, the module computes the band, the switches ring all-reduce the "
        "band sums over the WAN, and each switch sends the total back to its workers through the module. Read with "
        "the module's port overlapping the return's NDR transfer (as a pluggable's port caps its worker's flow), "
        "every E′ figure comes out about 1% below the published one. They all follow from one reading: the summed "
        "band comes back store-and-forward. It crosses the DC fabric into the module, passes the module "
        f"({fmt.fixed(back.port_latency * 1e6, 0)} µs) and its port (band ÷ {fmt.fixed(back.port_rate / 1e9, 0)} "
        f"GB/s), and only then crosses NDR to the workers ({fmt.fixed(back.link.latency * 1e6, 0)} µs + band ÷ "
        f"{fmt.fixed(back.link.bandwidth / 1e9, 0)} GB/s). For the {fmt.integer(round(back.per_sender))}-byte band "
        f"that adds {fmt.fixed((back.time - overlapped) * 1e6, 1)} µs to every step, the same at any WAN bandwidth "
        "(so the WAN break-evens, which move only with the WAN term, come out as published too), and one more NDR "
        f"crossing of the band, at {fmt.fixed(back.link.pj_per_bit, 0)} pJ/bit. With it, "
        + ("all " if ep_same == len(ep_keys) else f"{ep_same} of the ")
        + f"{len(ep_keys)} closed-form E′ figures in the table reproduce exactly: the step, the times to "
        "target, the energy and the module's share, the WAN and budget break-evens and the DiLoCo extrapolation."
    )
    cp = (
        "**C′ against AdamW, and whole steps.** The simulation takes steps to a loss as whole steps, the way deck "
        "CiT 05 states them ("
        + ", ".join(f"{fmt.grouped(x)} for {v}" for v, x in whole.items() if x is not None)
        + "): each seed's first evaluation at or below the loss, averaged over "
        f"the seeds and rounded to a whole step. C's three seeds reach 3.158 after {fmt.grouped(ctx.mean_steps('C'), 2)} "
        f"steps on average, so {fmt.grouped(c_whole)} (as the experiment results' steps ladder prints it). With the "
        "whole steps C′ beats AdamW below " + ctx.figure_text("sim.breakeven.wan.Cp_vs_A.m.gbps") + ", as "
        "published; with the unrounded mean the crossing would be "
        + ctx.figure_text("sim.breakeven.wan.Cp_vs_A.m_mean.gbps")
        + " (section 7, the last row of (a))."
    )
    rest = (
        "**Where ours differs: a shared WAN.** " + ", ".join(missed) + ". " + WHY_SHARED
        if missed
        else "Every published figure is reproduced."
    )
    return [ep, cp, rest]


def _parameters(ctx: _Context) -> dict[str, Any]:
    dev = ctx.presets.device
    base = ModuleSpec()
    return {
        "n_params": ctx.inputs.n_params,
        "workers": ctx.inputs.workers,
        "tokens_per_worker": ctx.inputs.tokens_per_worker,
        "device": {
            "name": dev.name,
            "peak_flops": dev.peak_flops,
            "mfu": dev.mfu,
            "idle_w": dev.idle_w,
            "pj_per_flop": dev.pj_per_flop,
        },
        "links": {
            k: {
                "name": li.name,
                "bandwidth": li.bandwidth,
                "latency": li.latency,
                "pj_per_bit": li.pj_per_bit,
                "illustrative": li.illustrative,
            }
            for k, li in ctx.presets.links.items()
        },
        "module": {
            "stage_rates_free": {k: (None if v == float("inf") else v) for k, v in stage_rates(base).items()},
            "flops_per_value": base.flops_per_value,
            "latency_s": base.latency_s,
            "static_w": base.static_w,
            "laser_w": base.laser_w,
            "pj_per_bit": base.pj_per_bit,
            "budgets": BUDGETS,
            "budget_stops_binding": budget_stops_binding(base),
        },
        "steps_to_target": {v: ctx.steps(v) for v in cf.VARIANTS},
        "payload_bytes": {v: cf.payload_bytes(ctx.inputs, cf.VARIANTS[v]) for v in cf.VARIANTS},
    }


def _wan_slider(ctx: _Context) -> dict[str, dict[str, float]]:
    """For explorers: on 2 DC × 4 only the WAN rounds depend on the bandwidth; step(bw) is exact from these."""
    out: dict[str, dict[str, float]] = {}
    for v, b in ROWS:
        plan = ctx.plan(v, b)
        wan = [r for r in plan.rounds if r.scope == "wan"]
        out[f"{v}{_suffix(b)}"] = {
            "step_at_100gbe_s": plan.time,
            "wan_bytes_per_link": sum(r.sharing * r.per_sender for r in wan),
            "port_floor_s": max((r.port_time for r in wan), default=0.0),
        }
    return out


def _step_phases(ctx: _Context) -> dict[str, list[dict[str, Any]]]:
    """For explorers: every row's step on 2 DC × 4, 100 GbE, phase by phase in order. Compute and the module's
    stream by their time; each sync round by its terms, so a port can redo it at another WAN bandwidth."""
    out: dict[str, list[dict[str, Any]]] = {}
    for v, b in ROWS:
        phases: list[dict[str, Any]] = []
        for p in ctx.plan(v, b).phases:
            d: dict[str, Any] = {"kind": p.kind, "resource": p.resource, "time": p.time}
            r = p.round
            if r is not None:
                d.update(
                    scope=r.scope,
                    latency=r.link.latency,
                    bandwidth=r.link.bandwidth,
                    per_sender=r.per_sender,
                    sharing=r.sharing,
                    port_rate=r.port_rate,
                    port_first=r.port_first,
                    port_latency=r.port_latency,
                )
            phases.append(d)
        out[f"{v}{_suffix(b)}"] = phases
    return out


def _measured(ctx: _Context) -> dict[str, Any]:
    """For explorers: what the simulation takes from each measured configuration at the target."""
    return {
        "seqs_per_worker": ctx.inputs.seqs_per_worker,
        "seq_len": ctx.inputs.seq_len,
        "configs": {
            name: {
                "payload_bytes": c.payload_bytes,
                "wire_bytes": c.wire_bytes,
                "seeds": c.seeds,
                "planes": c.planes,
                "enob": c.enob,
                "steps": steps_to(c, TARGET),
                "mean_steps": steps_to(c, TARGET, whole=False),
            }
            for name, c in ctx.inputs.configs.items()
        },
    }


def _transit(ctx: _Context) -> dict[str, Any]:
    """For the transit explorer: the topologies and variants as the closed form builds them, and each variant's
    whole steps to every loss of the ladder, so a port can redo any step, time and energy to a target."""
    targets = sorted({t for c in ctx.inputs.configs.values() for t in c.steps_to}, reverse=True)
    return {
        "value_bytes": VALUE_BYTES,
        "seqs_per_worker": ctx.inputs.seqs_per_worker,
        "seq_len": ctx.inputs.seq_len,
        "intra": "ib-ndr",
        "topologies": {k: {"label": t, "dcs": d, "per_dc": w, "wan": wan} for k, t, d, w, wan in cf.TOPOLOGY_SPECS},
        "gpu_transform_flops_per_value": dict(cf.GPU_TRANSFORM_FLOPS_PER_VALUE),
        "variants": {
            k: {
                "name": v.name,
                "label": v.label,
                "steps_from": v.steps_from,
                "collective": v.collective,
                "gpu_transform": v.gpu_transform,
                "module": v.module,
                "hypothetical": v.hypothetical,
            }
            for k, v in cf.VARIANTS.items()
        },
        "targets": [fmt.fixed(t, 3) for t in targets],
        "configs": {
            name: {
                "payload_bytes": ctx.inputs.configs[name].payload_bytes,
                "steps": {fmt.fixed(t, 3): steps_to(ctx.inputs.configs[name], t) for t in targets},
            }
            for name in sorted({v.steps_from for v in cf.VARIANTS.values()})
        },
    }


def build_simulation_results(inputs: SimInputs, presets: Presets) -> ResultsDoc:
    """The whole simulation document."""
    doc = ResultsDoc(
        name="simulation",
        title="Training transit, simulated: time and energy to a loss across data centres",
        intro=_INTRO,
    )
    ctx = _Context(inputs, presets, doc)
    wire = _section_wire(ctx)
    step = _section_time(ctx)
    _section_module(ctx)
    _section_worked(ctx)
    energy = _section_energy(ctx)
    hot = _section_hot_spots(ctx)
    be_wan, be_budget, enob = _section_breakevens(ctx)
    planes = _section_planes(ctx)
    shared = _section_shared_wan(ctx)
    size, diloco = _section_extrapolations(ctx)
    compare = _section_published(ctx)
    _section_inputs(ctx)
    doc.data = {
        "target": TARGET,
        "parameters": _parameters(ctx),
        "wire_bytes": wire,
        "step_s": step,
        "time_to_target_s": ctx.time_to_target,
        "wan_slider": _wan_slider(ctx),
        "step_phases": _step_phases(ctx),
        "module_spec": asdict(ModuleSpec()),
        "measured": _measured(ctx),
        "transit": _transit(ctx),
        "energy_j_per_step": energy,
        "hot_spots": hot,
        "breakeven_wan": be_wan,
        "breakeven_budget": be_budget,
        "enob": enob,
        "planes": planes,
        "shared_wan": shared,
        "extrap_size": size,
        "extrap_diloco": diloco,
        "published_vs_ours": compare,
    }
    return doc


_INTRO = """\
This document converts the experiment's step counts and byte counts into seconds and joules, for 8
data-parallel workers whose data centres are joined by a wide-area network. A step has three parts in order: the
worker's own compute, the module's pass over the delta when the variant has a module, and a single sync of the
update, which the model assembles as the rounds of a collective over the chosen topology. The closed form gives
every figure below. Beside it, a discrete-event engine replays the same rounds on links treated as first-in,
first-out queues (a transfer starts once it has arrived and the link has finished what was queued ahead of it).
With no background traffic the engine agrees with the closed form, a SimPy version of it agrees with ours bit
for bit in the tests, and only the engine can model a WAN that other jobs use too.

The conventions, briefly. Compute is 6·N·tokens FLOPs per worker, run at the H100's 989 TFLOP/s times an MFU of
0.40. A ring round costs a latency plus bytes over bandwidth. Across data centres every collective is
hierarchical: NDR inside a DC, and the DC's workers sharing its WAN egress. A pluggable module limits its
worker's traffic to the module's 25 GB/s. E′'s summed band returns store-and-forward, first through the module
at the switch's port, then over NDR. The GPU pays for the forward transform of the band or of top-k. The time
to target is a whole number of steps (the seeds' mean, rounded as the deck rounds it) times the step time.
Hypothetical: C′ and E′, never run, which borrow C's and E's step counts. Illustrative: the 8 Gb/s WAN share,
the 400G and 800G links, the laser power, the FPGA rate and the module's latency. Extrapolated: all of section
10. From one seed: E's steps at the other ENOB and plane settings. Section 12 lists every input and setting
with its origin."""
