"""The simulation's results document: published figures as formatted text, labels, keys."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from site_builder.results.doc import ResultsDoc
from site_builder.results.simulation import PUBLISHED, build_simulation_results
from site_builder.sources.presets import validate_presets

from .sim_fixture import sim_inputs

PRESETS_YAML = Path("/work/shared/reference/presets.yaml")

# Published figures that needed a reading of the deck to reproduce (results.md, section 11): E′'s store-and-forward
# return through the switch's module, and whole steps (C: 2,667) for the C′ break-even. Pinned to the published text.
NEWLY_REPRODUCED = {
    "sim.time_to_target.2dc4.100gbe.Ep.free": "6.71 s",
    "sim.step_ms.2dc4.100gbe.Ep.free": "3.726 ms",
    "sim.time_to_target.2dc4.8gbps.Ep.free": "9.98 s",
    "sim.energy.Ep.free.kj": "8.87 kJ",
    "sim.breakeven.wan.Ep_vs_A.e.gbps": "1.57 GB/s",
    "sim.breakeven.wan.Ep_vs_A.c.gbps": "0.83 GB/s",
    "sim.breakeven.wan.Cp_vs_A.m.gbps": "6.58 GB/s",
    "sim.breakeven.budget.2dc4.8gbps.Ep_vs_A.gflops": "77.3 GFLOP/s",
}
ENGINE_UNDER_LOAD = {"sim.shared_wan.A.load0_9.ms", "sim.shared_wan.Ep.load0_9.ms"}


@pytest.fixture(scope="module")
def doc() -> ResultsDoc:
    presets = validate_presets(yaml.safe_load(PRESETS_YAML.read_text()), "presets.yaml")
    return build_simulation_results(sim_inputs(), presets)


@pytest.fixture(scope="module")
def figures(doc: ResultsDoc) -> dict[str, str]:
    return {k.key: k.text for k in doc.keyed_cells()}


@pytest.mark.parametrize("key", sorted(PUBLISHED))
def test_published_figure(figures: dict[str, str], key: str) -> None:
    if key in ENGINE_UNDER_LOAD:
        assert key in figures  # ours differs in detail, as the issue expects; shown with its spread
        return
    assert figures[key] == PUBLISHED[key]


@pytest.mark.parametrize(("key", "published"), sorted(NEWLY_REPRODUCED.items()))
def test_newly_reproduced(figures: dict[str, str], key: str, published: str) -> None:
    assert PUBLISHED[key] == published
    assert figures[key] == published


def test_whole_steps_and_the_unrounded_mean(figures: dict[str, str]) -> None:
    assert figures["sim.breakeven.wan.Cp_vs_A.m.gbps"] == "6.58 GB/s"  # C's 2,667 whole steps, as the deck states
    assert figures["sim.breakeven.wan.Cp_vs_A.m_mean.gbps"] == "6.59 GB/s"  # the unrounded mean, 2,666.67


def test_published_table_says_reproduced(doc: ResultsDoc) -> None:
    compare = doc.data["published_vs_ours"]
    assert {k for k, c in compare.items() if not c["reproduced"]} == ENGINE_UNDER_LOAD
    assert "E′, the band summed at the switch" in doc.to_markdown()


def test_more_anchors(figures: dict[str, str]) -> None:
    assert figures["sim.time_to_target.2dc4.100gbe.E.low"] == "60.03 s"
    assert figures["sim.wire.B"] == "27,705,720"  # the experiment's wire column for top-k
    assert figures["sim.shared_wan.A.load0_0.ms"] == "4.075 ms"
    assert figures["sim.breakeven.wan.E_vs_B.e.gbps"] == "never"


def test_doc_shape(doc: ResultsDoc) -> None:
    assert doc.name == "simulation"
    titles = [s.title for s in doc.sections]
    for n in (1, 2, 5, 6, 7, 8, 9, 10):
        assert any(t.startswith(f"{n}. ") for t in titles)
    keys = [k.key for k in doc.keyed_cells()]
    assert all(k.startswith("sim.") and k == k.strip() for k in keys)
    json.loads(doc.to_json())
    md = doc.to_markdown()
    assert "hypothetical" in md and "illustrative" in md and "extrapolated" in md


def test_labels(doc: ResultsDoc) -> None:
    for k in doc.keyed_cells():
        if ".Cp" in k.key or ".Ep" in k.key or "Ep_" in k.key or "Cp_" in k.key:
            if k.section.startswith(("2.", "5.", "6.")):
                assert "hypothetical" in k.row, k
        if k.key.startswith("sim.extrap."):
            assert "extrapolated" in k.row, k


# Inputs, settings and ranges the content shows as figures (deck CiT 05, the CiT home page, the FOptTrn hub).
SETTINGS = {
    "sim.setting.presets.commit": "69ffd2b",
    "sim.setting.device.mfu": "0.40",
    "sim.setting.device.peak": "989 TFLOP/s",
    "sim.setting.device.static_w": "100 W",
    "sim.setting.device.pj_per_flop": "1 pJ/FLOP",
    "sim.setting.module.static_w": "9.7 W",
    "sim.setting.module.laser_w": "2 W",
    "sim.setting.module.pj_per_bit": "2.76 pJ/bit",
    "sim.setting.module.port": "25 GB/s",
    "sim.setting.module.host_port": "50 GB/s",
    "sim.setting.module.lanes": "4",
    "sim.setting.module.lane": "14 Gb/s",
    "sim.setting.module.optics_gbit": "56 Gb/s",
    "sim.setting.module.optics_gbytes": "7 GB/s",
    "sim.setting.module.budget.low": "10 GFLOP/s",
    "sim.setting.module.budget.high": "99 GFLOP/s",
    "sim.setting.shared_wan.transfer": "1 MB",
    "sim.setting.shared_wan.syncs": "200",
    "sim.setting.shared_wan.load0_0": "0.0",
    "sim.setting.shared_wan.load0_5": "0.5",
    "sim.setting.shared_wan.load0_9": "0.9",
    "sim.setting.wan_sweep.range": "0.1–1,000 GB/s",
    "sim.setting.wan_sweep.low": "0.1 GB/s",
    "sim.setting.wan_sweep.high": "1,000 GB/s",
    "sim.setting.budget_sweep.range": "1–100,000 GFLOP/s",
    "sim.setting.breakeven.tolerance": "1e-4",
    "sim.setting.shape.1dc8": "1 DC × 8",
    "sim.setting.shape.2dc4": "2 DC × 4",
    "sim.setting.shape.8dc1": "8 DC × 1",
    "sim.setting.link.wan-8g.gbit": "8 Gb/s",
    "sim.setting.link.wan-8g.gbytes": "1 GB/s",
    "sim.setting.link.eth-400g.name": "400G",
    "sim.setting.link.eth-800g.name": "800G",
    "sim.setting.size.10x": "10x",
    "sim.setting.size.100x": "100x",
    "sim.setting.diloco.h1000": "1,000",
    # the home page's Gb/s equivalents of the WAN break-evens
    "sim.breakeven.wan.Cp_vs_A.m.gbit": "52.7 Gb/s",
    "sim.breakeven.wan.Ep_vs_A.e.gbit": "12.5 Gb/s",
    "sim.breakeven.wan.Ep_vs_A.c.gbit": "6.64 Gb/s",
}


@pytest.mark.parametrize(("key", "text"), sorted(SETTINGS.items()))
def test_setting_figure(figures: dict[str, str], key: str, text: str) -> None:
    assert figures[key] == text


def test_gbit_is_the_crossing_in_bits(doc: ResultsDoc) -> None:
    cells = {k.key: k for k in doc.keyed_cells()}
    for key, c in cells.items():
        if key.endswith(".gbit") and key.startswith("sim.breakeven.wan."):
            gbps = cells[key.removesuffix(".gbit") + ".gbps"].value
            assert isinstance(gbps, float) and c.value == gbps * 8 / 1e9, key


def test_module_shares_are_shares_of_the_whole_step(doc: ResultsDoc) -> None:
    """The home page's 57.4% and 60.7%: the module's 2.26 ms over E's 3.943 ms and E′'s 3.726 ms steps."""
    v = {k.key: k.value for k in doc.keyed_cells()}
    t = {k.key: k.text for k in doc.keyed_cells()}
    assert (t["sim.module.time_ms.free"], t["sim.step_ms.2dc4.100gbe.E.free"]) == ("2.26 ms", "3.943 ms")
    for step, share in (("E", "57.4%"), ("Ep", "60.7%")):
        got = v[f"sim.hotspot.{step}.free.module_optics"]
        assert abs(got - v["sim.module.time_ms.free"] / v[f"sim.step_ms.2dc4.100gbe.{step}.free"]) < 1e-12
        assert t[f"sim.hotspot.{step}.free.module_optics"] == share


def test_inputs_section(doc: ResultsDoc) -> None:
    assert any(s.title == "12. Inputs and settings" for s in doc.sections)
