"""The step-against-mask explorer: its model additions (budget terms, the step with the engine), its payload
built from the results documents only, and parity cases that cover every row of results.md §4."""

from __future__ import annotations

import json

import pytest

from site_builder import fmt
from site_builder.explorers import EXPLORERS, step_mask
from site_builder.models.analysis.ledger import step_ledger
from site_builder.models.analysis.masks import (
    budget_terms,
    data_mask_values,
    engine_step,
    mask_budget,
    weight_mask_values,
)
from site_builder.models.analysis.step import step_shares
from site_builder.results.analysis import build_analysis_results
from site_builder.results.producers import ResultsText
from tests.conftest import PROJECT

VARIANTS = ("transformer", "hyena2", "hybrid", "circ")
LENGTHS = (2048, 4096, 8192, 32768)


@pytest.fixture(scope="module")
def docs() -> dict[str, ResultsText]:
    """The analysis results document, built from the model (the explorer needs nothing else)."""
    return {"analysis": ResultsText.of(build_analysis_results())}


# ------------------------------------------------------------------------------------------------ model
@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("length", LENGTHS)
def test_budget_terms_give_the_ledger_at_any_step_size(variant: str, length: int) -> None:
    t = budget_terms(variant, length)
    assert t.weight_values == weight_mask_values(variant, length)
    for step_tokens in (length, 32_768, 1_048_576, 16_777_216):
        q = step_tokens // length
        led = step_ledger(variant, length, step_tokens).step
        assert led.total == t.step_flops_per_sequence * q + t.step_flops_per_step
        assert led.static == t.static_flops_per_sequence * q + t.static_flops_per_step
        assert led.optical == t.optical_flops_per_sequence * q + t.optical_flops_per_step
        assert data_mask_values(variant, length, step_tokens) == t.data_values_per_sequence * q
    assert max(v for v in t.as_dict().values() if isinstance(v, int)) < 2**53  # exact in JavaScript


def test_engine_step_without_data_masks_is_the_budgets_step() -> None:
    for variant in ("hyena2", "circ"):
        b = mask_budget(variant, 8192)
        serial, over = engine_step(b), engine_step(b, overlapped=True)
        assert serial.step_seconds == b.step_serial_seconds
        assert over.step_seconds == b.step_overlapped_seconds
        assert serial.removable_seconds == over.removable_seconds == b.removable_seconds
        assert serial.share == b.static_share
        assert serial.hidden_seconds == 0.0
        assert over.hidden_seconds == min(over.remaining_seconds, over.mask_seconds)
        assert serial.speedup == b.digital_seconds / b.step_serial_seconds


def test_engine_step_with_data_masks_takes_the_optical_share() -> None:
    b = mask_budget("hyena2", 2048)
    e = engine_step(b, overlapped=False, data_on_engines=True)
    assert e.share == step_shares("hyena2", 2048).step > b.static_share
    assert e.removable_seconds == e.share * b.digital_seconds
    assert e.mask_seconds == b.weight_seconds + b.data_seconds_per_engine
    assert e.step_seconds == e.remaining_seconds + e.mask_seconds
    # deck 03: spread over 64 engines the data-by-data writes still cost about a whole digital step
    assert 0.9 < b.data_seconds_per_engine / b.digital_seconds < 1.1
    assert e.speedup < engine_step(b).speedup < 1


def test_engine_step_overlapped_is_never_longer() -> None:
    for changes in ({}, {"gpus": 8}, {"tflops": 2000.0}, {"schedule": "sequence-major"}):
        b = mask_budget("circ", 4096, **changes)  # type: ignore[arg-type]
        for data in (False, True):
            assert engine_step(b, True, data).step_seconds <= engine_step(b, False, data).step_seconds


# ------------------------------------------------------------------------------------------------ explorer
def test_registered_with_its_port() -> None:
    e = EXPLORERS["step_mask"]
    assert (e.port, e.payload, e.cases) == ("stepMask", step_mask.payload, step_mask.cases)
    assert e.scripts == ("js/ports/step_mask.js", "js/explorers/step_mask.js")
    assert {"loss_curves", "step_mask"} <= set(EXPLORERS)


def test_payload_is_compact_and_from_the_results_document(docs) -> None:
    p = step_mask.payload(docs)
    text = json.dumps(p, separators=(",", ":"))
    assert len(text) < 8_000
    data = docs["analysis"].data["masks"]
    assert [v["id"] for v in p["variants"]] == ["hyena2", "hybrid", "circ"]
    assert p["lengths"] == list(LENGTHS)
    d = p["defaults"]
    assert (d["variant"], d["length"], d["overlapped"], d["data_on_engines"]) == ("hyena2", 2048, False, False)
    assert {k: d[k] for k in step_mask.SETTINGS} == {k: data["defaults"][k] for k in step_mask.SETTINGS}
    for v in p["terms"]:
        for n in p["terms"][v]:
            assert p["terms"][v][n] == budget_terms(v, int(n)).as_dict()


def test_payload_refuses_terms_javascript_cannot_hold(docs) -> None:
    bad = json.loads(docs["analysis"].json_text)
    bad["data"]["masks"]["terms"]["hyena2"]["2048"]["step_flops_per_sequence"] = 2**53
    with pytest.raises(ValueError, match="below 2\\*\\*53"):
        step_mask.payload({"analysis": ResultsText("analysis", "", json.dumps(bad))})


def test_outputs_at_the_defaults_are_the_results_cells(docs) -> None:
    figures = docs["analysis"].parsed["figures"]
    cols = {
        "weight_values": "weight_values",
        "forward_frames": "forward_frames",
        "backward_frames": "backward_frames",
        "weight_seconds": "weight_seconds",
        "digital_seconds": "digital_seconds",
        "mask_over_step": "mask_over_step",
        "data_seconds": "data_seconds",
        "data_seconds_per_engine": "data_seconds_per_engine",
        "removable_seconds": "removable_seconds",
        "step_serial_seconds": "step_serial_seconds",
        "step_overlapped_seconds": "step_overlapped_seconds",
    }
    defaults = step_mask.defaults(docs)
    checked = 0
    for v in ("hyena2", "hybrid", "circ"):
        for n in LENGTHS:
            text = step_mask.outputs(v, n, defaults, False, False)["text"]
            for out, key in cols.items():
                fig = figures.get(f"ana.masks.{v}.{n}.{key}")
                if fig is not None:  # the engine table has Hyena-2 and block-circulant up to 8,192 only
                    assert text[out] == fig["text"], (v, n, out)
                    checked += 1
    assert checked == 12 * 8 + 6 * 3


def test_cases_cover_every_row_of_section_4(docs) -> None:
    cs = step_mask.cases(docs)
    rows = {
        (c["args"][0]["variant"], c["args"][0]["length"])
        for c in cs
        if c["id"].startswith("§4 ") and c["fn"] == "outputs"
    }
    assert rows == {(v, n) for v in ("hyena2", "hybrid", "circ") for n in LENGTHS}
    figures = docs["analysis"].parsed["figures"]
    schedules = [c for c in cs if c["id"].startswith("§4 schedule")]
    assert len(schedules) == 6
    for c in schedules:
        slug = c["id"].removeprefix("§4 schedule ")
        k = f"ana.masks.schedule.{slug}"
        t = c["want"]["text"]
        assert (t["passes"], t["frames_per_pass"], t["mask_time"], t["relative"]) == tuple(
            figures[f"{k}.{col}"]["text"] for col in ("passes", "frames_per_pass", "weight_seconds", "relative")
        )
    assert all(c["want"]["budget"]["variant"] == c["args"][0]["variant"] for c in cs if c["fn"] == "outputs")


def test_cases_include_settings_away_from_the_defaults(docs) -> None:
    cs = [c for c in step_mask.cases(docs) if c["fn"] == "outputs"]
    seen = {k: {json.dumps(c["args"][1][k]) for c in cs} for k in step_mask.SETTINGS}
    for k in ("step_tokens", "gpus", "tflops", "model_parallel", "schedule", "microbatch"):
        assert len(seen[k]) >= 2, k
    assert {(c["args"][2], c["args"][3]) for c in cs} == {(False, False), (True, False), (False, True), (True, True)}


def test_format_cases_are_fmt(docs) -> None:
    cs = [c for c in step_mask.cases(docs) if c["id"].startswith("format ")]
    fns = {"fixed": fmt.fixed, "unit": fmt.unit, "integer": fmt.integer, "ratioX": fmt.ratio_x, "pct": fmt.pct}
    assert {c["fn"] for c in cs} == set(fns)
    for c in cs:
        assert fns[c["fn"]](*c["args"]) == c["want"]
    assert fmt.fixed(0.125, 2) == "0.12" and fmt.fixed(0.375, 2) == "0.38"  # ties to even, as the port must


def test_committed_cases_are_current(docs) -> None:
    committed = (PROJECT / "data" / "explorers" / "step_mask.json").read_text(encoding="utf-8")
    assert committed == EXPLORERS["step_mask"].cases_json(docs)
