"""The break-even explorer: the step at another WAN bandwidth from a plan (the model's new pure function), outputs
equal to every 2 DC × 4 cell of results.md §2 and every row of §7a, the payload from the results only, and current
parity cases."""

from __future__ import annotations

import json
import math
import re

import pytest
import yaml

from site_builder.explorers import EXPLORERS, breakeven
from site_builder.explorers.sim_model import rebuild
from site_builder.models.simulation import closed_form as cf
from site_builder.results.producers import ResultsText
from site_builder.results.simulation import ROWS, build_simulation_results
from site_builder.sources.presets import validate_presets
from tests.conftest import PROJECT, REFERENCE

from .sim_fixture import sim_inputs

COLUMNS_2DC4 = ("2dc4.8gbps", "2dc4.25gbe", "2dc4.100gbe", "2dc4.400g", "2dc4.800g")


@pytest.fixture(scope="module")
def presets():
    return validate_presets(yaml.safe_load((REFERENCE / "presets.yaml").read_text()), "presets.yaml")


@pytest.fixture(scope="module")
def docs(presets) -> dict[str, ResultsText]:
    return {"simulation": ResultsText.of(build_simulation_results(sim_inputs(), presets))}


@pytest.fixture(scope="module")
def figures(docs) -> dict[str, dict]:
    return docs["simulation"].parsed["figures"]


def section_7a(md: str) -> list[dict[str, str]]:
    """The first table of section 7 (the WAN break-evens), as {column: cell} rows (our own reader)."""
    body = md.split("\n## 7. ", 1)[1].split("\n## ", 1)[0]
    lines = [ln for ln in body.splitlines() if ln.startswith("|")]
    header = [c.strip() for c in lines[0].strip().strip("|").split("|")]
    rows = []
    for ln in lines[2:]:
        cells = [c.strip() for c in ln.strip().strip("|").split("|")]
        if len(cells) != len(header) or re.fullmatch(r"[-:| ]+", ln):
            break
        rows.append(dict(zip(header, cells, strict=True)))
    return rows


# ------------------------------------------------------------------------------------------------ the model
def test_plan_time_at_wan_is_the_plan_at_that_bandwidth_bit_for_bit(presets) -> None:
    inputs = sim_inputs()
    home = cf.topologies(presets)["2dc4.100gbe"]
    bandwidths = [10 ** (8 + i / 7) for i in range(29)] + [1e9, 3.125e9, 12.5e9, 50e9, 100e9, 0.1e9, 1000e9]
    for v in cf.VARIANTS:
        for budget in ("free", "low", "high", 42e9):
            plan = cf.build_plan(inputs, presets, v, home, budget)
            assert cf.plan_time_at_wan(plan, 12.5e9) == plan.time
            for bw in bandwidths:
                want = cf.step_time_at_wan(inputs, presets, v, home, bw, budget)
                assert cf.plan_time_at_wan(plan, bw) == want, (v, budget, bw)
                assert want == cf.build_plan(inputs, presets, v, home.with_wan_bandwidth(bw), budget).time


def test_step_time_at_wan_takes_a_budget(presets) -> None:
    inputs = sim_inputs()
    topos = cf.topologies(presets)
    for b in ("free", "low", "high"):
        for tk in COLUMNS_2DC4:
            bw = topos[tk].wan.bandwidth
            got = cf.step_time_at_wan(inputs, presets, "E", topos["2dc4.100gbe"], bw, b)
            assert got == cf.build_plan(inputs, presets, "E", topos[tk], b).time  # same latency on every WAN
    assert cf.step_time_at_wan(inputs, presets, "E", topos["2dc4.100gbe"], 1e9) == cf.step_time_at_wan(
        inputs, presets, "E", topos["2dc4.100gbe"], 1e9, "free"
    )


# ------------------------------------------------------------------------------------------------ explorer
def test_registered_with_its_port() -> None:
    e = EXPLORERS["breakeven"]
    assert (e.port, e.payload, e.cases) == ("breakeven", breakeven.payload, breakeven.cases)
    assert e.scripts == ("js/ports/breakeven.js", "js/explorers/breakeven.js")


def test_payload_is_from_the_results_document(docs) -> None:
    p = breakeven.payload(docs)
    assert len(json.dumps(p, separators=(",", ":"))) < 8_000
    data = docs["simulation"].data
    m = p["model"]
    assert set(m["phases"]) == {f"{v}.{b}" if b else v for v, b in ROWS}
    for key, phases in m["phases"].items():
        wan = [x for x in phases if isinstance(x, dict)]
        assert len(phases) == len(data["step_phases"][key]) and wan
        assert sum(x["sharing"] * x["per_sender"] for x in wan) == data["wan_slider"][key]["wan_bytes_per_link"]
    assert m["steps"]["C"] == {"whole": 2667.0, "mean": pytest.approx(2666.6667, rel=1e-6)}
    assert m["exact"] == m["steps"]["C"] and m["steps"]["E"]["whole"] == 1800.0
    assert [x["key"] for x in p["points"]] == list(COLUMNS_2DC4)
    assert [x["bandwidth"] for x in p["points"]] == [1e9, 3.125e9, 12.5e9, 50e9, 100e9]
    assert p["defaults"] == {"bandwidth": 12.5e9, "basis": "e", "budget": "free", "mean": False}
    lo, hi, step = p["slider"]
    assert (10**lo * 1e9, 10**hi * 1e9) == breakeven.SWEEP and step > 0


def test_outputs_are_every_2dc4_cell_of_section_2(docs, figures) -> None:
    sim = rebuild(docs)
    links = docs["simulation"].data["parameters"]["links"]
    checked = 0
    for p in breakeven.points(docs):
        assert p["bandwidth"] == links[next(w for k, _, _, _, w in cf.TOPOLOGY_SPECS if k == p["key"])]["bandwidth"]
        for budget in breakeven.BUDGETS:
            t = breakeven.outputs(sim, p["bandwidth"], "e", budget, False)["text"]
            for v in breakeven.VARIANTS:
                row = f"{v}.{budget}" if v in cf.MODULE_VARIANTS else v
                assert t[f"time-{v}"] == figures[f"sim.time_to_target.{p['key']}.{row}"]["text"], (p["key"], row)
                assert t[f"step-{v}"] == figures[f"sim.step_ms.{p['key']}.{row}"]["text"], (p["key"], row)
                checked += 1
    assert checked == 5 * 3 * 6  # every 2 DC × 4 cell of both §2 tables, each once or more


def test_crossings_are_every_row_of_section_7a(docs, figures) -> None:
    sim = rebuild(docs)
    rows = section_7a(docs["simulation"].markdown)
    assert len(rows) == 23
    shown: dict[str, dict] = {}
    for basis in breakeven.BASES:
        for c in breakeven.crossings(sim, basis, "free", False):
            shown[c["label"]] = c
    mean = {c["id"]: c for c in breakeven.crossings(sim, "e", "free", True)}
    data = docs["simulation"].data["breakeven_wan"]
    for r in rows:
        label = r["Challenger vs incumbent"]
        c = mean["Cp_vs_A"] if "unrounded mean" in label else shown[label]
        t = c["text"]
        assert (t["basis"], t["cross"], t["gbits"], t["wins"]) == (
            r["Steps basis"].replace("measured, unrounded mean", "measured"),
            r["Crossing"],
            r["Gb/s"],
            r["Challenger wins"],
        ), label
        if "unrounded mean" in label:
            assert c["value"] == figures["sim.breakeven.wan.Cp_vs_A.m_mean.gbps"]["value"]
        else:
            assert (c["value"], c["wins"]) == (
                data[f"{c['id']}.{c['basis']}"]["value"],
                data[f"{c['id']}.{c['basis']}"]["wins"],
            )


def test_at_a_crossing_the_two_times_meet(docs) -> None:
    sim = rebuild(docs)
    for c in breakeven.crossings(sim, "e", "free", False):
        if c["value"] is None:
            continue
        a = breakeven.time_at(sim, c["challenger"], "free", c["basis"], False, c["value"])
        b = breakeven.time_at(sim, c["incumbent"], "free", c["basis"], False, c["value"])
        assert math.isclose(a, b, rel_tol=2e-4), c["label"]


def test_cases_cover_the_cells_rows_and_more(docs) -> None:
    cs = breakeven.cases(docs)
    ids = [c["id"] for c in cs]
    assert len(ids) == len(set(ids))
    outs = [c["args"][1] for c in cs if c["fn"] == "outputs"]
    for bw in (1e9, 3.125e9, 12.5e9, 50e9, 100e9):
        for b in breakeven.BUDGETS:
            assert {"bandwidth": bw, "basis": "e", "budget": b, "mean": False} in outs
    assert any(o["mean"] for o in outs) and any(o["bandwidth"] not in (1e9, 3.125e9, 12.5e9, 50e9, 100e9) for o in outs)
    settings = {tuple(c["args"][1:]) for c in cs if c["fn"] == "crossings"}
    assert {("e", "free", False), ("c", "free", False), ("e", "free", True)} <= settings
    assert {c["fn"] for c in cs} >= {
        "outputs",
        "crossings",
        "curve",
        "timeAt",
        "bandwidthAt",
        "unit",
        "fixed",
        "grouped",
    }


def test_committed_cases_are_current(docs) -> None:
    committed = (PROJECT / "data" / "explorers" / "breakeven.json").read_text(encoding="utf-8")
    assert committed == EXPLORERS["breakeven"].cases_json(docs)
