"""Transit explorer (Compute in Transit results home): time and energy to a loss, and where a step's time goes.

Controls: the topology (data centres × workers each), the link between data centres, the variant, the
module's compute budget (E and E′) and the target loss, one of the steps ladder's. The page prints the
chosen variant's steps, step time, time to the target, its energy per step and to the target, the hot spots
of the step and the step split into GPU compute, the module's stream, latency and bytes over bandwidth
(inside the data centres and between them), and draws that split, stacked, for every variant.

The payload is the simulation results' ``data.parameters`` (device, links, module) and ``data.transit``
(topologies, variants, the GPU transform's FLOPs, each measured configuration's payload and whole steps to
every loss of the ladder), with the ladder's configurations from the experiment results. The port
(``static/js/ports/transit.js``) redoes the closed form's step plan (``closed_form.build_plan`` with the
collectives and the module), ``energy_per_step``, ``hot_spots`` and time to target, and formats them as
results.md does. At its defaults (E [free], 2 DC × 4 over 100 GbE, 3.158) it prints the row
"E band in a pluggable module, all-gather [free]" of results.md §2, §5 and §6.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from site_builder import fmt
from site_builder.models.simulation.tables import HOT_SPOT_RESOURCES, ROWS
from site_builder.results.producers import ResultsText

if TYPE_CHECKING:
    from site_builder.models.simulation.closed_form import StepPlan
    from site_builder.models.simulation.collectives import Topology
    from site_builder.models.simulation.inputs import SimInputs
    from site_builder.models.simulation.presets import Presets

DEFAULTS = {"variant": "E", "budget": "free", "dcs": 2, "per_dc": 4, "wan": "eth-100g", "target": "3.158"}
PARTS = ("compute", "module", "latency", "intra", "wan")
STAGES = ("port", "optics", "compute", "fpga")


def _sim(docs: Mapping[str, ResultsText]) -> dict[str, Any]:
    return docs["simulation"].data


def hot_slug(resource: str) -> str:
    """``inter-DC link`` -> ``inter_dc_link`` (as the simulation's figure keys name the §6 columns)."""
    return resource.replace(" ", "_").replace("-", "_").lower()


def model(docs: Mapping[str, ResultsText]) -> dict[str, Any]:
    """What the port computes from: the simulation's parameters and its transit data, as results.json has them."""
    data = _sim(docs)
    p, t = data["parameters"], data["transit"]
    m = p["module"]
    rates = m["stage_rates_free"]
    return {
        "n_params": p["n_params"],
        "tokens_per_worker": p["tokens_per_worker"],
        "value_bytes": t["value_bytes"],
        "device": {k: p["device"][k] for k in ("peak_flops", "mfu", "idle_w", "pj_per_flop")},
        "links": {
            k: {f: li[f] for f in ("name", "bandwidth", "latency", "pj_per_bit", "illustrative")}
            for k, li in p["links"].items()
        },
        "intra": t["intra"],
        "module": {
            "port_bytes_per_s": rates["port"] * t["value_bytes"],
            "optics_values_per_s": rates["optics"],
            "fpga_values_per_s": rates["fpga"],
            "flops_per_value": m["flops_per_value"],
            "latency_s": m["latency_s"],
            "static_w": m["static_w"],
            "laser_w": m["laser_w"],
            "pj_per_bit": m["pj_per_bit"],
            "budgets": m["budgets"],
        },
        "gpu_transform_flops_per_value": t["gpu_transform_flops_per_value"],
        "variants": t["variants"],
        "configs": t["configs"],
    }


def payload(docs: Mapping[str, ResultsText]) -> dict[str, Any]:
    t = _sim(docs)["transit"]
    ladder = {fmt.fixed(r["target"], 3): r["config"] for r in docs["experiment"].data["ladder"]}
    return {
        "model": model(docs),
        "targets": [{"text": x, "config": ladder.get(x)} for x in t["targets"]],
        "shapes": [list(s) for s in sorted({(s["dcs"], s["per_dc"]) for s in t["topologies"].values()} | {(4, 2)})],
        "rows": [{"variant": v, "budget": b} for v, b in ROWS],
        "resources": [{"name": r, "slug": hot_slug(r)} for r in HOT_SPOT_RESOURCES],
        "defaults": DEFAULTS,
    }


# ------------------------------------------------------------------------------------------------ the model
def presets_of(docs: Mapping[str, ResultsText]) -> Presets:
    """The simulation's presets, rebuilt from results.json (the values the port gets)."""
    from site_builder.models.simulation.presets import Device, Link, Presets

    p = _sim(docs)["parameters"]
    d = p["device"]
    links = {
        k: Link(k, v["name"], v["bandwidth"], v["latency"], v["pj_per_bit"], v["illustrative"])
        for k, v in p["links"].items()
    }
    return Presets(Device(d["name"], d["peak_flops"], d["mfu"], d["idle_w"], d["pj_per_flop"]), links)


def inputs_of(docs: Mapping[str, ResultsText]) -> SimInputs:
    """The simulation's inputs for the four measured configurations the variants use, rebuilt from results.json."""
    from site_builder.models.simulation.inputs import MeasuredConfig, SimInputs

    data = _sim(docs)
    p, t = data["parameters"], data["transit"]
    configs = {
        name: MeasuredConfig(
            name=name,
            label=name,
            steps_to={float(x): s for x, s in c["steps"].items()},
            payload_bytes=c["payload_bytes"],
            wire_bytes=0.0,
        )
        for name, c in t["configs"].items()
    }
    return SimInputs(p["n_params"], p["workers"], t["seqs_per_worker"], t["seq_len"], configs)


def topology(presets: Presets, dcs: int, per_dc: int, wan: str | None) -> Topology:
    from site_builder.models.simulation.collectives import Topology

    link = presets.links[wan] if dcs > 1 and wan else None
    return Topology(f"{dcs}dc{per_dc}", f"{dcs} DC × {per_dc}", dcs, per_dc, presets.links["ib-ndr"], link)


def breakdown(plan: StepPlan, budget: str | None) -> dict[str, float]:
    """The step split into GPU compute, the module's stream (values over its binding rate), latency (links and
    the module) and bytes over bandwidth inside the data centres and between them (a round's slower of link
    and port; a store-and-forward round's both)."""
    from site_builder.models.simulation.module import ModuleSpec, binding_stage

    spec = ModuleSpec().with_budget(budget or "free")
    parts = dict.fromkeys(PARTS, 0.0)
    for p in plan.phases:
        r = p.round
        if p.kind == "compute":
            parts["compute"] += p.time
        elif p.kind == "module":
            parts["latency"] += spec.latency_s
            parts["module"] += plan.module_values / binding_stage(spec)[1]
        elif r is not None and r.port_first:
            parts["latency"] += r.port_latency + r.link.latency
            parts["intra"] += r.port_time + r.link_time
        elif r is not None:
            parts["latency"] += r.link.latency
            parts["wan" if r.scope == "wan" else "intra"] += max(r.link_time, r.port_time)
    return parts


def outputs(inputs: SimInputs, presets: Presets, choice: Mapping[str, Any]) -> dict[str, Any]:
    """What the port's ``outputs`` must give for one choice, from the closed form."""
    from site_builder.models.simulation import closed_form as cf
    from site_builder.models.simulation.module import ModuleSpec, binding_stage

    variant, budget = choice["variant"], choice["budget"]
    topo = topology(presets, choice["dcs"], choice["per_dc"], choice["wan"])
    plan = cf.build_plan(inputs, presets, variant, topo, budget)
    steps = cf.steps_for(inputs, variant, float(choice["target"]))
    time = cf.time_to_target(plan, steps)
    e = cf.energy_per_step(plan, presets)
    to_target = e.total * steps if steps is not None else None
    hs = cf.hot_spots(plan)
    hot = {hot_slug(r): hs.get(r, 0.0) for r in HOT_SPOT_RESOURCES}
    parts = breakdown(plan, budget)
    module = cf.VARIANTS[variant].module is not None
    binding = binding_stage(ModuleSpec().with_budget(budget))[0] if module else None
    step = plan.time
    text = {
        "steps": fmt.grouped(steps) if steps is not None else "not reached",
        "time": fmt.unit(time, 2, "s") if time is not None else "not reached",
        "step_ms": fmt.unit(step * 1e3, 3, "ms"),
        "e_compute": fmt.fixed(e.compute, 3),
        "e_link": fmt.fixed(e.link, 4),
        "e_module": fmt.fixed(e.module, 3),
        "e_total": fmt.fixed(e.total, 3),
        "module_share": fmt.pct(e.module / e.total, 1) if e.module else "none",
        "e_target": fmt.unit(to_target / 1e3, 2, "kJ") if to_target is not None else "not reached",
        "binding": binding or "no module",
    }
    for k, v in parts.items():
        text[f"part.{k}"] = fmt.unit(v * 1e3, 3, "ms")
        text[f"share.{k}"] = fmt.pct(v / step, 1)
    for k, v in hot.items():
        text[f"hot.{k}"] = fmt.pct(v, 1) if v else "·"
    return {
        "step_s": step,
        "steps": steps,
        "time_s": time,
        "energy": {"compute": e.compute, "link": e.link, "module": e.module, "total": e.total},
        "energy_to_target_j": to_target,
        "parts": parts,
        "hot_spots": hot,
        "text": text,
    }


# ------------------------------------------------------------------------------------------------ cases
def _choice(v: str, b: str | None, dcs: int, per_dc: int, wan: str | None, target: str) -> dict[str, Any]:
    return {"variant": v, "budget": b, "dcs": dcs, "per_dc": per_dc, "wan": wan, "target": target}


# Format cases: ties (binary-exact halves round to even, as Python's format does), grouping, signs, carries.
FORMATS: tuple[tuple[str, list[Any]], ...] = (
    ("fixed", [0.125, 2]),
    ("fixed", [0.375, 2]),
    ("fixed", [2.5, 0]),
    ("fixed", [0.0005, 3]),
    ("fixed", [-0.001, 2]),
    ("fixed", [9.995, 2]),
    ("fixed", [0.00005, 4]),
    ("grouped", [2666.5, 0]),
    ("grouped", [1800.0, 0]),
    ("grouped", [1234567.0, 0]),
    ("unit", [1234.5678, 2, "s"]),
    ("unit", [0.125, 2, "kJ"]),
    ("unit", [3.9995, 3, "ms"]),
    ("unit", [99999.995, 2, "s"]),
    ("pct", [0.0725, 1]),
    ("pct", [0.00049, 1]),
    ("pct", [0.99951, 1]),
)
_FMT = {"fixed": fmt.fixed, "grouped": fmt.grouped, "unit": fmt.unit, "pct": fmt.pct}


def cases(docs: Mapping[str, ResultsText]) -> list[dict[str, Any]]:
    """Every row of results.md §2, §5 and §6 (each variant and budget on each of the eight topologies at 3.158),
    every variant at every loss of the ladder on 2 DC × 4 over 100 GbE (§2's other losses), topologies and
    links the results do not show, and the number formats. Each case runs a batch of choices on one model."""
    inputs, presets = inputs_of(docs), presets_of(docs)
    t = _sim(docs)["transit"]
    m = model(docs)
    home = DEFAULTS["target"]

    def batch(cid: str, choices: list[dict[str, Any]]) -> dict[str, Any]:
        return {
            "id": cid,
            "fn": "outputsMany",
            "args": [m, choices],
            "want": [outputs(inputs, presets, c) for c in choices],
        }

    out: list[dict[str, Any]] = []
    for key, spec in t["topologies"].items():
        rows = [_choice(v, b, spec["dcs"], spec["per_dc"], spec["wan"], home) for v, b in ROWS]
        out.append(batch(f"§2 §5 §6 rows, {key}", rows))
    ladder = [
        _choice(v, b, 2, 4, "eth-100g", target) for target in t["targets"] for v, b in ROWS if b in (None, "free")
    ]
    out.append(batch("§2 every loss of the ladder, 2dc4.100gbe", ladder))
    other = [_choice(v, b, 4, 2, wan, home) for wan in ("eth-100g", "wan-8g", "eth-800g") for v, b in ROWS[::3]]
    other += [_choice(v, b, 8, 1, wan, home) for wan in ("wan-8g", "eth-400g", "eth-800g") for v, b in ROWS[1::2]]
    other += [_choice(v, b, 1, 8, None, target) for v, b in ROWS[::2] for target in ("3.124", "1.785")]
    other += [_choice(v, b, 4, 2, "eth-25g", "3.021") for v, b in ROWS[4:]]
    other += [_choice(v, b, 4, 2, "eth-25g", "2.878") for v, b in ROWS[4:7]]
    out.append(batch("topologies, links and losses the results do not show", other))
    for fn, args in FORMATS:
        out.append({"id": f"format {fn}", "fn": fn, "args": args, "want": _FMT[fn](*args)})
    return out
