"""The loss-curves explorer: its three groups of series (the optics' first design and repaired runs among
them), the steps ladder from the experiment results, steps that print the cells of results.md §4, where the
ladder's marks sit on the wire axis, and parity cases for all of it."""

from __future__ import annotations

import pytest

from site_builder import fmt
from site_builder.explorers import EXPLORERS, loss_curves
from site_builder.results.experiment import build_experiment_results
from site_builder.results.producers import ResultsText
from tests.conftest import PROJECT


@pytest.fixture(scope="module")
def docs(experiment) -> dict[str, ResultsText]:
    return {"experiment": ResultsText.of(build_experiment_results(experiment))}


def test_groups_hold_the_first_design_and_the_repaired_runs(docs) -> None:
    p = loss_curves.payload(docs)
    by_group: dict[str, list[str]] = {}
    for s in p["series"]:
        by_group.setdefault(s["group"], []).append(s["id"])
    groups = docs["experiment"].data["groups"]
    first = sorted(c for c, g in groups.items() if "optics" in g and "fbsent" not in g)
    repaired = sorted(c for c, g in groups.items() if "optics" in g and "fbsent" in g)
    assert sorted(by_group["first"]) == first and len(first) == 6
    assert sorted(by_group["repaired"]) == repaired and len(repaired) == 7
    assert {s["id"] for s in p["series"] if s["group"] == "first" and s["visible"]} == set()
    assert [g["id"] for g in p["groups"]] == ["main", "repaired", "first"]
    # the first design diverged: every run ends above its first evaluation
    for s in p["series"]:
        if s["group"] == "first":
            assert s["seeds"][0][-1] > s["seeds"][0][0]


def test_the_ladder_is_the_experiments(docs) -> None:
    p = loss_curves.payload(docs)
    assert p["ladder"] == [
        {"text": fmt.fixed(r["target"], 3), "config": r["config"]} for r in docs["experiment"].data["ladder"]
    ]
    assert p["default_target"] == p["ladder"][0]["text"] == "3.158"


def test_steps_print_every_cell_of_section_4(docs) -> None:
    figures = docs["experiment"].parsed["figures"]
    p = loss_curves.payload(docs)
    n = 0
    for s in p["series"]:
        for t in p["ladder"]:
            got = loss_curves.steps_to(s["steps_to"][t["text"]])
            assert got["text"] == figures[f"exp.steps.{s['id']}.{t['text']}"]["text"]
            n += 1
    assert n == 19 * 8
    c = loss_curves.steps_to([2600, 2800, 2600])
    assert (c["reached"], c["seeds"], c["text"]) == (3, 3, "2,667")
    assert loss_curves.steps_to([None, 3000, None])["text"] == "not reached (1/3)"


def test_wire_at_follows_the_evaluations() -> None:
    steps, wire = [200, 400, 600], [2.0, 4.0, 6.0]
    assert loss_curves.wire_at(steps, wire, 400) == 4.0
    assert loss_curves.wire_at(steps, wire, 100) == 1.0
    assert loss_curves.wire_at(steps, wire, 500) == 5.0
    with pytest.raises(ValueError, match="after the last evaluation"):
        loss_curves.wire_at(steps, wire, 601)


def test_cases_cover_the_ladder_and_the_marks(docs) -> None:
    cs = loss_curves.cases(docs)
    steps = [c for c in cs if c["fn"] == "stepsTo"]
    assert len(steps) == 19 * 8
    marks = [c for c in cs if c["fn"] == "wireAt"]
    assert len(marks) == sum(1 for c in steps if c["want"]["mean"] is not None) == 38
    assert {c["id"] for c in cs if c["fn"] == "band"} == {s[0] for s in loss_curves.SERIES}
    for c in cs:
        if c["fn"] == "grouped":
            assert fmt.grouped(*c["args"]) == c["want"]


def test_committed_cases_are_current(docs) -> None:
    committed = (PROJECT / "data" / "explorers" / "loss_curves.json").read_text(encoding="utf-8")
    assert committed == EXPLORERS["loss_curves"].cases_json(docs)
