"""The link-kernel explorer: the simulation's model rebuilt from its results document, the payload built from the
results only, outputs equal to the results cells of §2, §3, §6 and §8, and current parity cases."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from site_builder.explorers import EXPLORERS, link_kernel
from site_builder.explorers.sim_model import rebuild
from site_builder.models.simulation import closed_form as cf
from site_builder.models.simulation.module import ModuleSpec, module_time
from site_builder.results.producers import ResultsText
from site_builder.results.simulation import HOT_SPOT_RESOURCES, ROWS, build_simulation_results
from site_builder.sources.presets import validate_presets
from tests.conftest import PROJECT, REFERENCE
from tests.explorer_rows import section_tables

from .sim_fixture import sim_inputs


@pytest.fixture(scope="module")
def presets():
    return validate_presets(yaml.safe_load((REFERENCE / "presets.yaml").read_text()), "presets.yaml")


@pytest.fixture(scope="module")
def docs(presets) -> dict[str, ResultsText]:
    """The simulation results document, built from the model (the explorer needs nothing else)."""
    return {"simulation": ResultsText.of(build_simulation_results(sim_inputs(), presets))}


@pytest.fixture(scope="module")
def figures(docs) -> dict[str, dict]:
    return docs["simulation"].parsed["figures"]


# ------------------------------------------------------------------------------------------------ the model
def test_the_rebuilt_model_gives_every_step_of_the_results(docs, presets) -> None:
    sim = rebuild(docs)
    data = docs["simulation"].data
    real = sim_inputs()
    assert sim.inputs.tokens_per_worker == real.tokens_per_worker and sim.inputs.n_params == real.n_params
    assert sim.presets.device == presets.device and sim.presets.links == presets.links
    for tk, topo in sim.topologies.items():
        for v, b in ROWS:
            plan = cf.build_plan(sim.inputs, sim.presets, v, topo, b or "free")
            key = f"{v}.{b}" if b else v
            assert plan.time == data["step_s"][key][tk], (tk, key)  # to the last bit
            assert plan.time == cf.build_plan(real, presets, v, cf.topologies(presets)[tk], b or "free").time
    for name, cfg in real.configs.items():
        got = sim.inputs.configs[name]
        assert (got.payload_bytes, got.planes, got.enob, got.seeds) == (
            cfg.payload_bytes,
            cfg.planes,
            cfg.enob,
            cfg.seeds,
        )
        assert cf.steps_for(sim.inputs, "E", sim.target, name) == cf.steps_for(real, "E", sim.target, name)
        assert cf.steps_for(sim.inputs, "E", sim.target, name, whole=False) == cf.steps_for(
            real, "E", sim.target, name, whole=False
        )


def test_step_phases_sum_to_the_step(docs) -> None:
    data = docs["simulation"].data
    for key, phases in data["step_phases"].items():
        t = 0
        for p in phases:
            t += p["time"]
        assert t == data["step_s"][key]["2dc4.100gbe"], key
        assert [p["kind"] for p in phases].count("module") == (1 if key.startswith("E") else 0)


def test_the_models_resources_are_the_hot_spot_columns() -> None:
    """The resources the model charges a module stage to are columns of results.md §6 (one list, in
    models/simulation/tables.py, that the writer and both explorers import)."""
    assert link_kernel.RESOURCES is HOT_SPOT_RESOURCES
    assert [cf.module_resource(s) for s in ("port", "optics", "compute", "fpga")] == [
        r for r in HOT_SPOT_RESOURCES if r.startswith("module ")
    ]


# ------------------------------------------------------------------------------------------------ explorer
def test_registered_with_its_port() -> None:
    e = EXPLORERS["link_kernel"]
    assert (e.port, e.payload, e.cases) == ("linkKernel", link_kernel.payload, link_kernel.cases)
    assert e.scripts == ("js/ports/link_kernel.js", "js/explorers/link_kernel.js")
    assert {"loss_curves", "amdahl", "step_mask", "link_kernel", "breakeven"} <= set(EXPLORERS)
    for name in ("link_kernel", "breakeven"):
        for script in EXPLORERS[name].scripts:
            assert (PROJECT / "site_builder" / "static" / script).is_file()


def test_payload_is_compact_and_from_the_results_document(docs) -> None:
    p = link_kernel.payload(docs)
    assert len(json.dumps(p, separators=(",", ":"))) < 4_000
    data = docs["simulation"].data
    m = p["model"]
    assert m["spec"] == {k: data["module_spec"][k] for k in link_kernel.SPEC_KEYS}
    assert m["budgets"] == {"low": 10e9, "high": 99e9, "free": None}
    assert m["plane_steps"] == {"4": 2600.0, "8": 1800.0, "12": 2000.0}
    assert [x["time"] for x in m["phases"]["E"]] == [x["time"] for x in data["step_phases"]["E.free"]]
    assert p["defaults"] == {"variant": "E", "budget": "low", "planes": 8, "fpga": 20e9}
    assert p["topology"] == "2 DC × 4, 100 GbE"


def test_defaults_print_the_link_kernel_rows(docs, figures) -> None:
    d = link_kernel.DEFAULTS
    t = link_kernel.outputs(rebuild(docs), d["variant"], d["budget"], d["planes"], d["fpga"])["text"]
    assert t["module_time"] == figures["sim.module.time_ms.low"]["text"] == "31.67 ms"
    assert t["hot_module_compute"] == figures["sim.hotspot.E.low.module_compute"]["text"] == "95.0%"
    assert t["stops_binding"] == figures["sim.module.budget_stops_binding.gflops"]["text"] == "140.0 GFLOP/s"


def test_outputs_are_the_cells_of_sections_2_3_6(docs, figures) -> None:
    sim = rebuild(docs)
    md = docs["simulation"].markdown
    stages = {r["Budget"]: r for r in section_tables(md, "3")[0]}
    hot = {r["Variant"]: r for r in section_tables(md, "6")[0]}
    checked = 0
    for v in link_kernel.VARIANTS:
        for b in link_kernel.BUDGETS:
            o = link_kernel.outputs(sim, v, b, 8, 20e9)
            t = o["text"]
            row = stages[o["text"]["budget"]]
            assert (t["rate_port"], t["rate_optics"], t["rate_compute"], t["rate_fpga"]) == (
                row["Port, G values/s"],
                row["Optics, G values/s"],
                row["Compute, G values/s"],
                row["FPGA, G values/s"],
            )
            assert (t["binding"], t["module_time"]) == (row["Binding stage"], row["Module time per step"])
            label = next(k for k in hot if k.startswith(cf.VARIANTS[v].name + " ") and f"[{b}]" in k)
            for res in HOT_SPOT_RESOURCES:
                assert t[f"hot_{link_kernel.slug(res)}"] == hot[label][res], (v, b, res)
                checked += 1
            assert t["step"] == figures[f"sim.step_ms.2dc4.100gbe.{v}.{b}"]["text"]
            assert t["time"] == figures[f"sim.time_to_target.2dc4.100gbe.{v}.{b}"]["text"]
            assert o["step_s"] == docs["simulation"].data["step_s"][f"{v}.{b}"]["2dc4.100gbe"]
    assert checked == 6 * 7


def test_outputs_are_the_rows_of_section_8(docs) -> None:
    sim = rebuild(docs)
    rows = section_tables(docs["simulation"].markdown, "8")[0]
    assert len(rows) == 3
    for r in rows:
        planes = int(r["Planes"].split()[0])
        e = link_kernel.outputs(sim, "E", "free", planes, 20e9)["text"]
        ep = link_kernel.outputs(sim, "Ep", "free", planes, 20e9)["text"]
        assert (e["rate_optics"], e["binding"], e["steps"], e["time"]) == (
            r["Optics, G values/s"],
            r["Binding stage"],
            r["Steps to 3.158"],
            r["E [free]"],
        )
        assert ep["time"] == r["E′ [free] (hypothetical)"]


def test_settings_move_only_the_module(docs) -> None:
    sim = rebuild(docs)
    o = link_kernel.outputs(sim, "E", "free", 16, 5e9)
    spec = ModuleSpec(planes=16, fpga_values_per_s=5e9)
    assert o["binding"] == "optics" and o["rates"]["optics"] == 3.5e9 and o["rates"]["compute"] is None
    assert o["module_s"] == module_time(spec, sim.inputs.n_params)
    assert o["steps"] is None and o["time_s"] is None and o["text"]["time"] == "no run"
    fpga = link_kernel.outputs(sim, "E", "free", 1, 5e9)
    assert fpga["binding"] == "fpga" and fpga["hot_spots"]["module FPGA"] > 0
    assert fpga["stops_binding"] == 100e9  # 20 FLOPs per value at the FPGA's 5 G values/s
    base = link_kernel.outputs(sim, "E", "free", 8, 20e9)
    rest = base["step_s"] - base["module_s"]
    assert o["step_s"] == pytest.approx(rest + o["module_s"], rel=1e-14)


def test_cases_cover_the_rows_and_more(docs) -> None:
    cs = link_kernel.cases(docs)
    ids = [c["id"] for c in cs]
    assert len(ids) == len(set(ids))
    outs = [c for c in cs if c["fn"] == "outputs"]
    seen = {(c["args"][1]["variant"], c["args"][1]["budget"], c["args"][1]["planes"]) for c in outs}
    for v in ("E", "Ep"):
        for b in ("low", "high", "free"):
            assert (v, b, 8) in seen
        for planes in (4, 12):
            assert (v, "free", planes) in seen
    assert len({c["args"][1]["fpga"] for c in outs}) >= 5
    assert {c["fn"] for c in cs} >= {"outputs", "specOf", "stageRates", "bindingStage", "moduleTime", "unit", "pct"}


def test_committed_cases_are_current(docs) -> None:
    committed = (PROJECT / "data" / "explorers" / "link_kernel.json").read_text(encoding="utf-8")
    assert committed == EXPLORERS["link_kernel"].cases_json(docs)


def test_committed_results_carry_the_explorer_data() -> None:
    data = json.loads(Path(PROJECT / "data" / "simulation" / "results.json").read_text(encoding="utf-8"))["data"]
    assert {"step_phases", "module_spec", "measured"} <= set(data)
