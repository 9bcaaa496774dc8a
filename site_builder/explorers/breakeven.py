"""Break-even against WAN bandwidth (deck CiT 05): time to 3.158 on 2 DC × 4 as the inter-DC bandwidth changes.

Controls: the bandwidth on a log slider from 0.1 to 1,000 GB/s, or a recorded point (the 2 DC × 4 link
presets of results.md §2); the steps (E's, a hypothesis, or the exact band's for the in-transit variants);
the module's budget for E and E′; and, for the one row of §7a that needs it, the seeds' unrounded mean steps
instead of whole steps. The page draws each variant's time to the target against the bandwidth, marks the
crossings, and prints every variant's steps, step and time at the bandwidth and the break-evens of §7a.

Only the sync's WAN rounds depend on the bandwidth (the 100 GbE preset's latency throughout): B / bw for an
all-reduce or the switch sum, 4P / bw for an all-gather, max(4P / bw, P / 25 GB/s) for a pluggable, whose
port caps its flow. The payload carries every row's step on 2 DC × 4 over 100 GbE phase by phase
(results.json ``data.step_phases``), and the port redoes the WAN rounds at the slider's bandwidth and sums the
phases again in the closed form's order, then bisects for the crossings as ``breakeven.crossing`` does. The
defaults print the 100 GbE column of §2 and the E-basis rows of §7a; the parity cases run the closed form on
the inputs the results document records at every 2 DC × 4 column of §2 and for every row of §7a.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from site_builder import fmt
from site_builder.explorers.sim_model import HOME, SimModel, rebuild, sim_data
from site_builder.models.simulation import closed_form as cf
from site_builder.models.simulation.breakeven import REL_TOL, crossing
from site_builder.models.simulation.module import BUDGET_LABELS
from site_builder.results.producers import ResultsText

VARIANTS = ("A", "B", "C", "Cp", "E", "Ep")
MODULE_VARIANTS = cf.MODULE_VARIANTS
BUDGETS = ("free", "low", "high")
BASES = ("e", "c")
BASIS_LABELS = {"e": "E", "c": "C (exact)", "m": "measured"}
SWEEP = (0.1e9, 1000e9)  # bytes/s, as results.md §7a
SLIDER = (-1.0, 3.0, 0.01)  # log10 of GB/s: min, max, step
CURVE_POINTS = 81  # 20 per decade
DEFAULTS = {"bandwidth": 12.5e9, "basis": "e", "budget": "free", "mean": False}
WAN_KEYS = ("latency", "per_sender", "sharing", "port_rate", "port_first", "port_latency")


def pairs(basis: str) -> list[tuple[str, str, str]]:
    """(challenger, incumbent, basis) of the break-evens shown with ``basis``, in results.md §7a's order: the
    in-transit variants on that basis, then the pairs that involve none ("measured")."""
    out = [(ch, inc, basis) for ch in ("Ep", "E") for inc in ("A", "B", "C", "Cp")]
    out += [(ch, inc, "m") for ch, inc in (("Cp", "A"), ("Cp", "B"), ("Cp", "C"), ("C", "A"), ("C", "B"), ("B", "A"))]
    return out


def pair_id(ch: str, inc: str) -> str:
    return f"{ch}_vs_{inc}"


def row_key(v: str, budget: str) -> str:
    return f"{v}.{budget}" if v in MODULE_VARIANTS else v


def _phase(p: Mapping[str, Any]) -> float | dict[str, Any]:
    """A phase as the port reads it: its time where it does not depend on the WAN bandwidth (compute, the
    module, the rounds inside a data centre), else the WAN round's terms."""
    if p["kind"] != "round" or p["scope"] != "wan":
        return p["time"]
    return {k: p[k] for k in WAN_KEYS}


def model(docs: Mapping[str, ResultsText], budget: str | None = None) -> dict[str, Any]:
    """What the port computes from: each row's step phase by phase (only ``budget``'s rows of E and E′ when
    given), the steps to the target, the sweep."""
    data = sim_data(docs)
    configs = data["measured"]["configs"]
    keys = [row_key(v, budget) for v in VARIANTS] if budget else list(data["step_phases"])

    def steps(name: str) -> dict[str, Any]:
        return {"whole": configs[name]["steps"], "mean": configs[name]["mean_steps"]}

    return {
        "phases": {k: [_phase(p) for p in data["step_phases"][k]] for k in keys},
        "steps": {v: steps(cf.VARIANTS[v].steps_from) for v in VARIANTS},
        "exact": steps("C"),
        "module_variants": list(MODULE_VARIANTS),
        "names": {v: cf.VARIANTS[v].name for v in VARIANTS},
        "sweep": list(SWEEP),
        "rel_tol": REL_TOL,
    }


def points(docs: Mapping[str, ResultsText]) -> list[dict[str, Any]]:
    """The recorded points: the 2 DC × 4 columns of results.md §2, by bandwidth."""
    links = sim_data(docs)["parameters"]["links"]
    out = [
        {"key": key, "label": label.removeprefix("2 DC × 4, "), "bandwidth": links[wan]["bandwidth"]}
        for key, label, dcs, per_dc, wan in cf.TOPOLOGY_SPECS
        if (dcs, per_dc) == (2, 4) and wan is not None
    ]
    return sorted(out, key=lambda p: p["bandwidth"])


def payload(docs: Mapping[str, ResultsText]) -> dict[str, Any]:
    data = sim_data(docs)
    return {
        "model": model(docs),
        "target": data["target"],
        "topology": "2 DC × 4",
        "home": HOME,
        "variants": [{"id": v, "name": cf.VARIANTS[v].name, "label": cf.VARIANTS[v].label} for v in VARIANTS],
        "points": points(docs),
        "budget_labels": {b: BUDGET_LABELS[b] for b in BUDGETS},
        "budgets": {b: data["parameters"]["module"]["budgets"][b] for b in BUDGETS},
        "basis_labels": BASIS_LABELS,
        "slider": list(SLIDER),
        "curve_points": CURVE_POINTS,
        "defaults": dict(DEFAULTS),
    }


# ------------------------------------------------------------------------------------------------ the model
def steps_of(sim: SimModel, v: str, basis: str, mean: bool) -> float:
    """Steps of ``v`` to the target: basis "c" gives the in-transit variants the exact band's steps."""
    config = "C" if basis == "c" and v in MODULE_VARIANTS else None
    steps = cf.steps_for(sim.inputs, v, sim.target, config, whole=not mean)
    assert steps is not None
    return steps


def _plans(sim: SimModel, budget: str) -> dict[str, cf.StepPlan]:
    return {v: cf.build_plan(sim.inputs, sim.presets, v, sim.home, budget) for v in VARIANTS}


def crossing_of(
    sim: SimModel, ch: str, inc: str, basis: str, budget: str, mean: bool, plans: dict[str, cf.StepPlan] | None = None
) -> dict[str, Any]:
    """Where ``ch``'s time to the target equals ``inc``'s over the sweep, and on which side ``ch`` wins."""
    plans = plans or _plans(sim, budget)
    sc, si = steps_of(sim, ch, basis, mean), steps_of(sim, inc, basis, mean)
    pc, pi = plans[ch], plans[inc]

    def adv(bw: float) -> float:
        return sc * cf.plan_time_at_wan(pc, bw) - si * cf.plan_time_at_wan(pi, bw)

    c = crossing(adv, *SWEEP)
    return {"value": c.value, "wins": c.wins}


def pair_label(ch: str, inc: str, basis: str, mean: bool) -> str:
    names = cf.VARIANTS
    return f"{names[ch].name} vs {names[inc].name} ({basis}" + (", unrounded mean steps)" if mean else ")")


def crossings(sim: SimModel, basis: str, budget: str, mean: bool) -> list[dict[str, Any]]:
    """The break-evens of ``pairs(basis)`` with their printed cells (as results.md §7a prints them)."""
    plans = _plans(sim, budget)
    out = []
    for ch, inc, b in pairs(basis):
        c = crossing_of(sim, ch, inc, b, budget, mean, plans)
        v = c["value"]
        out.append(
            {
                "id": pair_id(ch, inc),
                "challenger": ch,
                "incumbent": inc,
                "basis": b,
                "value": v,
                "wins": c["wins"],
                "label": pair_label(ch, inc, b, mean),
                "text": {
                    "cross": fmt.unit(v / 1e9, 2, "GB/s") if v is not None else c["wins"],
                    "gbits": fmt.fixed(v * 8 / 1e9, 2) if v is not None else "·",
                    "wins": c["wins"],
                    "basis": BASIS_LABELS[b],
                },
            }
        )
    return out


def outputs(sim: SimModel, bandwidth: float, basis: str, budget: str, mean: bool) -> dict[str, Any]:
    """Each variant's steps, step and time to the target at ``bandwidth`` on 2 DC × 4, and the fastest."""
    rows: dict[str, dict[str, float]] = {}
    text: dict[str, str] = {
        "bandwidth": fmt.unit(bandwidth / 1e9, 2, "GB/s"),
        "gbits": fmt.unit(bandwidth * 8 / 1e9, 2, "Gb/s"),
    }
    for v in VARIANTS:
        steps = steps_of(sim, v, basis, mean)
        step = cf.step_time_at_wan(sim.inputs, sim.presets, v, sim.home, bandwidth, budget)
        rows[v] = {"steps": steps, "step_s": step, "time_s": steps * step}
        text[f"steps-{v}"] = fmt.grouped(steps, 2 if mean else 0)
        text[f"step-{v}"] = fmt.unit(step * 1e3, 3, "ms")
        text[f"time-{v}"] = fmt.unit(steps * step, 2, "s")
    fastest = min(VARIANTS, key=lambda v: rows[v]["time_s"])
    text["fastest"] = cf.VARIANTS[fastest].name
    return {"bandwidth": bandwidth, "rows": rows, "fastest": fastest, "text": text}


def time_at(sim: SimModel, v: str, budget: str, basis: str, mean: bool, bandwidth: float) -> float:
    """Time to the target of ``v`` at ``bandwidth``: steps × the step."""
    return steps_of(sim, v, basis, mean) * cf.step_time_at_wan(sim.inputs, sim.presets, v, sim.home, bandwidth, budget)


def bandwidth_at(position: float) -> float:
    """The slider: log10 of GB/s -> bytes/s."""
    return 10.0**position * 1e9


def curve(sim: SimModel, v: str, budget: str, basis: str, mean: bool, n: int) -> dict[str, list[float]]:
    """``n`` points of ``v``'s time to the target, evenly spaced in log bandwidth over the sweep."""
    a, b = math.log10(SWEEP[0]), math.log10(SWEEP[1])
    steps = steps_of(sim, v, basis, mean)
    plan = cf.build_plan(sim.inputs, sim.presets, v, sim.home, budget)
    xs = [10.0 ** (a + i * (b - a) / (n - 1)) for i in range(n)]
    return {"x": xs, "y": [steps * cf.plan_time_at_wan(plan, x) for x in xs]}


# ------------------------------------------------------------------------------------------------ cases
# (basis, budget, mean) of the crossing cases: every row of §7a is in the first three; the rest move the budget.
CROSSING_SETTINGS: tuple[tuple[str, str, bool], ...] = (
    ("e", "free", False),
    ("c", "free", False),
    ("e", "free", True),
    ("c", "low", False),
    ("e", "high", False),
    ("c", "high", True),
)
# Bandwidths away from the presets (bytes/s), with a setting each.
OTHER_BANDWIDTHS: tuple[tuple[float, str, str, bool], ...] = (
    (0.1e9, "e", "free", False),
    (1000e9, "c", "low", False),
    (0.37e9, "e", "high", True),
    (1.568264499482853e9, "e", "free", False),
    (6.25e9, "c", "free", True),
    (25.0e9, "e", "low", False),
    (317.0e9, "c", "high", False),
)
TIME_AT: tuple[tuple[str, str, str, bool, float], ...] = (
    ("Ep", "free", "e", False, 1.568264499482853e9),
    ("A", "free", "e", False, 1.568264499482853e9),
    ("E", "low", "c", True, 0.2e9),
    ("Cp", "high", "c", True, 6.584104331906192e9),
)
SLIDER_POSITIONS = (-1.0, -0.5, 0.0, 0.01, 0.49, 1.1, 1.09691, 2.0, 2.99, 3.0)
FORMATS: tuple[tuple[str, list[Any]], ...] = (
    ("fixed", [12.5452, 2]),
    ("fixed", [0.125, 2]),
    ("fixed", [0.375, 2]),
    ("unit", [1.568264499482853, 2, "GB/s"]),
    ("unit", [1.625, 2, "s"]),
    ("unit", [4.0751780562184, 3, "ms"]),
    ("unit", [1234.5, 2, "s"]),
    ("grouped", [2667.0]),
    ("grouped", [2666.6666666666665, 2]),
    ("grouped", [2.5]),
)
_FMT = {"fixed": fmt.fixed, "unit": fmt.unit, "grouped": fmt.grouped}


def cases(docs: Mapping[str, ResultsText]) -> list[dict[str, Any]]:
    """Every time-to-target and step cell of results.md §2 on 2 DC × 4 (each preset, each budget, both
    bases), every row of §7a and more crossings, bandwidths away from the presets, the curves, the slider and
    the formats."""
    sim = rebuild(docs)
    ms = {b: model(docs, b) for b in BUDGETS}
    out: list[dict[str, Any]] = []
    for p in points(docs):
        for budget in BUDGETS:
            for basis in BASES:
                state = {"bandwidth": p["bandwidth"], "basis": basis, "budget": budget, "mean": False}
                want = outputs(sim, p["bandwidth"], basis, budget, False)
                out.append(
                    {
                        "id": f"§2 {p['key']} {budget} {basis}",
                        "fn": "outputs",
                        "args": [ms[budget], state],
                        "want": want,
                    }
                )
    for i, (bw, basis, budget, mean) in enumerate(OTHER_BANDWIDTHS):
        state = {"bandwidth": bw, "basis": basis, "budget": budget, "mean": mean}
        out.append(
            {
                "id": f"bandwidth {i}",
                "fn": "outputs",
                "args": [ms[budget], state],
                "want": outputs(sim, bw, basis, budget, mean),
            }
        )
    for basis, budget, mean in CROSSING_SETTINGS:
        out.append(
            {
                "id": f"§7a {basis} {budget}{' mean' if mean else ''}",
                "fn": "crossings",
                "args": [ms[budget], basis, budget, mean],
                "want": crossings(sim, basis, budget, mean),
            }
        )
    for v, budget, basis, mean in (("A", "free", "e", False), ("E", "low", "c", False), ("Ep", "free", "e", True)):
        out.append(
            {
                "id": f"curve {v} {budget} {basis}",
                "fn": "curve",
                "args": [ms[budget], v, budget, basis, mean, 41],
                "want": curve(sim, v, budget, basis, mean, 41),
            }
        )
    for v, budget, basis, mean, bw in TIME_AT:
        out.append(
            {
                "id": f"time {v} {budget} {basis} {bw:g}",
                "fn": "timeAt",
                "args": [ms[budget], v, budget, basis, mean, bw],
                "want": time_at(sim, v, budget, basis, mean, bw),
            }
        )
    for pos in SLIDER_POSITIONS:
        out.append({"id": f"slider {pos}", "fn": "bandwidthAt", "args": [pos], "want": bandwidth_at(pos)})
    for fn, args in FORMATS:
        out.append({"id": f"format {fn} {args!r}", "fn": fn, "args": args, "want": _FMT[fn](*args)})
    return out
