"""The transit explorer: its payload from the simulation results only, a model rebuilt from that document that
is the simulation's own, outputs that print the cells of results.md §2, §5 and §6, the step's split, and parity
cases that cover every row on every topology and every loss of the ladder."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
import yaml

from site_builder import fmt
from site_builder.explorers import EXPLORERS, transit
from site_builder.models.simulation import closed_form as cf
from site_builder.results.producers import ResultsText
from site_builder.sources.presets import validate_presets
from tests.conftest import PROJECT, REFERENCE

from .sim_fixture import sim_inputs

HOME = "2dc4.100gbe"


@pytest.fixture(scope="module")
def docs() -> dict[str, ResultsText]:
    """The committed results documents (tests/unit/test_results_drift.py holds them equal to the models)."""
    out = {}
    for name in ("experiment", "simulation"):
        folder = PROJECT / "data" / name
        out[name] = ResultsText(
            name, (folder / "results.md").read_text(encoding="utf-8"), (folder / "results.json").read_text("utf-8")
        )
    return out


@pytest.fixture(scope="module")
def presets():
    return validate_presets(yaml.safe_load(Path(REFERENCE, "presets.yaml").read_text()), "presets.yaml")


def _suffix(b: str | None) -> str:
    return f".{b}" if b else ""


def test_registered_with_its_port() -> None:
    e = EXPLORERS["transit"]
    assert (e.port, e.payload, e.cases) == ("transit", transit.payload, transit.cases)
    assert e.scripts == ("js/ports/transit.js", "js/explorers/transit.js")


def test_payload_is_compact_and_from_the_results_documents(docs) -> None:
    p = transit.payload(docs)
    assert len(json.dumps(p, separators=(",", ":"))) < 8_000
    assert p["defaults"] == {
        "variant": "E",
        "budget": "free",
        "dcs": 2,
        "per_dc": 4,
        "wan": "eth-100g",
        "target": "3.158",
    }
    assert [t["text"] for t in p["targets"]] == ["3.158", "3.124", "3.021", "3.017", "2.878", "2.700", "1.785", "1.646"]
    assert p["targets"][0]["config"] == "C-2d64" and p["targets"][-1]["config"] == "A"
    assert p["shapes"] == [[1, 8], [2, 4], [4, 2], [8, 1]]
    assert set(p["model"]["variants"]) == set(cf.VARIANTS)
    assert set(p["model"]["configs"]) == {"A", "B", "C", "E"}


def test_the_rebuilt_model_is_the_simulations(docs, presets) -> None:
    """Inputs and presets rebuilt from results.json give the closed form exactly the real values."""
    real, rebuilt = sim_inputs(), transit.inputs_of(docs)
    assert (rebuilt.n_params, rebuilt.workers, rebuilt.tokens_per_worker) == (
        real.n_params,
        real.workers,
        real.tokens_per_worker,
    )
    for name, cfg in rebuilt.configs.items():
        assert cfg.payload_bytes == real.configs[name].payload_bytes
        assert cfg.steps_to == real.configs[name].steps_to
    rebuilt_presets = transit.presets_of(docs)
    assert (rebuilt_presets.device, rebuilt_presets.links) == (presets.device, presets.links)
    for topo in cf.topologies(presets).values():
        for v, b in transit.ROWS:
            a = cf.build_plan(real, presets, v, topo, b or "free")
            z = cf.build_plan(rebuilt, transit.presets_of(docs), v, topo, b or "free")
            assert a.time == z.time and cf.energy_per_step(a, presets) == cf.energy_per_step(z, presets)
    m = transit.model(docs)["module"]
    from site_builder.models.simulation.module import ModuleSpec, stage_rates

    spec = ModuleSpec()
    assert m["port_bytes_per_s"] == spec.port_bytes_per_s
    assert m["optics_values_per_s"] == stage_rates(spec)["optics"]
    assert (m["latency_s"], m["pj_per_bit"], m["static_w"], m["laser_w"]) == (
        spec.latency_s,
        spec.pj_per_bit,
        spec.static_w,
        spec.laser_w,
    )


def test_outputs_print_every_cell_of_sections_2_5_and_6(docs) -> None:
    figures = docs["simulation"].parsed["figures"]
    topos = docs["simulation"].data["transit"]["topologies"]
    inputs, presets = transit.inputs_of(docs), transit.presets_of(docs)
    checked = 0
    for key, spec in topos.items():
        for v, b in transit.ROWS:
            choice = {"variant": v, "budget": b, "dcs": spec["dcs"], "per_dc": spec["per_dc"], "wan": spec["wan"]}
            text = transit.outputs(inputs, presets, {**choice, "target": "3.158"})["text"]
            s = _suffix(b)
            want = {
                "time": figures[f"sim.time_to_target.{key}.{v}{s}"]["text"],
                "step_ms": figures[f"sim.step_ms.{key}.{v}{s}"]["text"],
            }
            if key == HOME:
                want["e_total"] = figures[f"sim.energy.{v}{s}.j_per_step"]["text"]
                want["e_target"] = figures[f"sim.energy.{v}{s}.kj"]["text"]
                if f"sim.energy.module_share.{v}{s}" in figures:
                    want["module_share"] = figures[f"sim.energy.module_share.{v}{s}"]["text"]
                for r in transit.HOT_SPOT_RESOURCES:
                    k = f"sim.hotspot.{v}{s}.{transit.hot_slug(r)}"
                    want[f"hot.{transit.hot_slug(r)}"] = figures[k]["text"] if k in figures else "·"
            assert {k: text[k] for k in want} == want, (key, v, b)
            checked += len(want)
    assert checked == 8 * 10 * 2 + 10 * 2 + 6 + 10 * 7


def test_outputs_at_the_other_losses_of_the_ladder(docs) -> None:
    figures = docs["simulation"].parsed["figures"]
    inputs, presets = transit.inputs_of(docs), transit.presets_of(docs)
    n = 0
    for key, f in figures.items():
        if not key.startswith("sim.time_to.") or f".{HOME}." not in key:
            continue
        tag, rest = key.removeprefix("sim.time_to.").split(f".{HOME}.")
        v, _, b = rest.partition(".")
        choice = {"variant": v, "budget": b or None, "dcs": 2, "per_dc": 4, "wan": "eth-100g"}
        got = transit.outputs(inputs, presets, {**choice, "target": tag.replace("_", ".")})["text"]["time"]
        assert got == f["text"], key
        n += 1
    assert n == 17


def test_the_split_adds_up_to_the_step(docs) -> None:
    inputs, presets = transit.inputs_of(docs), transit.presets_of(docs)
    for dcs, per_dc in ((1, 8), (2, 4), (4, 2), (8, 1)):
        for v, b in transit.ROWS:
            choice = {"variant": v, "budget": b, "dcs": dcs, "per_dc": per_dc, "wan": "eth-25g", "target": "3.158"}
            o = transit.outputs(inputs, presets, choice)
            assert math.isclose(math.fsum(o["parts"].values()), o["step_s"], rel_tol=1e-14), (dcs, v, b)
            assert math.isclose(math.fsum(o["hot_spots"].values()), 1.0, rel_tol=1e-14)
            if dcs == 1:
                assert o["parts"]["wan"] == 0.0
            if cf.VARIANTS[v].module is None:
                assert o["parts"]["module"] == 0.0 and o["text"]["binding"] == "no module"


def test_not_reached_prints_so(docs) -> None:
    inputs, presets = transit.inputs_of(docs), transit.presets_of(docs)
    o = transit.outputs(inputs, presets, {**transit.DEFAULTS, "variant": "C", "budget": None, "target": "3.124"})
    assert o["steps"] is None and o["time_s"] is None and o["energy_to_target_j"] is None
    assert (o["text"]["steps"], o["text"]["time"], o["text"]["e_target"]) == ("not reached",) * 3


def test_cases_cover_every_row_topology_and_loss(docs) -> None:
    cs = transit.cases(docs)
    batches = [c for c in cs if c["fn"] == "outputsMany"]
    rows = {
        (ch["variant"], ch["budget"], ch["dcs"], ch["per_dc"], ch["wan"])
        for c in batches
        if c["id"].startswith("§2 §5 §6")
        for ch in c["args"][1]
    }
    topos = docs["simulation"].data["transit"]["topologies"]
    assert rows == {(v, b, t["dcs"], t["per_dc"], t["wan"]) for t in topos.values() for v, b in transit.ROWS}
    targets = {ch["target"] for c in batches for ch in c["args"][1]}
    assert targets == set(docs["simulation"].data["transit"]["targets"])
    shapes = {(ch["dcs"], ch["per_dc"]) for c in batches for ch in c["args"][1]}
    assert (4, 2) in shapes
    assert any(w["steps"] is None for c in batches for w in c["want"])


def test_format_cases_are_fmt(docs) -> None:
    fns = {"fixed": fmt.fixed, "grouped": fmt.grouped, "unit": fmt.unit, "pct": fmt.pct}
    cs = [c for c in transit.cases(docs) if c["id"].startswith("format ")]
    assert {c["fn"] for c in cs} == set(fns)
    for c in cs:
        assert fns[c["fn"]](*c["args"]) == c["want"]


def test_committed_cases_are_current(docs) -> None:
    committed = (PROJECT / "data" / "explorers" / "transit.json").read_text(encoding="utf-8")
    assert committed == EXPLORERS["transit"].cases_json(docs)
