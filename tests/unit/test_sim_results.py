"""The simulation's results document: published figures as formatted text, labels, keys."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from site_builder.results.simulation import PUBLISHED, build_simulation_results
from site_builder.results_doc import ResultsDoc
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
