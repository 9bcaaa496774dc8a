"""The simulation's model: closed form pieces, the SimPy engine at zero load, presets validation."""

from __future__ import annotations

import copy
import math
from pathlib import Path

import pytest
import yaml

from site_builder.errors import InputError
from site_builder.models.simulation import closed_form as cf
from site_builder.models.simulation import engine, fifo
from site_builder.models.simulation.breakeven import bisect, crossing
from site_builder.models.simulation.collectives import wire_bytes_per_worker
from site_builder.models.simulation.inputs import steps_to
from site_builder.models.simulation.module import (
    ModuleSpec,
    binding_stage,
    budget_stops_binding,
    module_time,
    rfft_flops_per_value,
    stage_rates,
)
from site_builder.models.simulation.presets import Presets
from site_builder.results.sim_inputs import whole_steps
from site_builder.sources.presets import validate_presets

from .sim_fixture import sim_inputs

PRESETS_YAML = Path("/work/shared/reference/presets.yaml")
if not PRESETS_YAML.exists():  # pragma: no cover - the reference lives outside the repo
    PRESETS_YAML = Path(__file__).resolve().parents[3] / "shared" / "reference" / "presets.yaml"


@pytest.fixture(scope="module")
def mapping() -> dict:
    return yaml.safe_load(PRESETS_YAML.read_text())


@pytest.fixture(scope="module")
def presets(mapping: dict) -> Presets:
    return validate_presets(mapping, "presets.yaml")


def test_engine_equals_closed_form_at_zero_load(presets: Presets) -> None:
    inputs = sim_inputs()
    for topo in cf.topologies(presets).values():
        for v in cf.VARIANTS:
            for budget in ("free", "low", "high") if v in cf.MODULE_VARIANTS else ("free",):
                plan = cf.build_plan(inputs, presets, v, topo, budget)
                result = engine.simulate(plan, syncs=3, load=0.0)
                for t in result.step_times:
                    assert math.isclose(t, plan.time, rel_tol=1e-12, abs_tol=0.0), (topo.key, v, budget)


def test_engine_is_seeded_and_queues(presets: Presets) -> None:
    plan = cf.build_plan(sim_inputs(), presets, "A", cf.topologies(presets)["2dc4.100gbe"])
    a = engine.simulate(plan, syncs=20, load=0.5, seed=3)
    b = engine.simulate(plan, syncs=20, load=0.5, seed=3)
    assert a == b
    assert a.mean_step > plan.time and a.background_transfers > 0


def test_wire_bytes_equal_the_experiment(presets: Presets) -> None:
    inputs = sim_inputs()
    one_dc = cf.topologies(presets)["1dc8"]
    for v in ("A", "B", "C", "E"):
        plan = cf.build_plan(inputs, presets, v, one_dc)
        assert wire_bytes_per_worker(plan.rounds) == inputs.configs[v].wire_bytes


def test_adamw_worked_example(presets: Presets) -> None:
    plan = cf.build_plan(sim_inputs(), presets, "A", cf.topologies(presets)["2dc4.100gbe"])
    assert f"{plan.phases[0].time * 1e3:.3f}" == "0.492"
    assert f"{sum(r.time for r in plan.rounds if r.scope == 'wan') * 1e3:.3f}" == "2.573"
    assert f"{plan.time * 1e3:.3f}" == "4.075"


def test_switch_sum_returns_store_and_forward(presets: Presets) -> None:
    """E′'s summed band passes the module (1 µs) and its port (band / 25 GB/s), then NDR (10 µs + band / 50 GB/s)."""
    inputs = sim_inputs()
    plan = cf.build_plan(inputs, presets, "Ep", cf.topologies(presets)["2dc4.100gbe"])
    back = plan.rounds[-1]
    band = inputs.configs["E"].payload_bytes
    assert back.port_first and back.per_sender == band and back.end_hops == 1
    assert back.time == 1e-6 + band / 25e9 + 10e-6 + band / 50e9
    overlapped = back.link.latency + max(back.link_time, back.port_time)
    assert f"{(back.time - overlapped) * 1e6:.1f}" == "40.6"
    assert f"{plan.time * 1e3:.3f}" == "3.726"  # published: 3.726 ms
    steps = cf.steps_for(inputs, "Ep", 3.158)
    assert steps == 1800
    assert f"{steps * plan.time:.2f}" == "6.71"  # published: 6.71 s
    assert f"{cf.energy_per_step(plan, presets).total * steps / 1e3:.2f}" == "8.87"  # published: 8.87 kJ


def test_extra_time_of_the_return_does_not_depend_on_the_wan(presets: Presets) -> None:
    inputs = sim_inputs()
    home = cf.topologies(presets)["2dc4.100gbe"]
    for bw in (0.1e9, 1e9, 12.5e9, 1000e9):
        back = cf.build_plan(inputs, presets, "Ep", home.with_wan_bandwidth(bw)).rounds[-1]
        assert back.time == 1e-6 + back.per_sender / 25e9 + 10e-6 + back.per_sender / 50e9


def test_whole_steps() -> None:
    c = sim_inputs().configs["C"]
    assert steps_to(c, 3.158) == 2667.0  # as deck CiT 05 states it
    assert f"{steps_to(c, 3.158, whole=False):.2f}" == "2666.67"  # the three seeds' mean
    assert whole_steps(2666.5) == 2667.0 and whole_steps(2666.49) == 2666.0 and whole_steps(None) is None


def test_module_stages() -> None:
    assert rfft_flops_per_value(256) == 20.0
    spec = ModuleSpec()
    rates = stage_rates(spec)
    assert rates["optics"] == 7e9 and rates["port"] == 12.5e9 and math.isinf(rates["compute"])
    assert binding_stage(spec)[0] == "optics"
    assert binding_stage(spec.with_budget("low"))[0] == "compute"
    assert f"{budget_stops_binding(spec) / 1e9:.1f}" == "140.0"
    assert f"{(module_time(spec.with_budget('low'), 15_833_472) - spec.latency_s) * 1e3:.2f}" == "31.67"
    assert binding_stage(ModuleSpec(planes=4))[0] == "port"


def test_step_time_at_wan_matches_plan(presets: Presets) -> None:
    inputs = sim_inputs()
    topos = cf.topologies(presets)
    x = cf.step_time_at_wan(inputs, presets, "Ep", topos["2dc4.100gbe"], 1e9)
    assert x == cf.build_plan(inputs, presets, "Ep", topos["2dc4.8gbps"]).time


def test_bisection() -> None:
    root = bisect(lambda x: x * x - 2.0, 1.0, 2.0)
    assert abs(root - math.sqrt(2)) / math.sqrt(2) < 1e-4
    assert crossing(lambda x: x - 5.0, 1.0, 10.0).wins == "below"
    assert crossing(lambda x: 1.0, 1.0, 10.0).wins == "never"
    assert crossing(lambda x: -1.0, 1.0, 10.0).wins == "always"


@pytest.mark.parametrize(
    ("path", "bad", "found"),
    [
        (["links", "eth-100g", "bandwidth"], -1, "int -1"),
        (["links", "eth-100g", "bandwidth"], "12.5 GB", "str '12.5 GB'"),
        (["links", "eth-100g", "bandwidth"], float("inf"), "float inf"),
        (["links", "eth-100g", "bandwidth"], True, "bool True"),
        (["accelerators", "h100", "idle_w"], 0, "int 0"),
    ],
)
def test_presets_validation(mapping: dict, path: list[str], bad: object, found: str) -> None:
    data = copy.deepcopy(mapping)
    node = data
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = bad
    with pytest.raises(InputError) as err:
        validate_presets(data, "presets.yaml")
    assert err.value.where == ".".join(path)
    assert err.value.expected == "a positive finite number"
    assert err.value.found == found
    assert str(err.value).startswith("presets.yaml: " + ".".join(path))


def test_presets_missing_key(mapping: dict) -> None:
    data = copy.deepcopy(mapping)
    del data["links"]["ib-ndr"]["latency"]
    with pytest.raises(InputError, match=r"links\.ib-ndr\.latency"):
        validate_presets(data, "presets.yaml")


def test_presets_not_a_mapping() -> None:
    with pytest.raises(InputError) as err:
        validate_presets(["not", "a", "mapping"], "presets.yaml")
    assert str(err.value) == "presets.yaml: (top level): expected a mapping, found list ['not', 'a', 'mapping']"


def test_fifo_recurrence_equals_the_simpy_engine(presets: Presets) -> None:
    """The results run the FIFO recurrences; the SimPy event simulation of the same model is the reference:
    every step time equal, bit for bit, for every variant and budget on every topology, at several loads."""
    inputs = sim_inputs()
    compared = 0
    for topo in cf.topologies(presets).values():
        for v in cf.VARIANTS:
            for budget in ("free", "low", "high") if v in cf.MODULE_VARIANTS else ("free",):
                plan = cf.build_plan(inputs, presets, v, topo, budget)
                if any(r.port_first for r in plan.rounds if r.scope == "wan"):
                    continue  # store-and-forward WAN rounds are refused by both (test below)
                for load, seed in ((0.0, 0), (0.5, 7), (0.9, 11)):
                    ours = fifo.simulate(plan, syncs=4, load=load, seed=seed)
                    assert ours == engine.simulate(plan, syncs=4, load=load, seed=seed), (topo.key, v, budget, load)
                    compared += 1
    assert compared > 50


def test_fifo_recurrence_equals_the_simpy_engine_on_every_published_point(
    presets: Presets, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Section 9's own runs (200 syncs each, loads up to 0.9): the published means come from these."""
    from site_builder.results import simulation as sim_results

    points: list[sim_results.EnginePoint] = []

    def capture(ps: list[sim_results.EnginePoint]) -> list[fifo.EngineResult]:
        points.extend(ps)
        return [fifo.EngineResult((1.0,), 0) for _ in ps]  # the document's layout only needs values

    monkeypatch.setattr(sim_results, "run_engine_points", capture)
    sim_results.build_simulation_results(sim_inputs(), presets)
    assert len(points) == 15
    for p in points:
        assert fifo.simulate(p.plan, p.syncs, p.load, p.seed) == engine.simulate(p.plan, p.syncs, p.load, p.seed)


def test_both_engines_refuse_store_and_forward_wan_rounds_and_bad_loads(presets: Presets) -> None:
    plan = cf.build_plan(sim_inputs(), presets, "A", cf.topologies(presets)["2dc4.100gbe"])
    for simulate in (fifo.simulate, engine.simulate):
        with pytest.raises(ValueError, match="load must be in"):
            simulate(plan, syncs=1, load=1.0)
