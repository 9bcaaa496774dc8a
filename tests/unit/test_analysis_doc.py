"""The analysis results document: keys, published figures as cell text, and the written files."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from site_builder.results.analysis import build_analysis_results, published_figures
from site_builder.results.doc import KeyedCell, ResultsDoc

ROOT = Path(__file__).resolve().parents[2]
KNOWN_DIFFERENT = {"ana.precision.bf16.enob_range"}  # explained in results.md section 5


@cache
def doc() -> ResultsDoc:
    return build_analysis_results()


@cache
def cells() -> dict[str, KeyedCell]:
    return {k.key: k for k in doc().keyed_cells()}


def test_name_and_sections() -> None:
    d = doc()
    assert d.name == "analysis"
    titles = [s.title for s in d.sections]
    assert titles[:6] == [
        "1. Cross-check: the 6N rule",
        "2. A training step",
        "3. The optimizer step and DeMo",
        "4. Holding the masks",
        "5. Precision for training formats",
        "6. Numeric checks of the backward formulas",
    ]


def test_keys_are_prefixed_and_lowercase() -> None:
    for key in cells():
        assert key.startswith("ana.") and key == key.lower() and " " not in key


def test_every_published_figure_is_a_cell() -> None:
    c = cells()
    for label, published, key in published_figures():
        if key in KNOWN_DIFFERENT:
            continue
        assert c[key].text == published, (label, key, c[key].text)


def test_known_difference_is_shown_with_both_values() -> None:
    c = cells()
    assert c["ana.precision.bf16.enob_range"].text == "10.3–10.8"
    md = doc().to_markdown()
    assert "The published ranges are 5.3–5.8 ENOB for E5M2, which we reproduce, and 10.3–10.7 for BF16" in md


def test_selected_cells() -> None:
    c = cells()
    assert c["ana.step.hyena2.4096.static_share"].text == "0.14%"
    assert c["ana.step.circ.4096.bound_static"].text == "1.107x"
    assert c["ana.sixn.2048.gflop_per_token"].text == "46.64"
    assert c["ana.masks.hyena2.2048.weight_seconds"].text == "0.52 s"
    assert c["ana.precision.fp8.enob_min"].text == "5.3"
    assert c["ana.demo.share"].text == "4.76e-06"
    assert c["ana.precision.bitplane_factor_8"].text == "147.8"


def test_settings_and_inputs_are_cells() -> None:
    c = cells()
    expected = {
        "ana.setting.step_tokens": "1,048,576",
        "ana.setting.sequences.2048": "512",
        "ana.setting.sequences.4096": "256",
        "ana.setting.length.2048": "2,048",
        "ana.setting.length.32768": "32,768",
        "ana.setting.circ_block": "256",
        "ana.setting.hybrid_ratio": "1:3",
        "ana.setting.trained_context": "8,192",
        "ana.setting.device.pixels": "2,000,000",
        "ana.setting.device.megapixels": "2 MP",
        "ana.setting.device.frame_rate": "1,031 Hz",
        "ana.setting.device.bit_depth": "8-bit",
        "ana.setting.cluster.gpus": "64",
        "ana.setting.cluster.tflops": "400 TFLOP/s",
        "ana.masks.schedule.sequences_per_gpu": "8",
        "ana.masks.schedule.layer_major_mp32.model_parallel": "32",
        "ana.masks.schedule.seq_major_m4.microbatch": "4",
        "ana.demo.chunk": "64",
        "ana.checks.1000.length": "1,000",
        "ana.sixn.per_param.forward": "2",
        "ana.sixn.per_param.backward": "4",
        "ana.sixn.per_param.step": "6",
        "ana.sixn.tolerance": "1e-12",
        "ana.shape.vocab": "128,256",
        "ana.precision.fp8.mantissa_bits": "2",
        "ana.precision.bf16.mantissa_bits": "7",
        "ana.precision.fp8.exponent_bits": "5",
        "ana.precision.fp8.total_bits": "8",
        "ana.precision.bitplane_planes": "8",
        "ana.convention.cmul": "6",
        "ana.convention.cadd": "2",
        "ana.convention.rfft": "2.5",
        "ana.convention.matmul": "2",
    }
    for key, text in expected.items():
        assert c[key].text == text, key


def test_data_for_the_explorers() -> None:
    data = json.loads(doc().to_json())["data"]
    assert set(data["ledger"]) == {"transformer", "hyena2", "hybrid", "circ"}
    led = data["ledger"]["circ"]["4096"]
    assert set(led["forward"]) >= {"dense", "attention", "transform", "spectral_w", "spectral_d", "other", "total"}
    m = data["masks"]["budgets"]["hyena2"]["2048"]
    assert m["forward_frames"] == 269 and m["gpus"] == 64 and m["pixels"] == 2_000_000


def test_written_files_are_up_to_date() -> None:
    folder = ROOT / "data" / "analysis"
    d = doc()
    assert (folder / "results.md").read_text(encoding="utf-8") == d.to_markdown(), "run `make results`"
    assert (folder / "results.json").read_text(encoding="utf-8") == d.to_json(), "run `make results`"
