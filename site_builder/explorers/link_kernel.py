"""The module as a link kernel (deck CiT 05): four pipelined stages, the slowest sets the rate.

Controls: where the module sits (E, pluggable; E′, at the switch), the compute budget ([low], [high],
[free]), the bit planes and the FPGA stage's rate. The page prints the four stage rates and which binds, the
module's time per step, the budget above which the transform stops binding, the step on 2 DC × 4 over 100 GbE
with its hot-spot split, and the time to 3.158 where a run at that plane count exists (ENOB 8).

The payload comes from the simulation's results.json ``data``: the module's spec (``module_spec``), the
steps of E and E′ phase by phase (``step_phases``) and the steps to the target of the runs at each plane
count (``measured``). The port (``static/js/ports/link_kernel.js``) redoes ``module.stage_rates``,
``binding_stage``, ``module_time`` and ``budget_stops_binding``, replaces the module's phase of the step and
sums it again in order, as ``closed_form.build_plan`` and ``hot_spots`` do. At the defaults ([low], 8 planes,
20 G values/s) it prints the [low] row of results.md §3 (31.67 ms), the E [low] row of §6 (module compute
95.0%) and "binds until 140.0 GFLOP/s". The parity cases run the closed form itself on the inputs the results
document records (``sim_model.rebuild``): every row of §3, the E and E′ rows of §2 and §6 on 2 DC × 4 over
100 GbE, every row of §8, and settings away from them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from site_builder import fmt
from site_builder.explorers.sim_model import HOME, SimModel, rebuild, sim_data
from site_builder.models.simulation import closed_form as cf
from site_builder.models.simulation.inputs import steps_to
from site_builder.models.simulation.module import (
    BUDGET_LABELS,
    STAGES,
    ModuleSpec,
    binding_stage,
    budget_stops_binding,
    module_time,
    stage_rates,
)
from site_builder.models.simulation.tables import HOT_SPOT_RESOURCES as RESOURCES
from site_builder.results.producers import ResultsText

VARIANTS = ("E", "Ep")
BUDGETS = ("low", "high", "free")
DEFAULTS = {"variant": "E", "budget": "low", "planes": 8, "fpga": 20.0e9}
PLANES_RANGE = (1, 16)
FPGA_RANGE_G = (1, 40)  # G values/s, whole numbers
SPEC_KEYS = (
    "port_bytes_per_s",
    "lanes",
    "lane_bits_per_s",
    "planes",
    "flops_per_value",
    "fpga_values_per_s",
    "latency_s",
)


def slug(resource: str) -> str:
    """'intra-DC link' -> 'intra_dc_link' (as the results' figure keys name the columns)."""
    return resource.replace(" ", "_").replace("-", "_").lower()


PLACES = {"E": "in a pluggable module", "Ep": "at the switch"}


def _variant_label(v: str) -> str:
    var = cf.VARIANTS[v]
    return f"{var.name}: {PLACES[v]}" + (" (hypothetical)" if var.hypothetical else "")


def model(docs: Mapping[str, ResultsText]) -> dict[str, Any]:
    """What the port computes from: the spec, the steps of E and E′ at [free] phase by phase, the steps by planes."""
    data = sim_data(docs)
    spec = data["module_spec"]
    configs = data["measured"]["configs"]
    plane_steps = {
        str(c["planes"]): c["steps"]
        for c in configs.values()
        if c["planes"] is not None and c["enob"] == 8.0 and c["steps"] is not None
    }
    return {
        "n_params": data["parameters"]["n_params"],
        "spec": {k: spec[k] for k in SPEC_KEYS},
        "budgets": {b: data["parameters"]["module"]["budgets"][b] for b in BUDGETS},
        "budget_labels": {b: BUDGET_LABELS[b] for b in BUDGETS},
        "phases": {v: [_phase(p) for p in data["step_phases"][f"{v}.free"]] for v in VARIANTS},
        "plane_steps": dict(sorted(plane_steps.items(), key=lambda kv: int(kv[0]))),
        "resources": list(RESOURCES),
    }


def _phase(p: Mapping[str, Any]) -> dict[str, Any]:
    """Only what a step's sum and its hot spots need: the module's phase is recomputed, the rest kept."""
    return {"kind": p["kind"], "resource": p["resource"], "time": p["time"]}


def spec_dict(spec: ModuleSpec) -> dict[str, Any]:
    """The fields of a module spec the port reads (``budget_flops`` None: the transform is not charged)."""
    return {k: getattr(spec, k) for k in (*SPEC_KEYS, "budget_flops")}


def payload(docs: Mapping[str, ResultsText]) -> dict[str, Any]:
    data = sim_data(docs)
    return {
        "model": model(docs),
        "target": data["target"],
        "topology": next(label for key, label, *_ in cf.TOPOLOGY_SPECS if key == HOME),
        "variants": [{"id": v, "label": _variant_label(v)} for v in VARIANTS],
        "defaults": dict(DEFAULTS),
        "planes_range": list(PLANES_RANGE),
        "fpga_range_g": list(FPGA_RANGE_G),
    }


# ------------------------------------------------------------------------------------------------ outputs
def _budget_flops(budget: str | float | None) -> float | None:
    return ModuleSpec().with_budget(budget).budget_flops


def budget_label(budget: str | float | None) -> str:
    if isinstance(budget, str):
        return BUDGET_LABELS[budget]
    return "transform not charged" if budget is None else f"{fmt.grouped(budget / 1e9, 1)} GFLOP/s charged"


def outputs(sim: SimModel, variant: str, budget: str | float | None, planes: int, fpga: float) -> dict[str, Any]:
    """Everything the explorer shows at a setting, from the closed form (what the port's ``outputs`` gives)."""
    base = replace(ModuleSpec(), planes=planes, fpga_values_per_s=fpga)
    spec = base.with_budget(budget)
    plan = cf.build_plan(sim.inputs, sim.presets, variant, sim.home, budget, module=base)
    rates = stage_rates(spec)
    stage, rate = binding_stage(spec)
    mt = module_time(spec, sim.inputs.n_params)
    stop = budget_stops_binding(spec)
    hs = cf.hot_spots(plan)
    runs = [
        c
        for c in sim.inputs.configs.values()
        if c.planes == planes and c.enob == 8.0 and steps_to(c, sim.target) is not None
    ]
    steps = steps_to(runs[0], sim.target) if runs else None
    time = steps * plan.time if steps is not None else None
    compute = rates["compute"]
    text = {
        "rate_port": fmt.fixed(rates["port"] / 1e9, 2),
        "rate_optics": fmt.fixed(rates["optics"] / 1e9, 2),
        "rate_compute": "not charged" if compute == float("inf") else fmt.fixed(compute / 1e9, 2),
        "rate_fpga": fmt.fixed(rates["fpga"] / 1e9, 2),
        "binding": stage,
        "module_time": fmt.unit(mt * 1e3, 2, "ms"),
        "stops_binding": fmt.unit(stop / 1e9, 1, "GFLOP/s"),
        "step": fmt.unit(plan.time * 1e3, 3, "ms"),
        "steps": fmt.grouped(steps) if steps is not None else "no run",
        "time": fmt.unit(time, 2, "s") if time is not None else "no run",
        "budget": budget_label(budget),
        "planes": fmt.integer(planes),
        "fpga": fmt.unit(fpga / 1e9, 0, "G values/s"),
    }
    for res in RESOURCES:
        share = hs.get(res, 0.0)
        text[f"hot_{slug(res)}"] = fmt.pct(share, 1) if share else "·"
    return {
        "rates": {s: (None if rates[s] == float("inf") else rates[s]) for s in STAGES},
        "binding": stage,
        "binding_rate": rate,
        "module_s": mt,
        "stops_binding": stop,
        "step_s": plan.time,
        "hot_spots": hs,
        "steps": steps,
        "time_s": time,
        "text": text,
    }


# ------------------------------------------------------------------------------------------------ cases
# Settings away from the results' rows: (variant, budget, planes, FPGA values/s).
VARIATIONS: tuple[tuple[str, str | float | None, int, float], ...] = (
    ("E", "low", 1, 20.0e9),
    ("E", "free", 1, 20.0e9),
    ("Ep", "free", 2, 20.0e9),
    ("E", "free", 16, 20.0e9),
    ("Ep", "high", 16, 1.0e9),
    ("E", "free", 8, 1.0e9),
    ("E", "free", 8, 7.0e9),
    ("Ep", "free", 8, 6.0e9),
    ("E", "high", 3, 40.0e9),
    ("Ep", "low", 5, 13.0e9),
    ("E", "high", 12, 4.0e9),
    ("Ep", "free", 4, 12.0e9),
    ("E", 140.0e9, 8, 20.0e9),
    ("E", 200.0e9, 8, 20.0e9),
    ("Ep", 1.0e9, 8, 20.0e9),
    ("E", None, 7, 33.0e9),
)
FORMATS: tuple[tuple[str, list[Any]], ...] = (
    ("fixed", [0.125, 2]),
    ("fixed", [0.375, 2]),
    ("fixed", [4.666666666666667, 2]),
    ("fixed", [2.5, 0]),
    ("fixed", [9.995, 2]),
    ("unit", [31.666944, 2, "ms"]),
    ("unit", [140.0, 1, "GFLOP/s"]),
    ("unit", [1234.5678, 3, "ms"]),
    ("unit", [0.005, 2, "s"]),
    ("pct", [0.9499, 1]),
    ("pct", [0.00049, 1]),
    ("pct", [0.0005, 1]),
    ("grouped", [2600.0]),
    ("grouped", [1234567.5, 1]),
    ("integer", [16]),
)
_FMT = {"fixed": fmt.fixed, "unit": fmt.unit, "pct": fmt.pct, "grouped": fmt.grouped, "integer": fmt.integer}


def _case(sim: SimModel, m: dict[str, Any], cid: str, v: str, b: str | float | None, planes: int, fpga: float):
    settings = {"variant": v, "budget": b, "planes": planes, "fpga": fpga}
    return {"id": cid, "fn": "outputs", "args": [m, settings], "want": outputs(sim, v, b, planes, fpga)}


def cases(docs: Mapping[str, ResultsText]) -> list[dict[str, Any]]:
    """Every row of results.md §3 (each budget), of §2 and §6 for E and E′ on 2 DC × 4 over 100 GbE, of §8
    (4, 8 and 12 planes), settings away from them, the pieces of the model one by one, and the formats."""
    sim = rebuild(docs)
    m = model(docs)
    d = DEFAULTS
    out: list[dict[str, Any]] = []
    for v in VARIANTS:
        for b in BUDGETS:
            out.append(_case(sim, m, f"§2 §3 §6 {v} {b}", v, b, d["planes"], d["fpga"]))
    for planes in sorted(int(p) for p in m["plane_steps"]):
        for v in VARIANTS:
            out.append(_case(sim, m, f"§8 {v} {planes} planes", v, "free", planes, d["fpga"]))
    for i, (v, b, planes, fpga) in enumerate(VARIATIONS):
        out.append(_case(sim, m, f"variation {i}", v, b, planes, fpga))
    for b in (*BUDGETS, 50.0e9):
        for planes in (1, 8, 13):
            spec = replace(ModuleSpec(), planes=planes).with_budget(b)
            sd = spec_dict(spec)
            rates = stage_rates(spec)
            want_rates = {s: (None if rates[s] == float("inf") else rates[s]) for s in STAGES}
            out += [
                {
                    "id": f"spec {b} {planes}",
                    "fn": "specOf",
                    "args": [m, {"budget": b, "planes": planes, "fpga": spec.fpga_values_per_s}],
                    "want": sd,
                },
                {"id": f"rates {b} {planes}", "fn": "stageRates", "args": [sd], "want": want_rates},
                {"id": f"binding {b} {planes}", "fn": "bindingStage", "args": [sd], "want": list(binding_stage(spec))},
                {
                    "id": f"stops {b} {planes}",
                    "fn": "budgetStopsBinding",
                    "args": [sd],
                    "want": budget_stops_binding(spec),
                },
                {
                    "id": f"module time {b} {planes}",
                    "fn": "moduleTime",
                    "args": [sd, sim.inputs.n_params],
                    "want": module_time(spec, sim.inputs.n_params),
                },
            ]
    for fn, args in FORMATS:
        out.append({"id": f"format {fn} {args!r}", "fn": fn, "args": args, "want": _FMT[fn](*args)})
    return out


__all__ = ["DEFAULTS", "HOME", "RESOURCES", "cases", "model", "outputs", "payload", "slug"]
