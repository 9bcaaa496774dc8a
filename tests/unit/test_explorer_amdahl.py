"""The training-step Amdahl explorer: payload and parity cases, and that the cases reproduce results §2 and §4."""

from __future__ import annotations

import json

import pytest

from site_builder.explorers import EXPLORERS, amdahl
from site_builder.results.analysis import build_analysis_results
from site_builder.results.producers import ResultsText
from tests.browser.cells import cells
from tests.conftest import PROJECT

RESULTS_MD = PROJECT / "data" / "analysis" / "results.md"
STEP = "2. A training step"
MASKS = "4. Holding the masks"
SHARE_COLUMNS = {
    "Forward": "forward",
    "Backward": "backward",
    "Step": "step",
    "Static": "static",
    "Data-by-data part": "data_part",
    "Bound (step)": "bound_optical",
    "Bound (static)": "bound_static",
    "Backward / forward": "backward_over_forward",
}
MASK_COLUMNS = {
    "Mask values per pass": "weight_values",
    "Frames, forward (H)": "frames_forward",
    "Frames, backward (conj H)": "frames_backward",
    "Weight masks": "weight_seconds",
    "Digital step": "digital_seconds",
    "Masks / step": "mask_over_step",
}
SHORT = {"transformer": "Transformer", "hyena2": "Hyena-2", "hybrid": "Hybrid 1:3", "circ": "Block-circulant"}


@pytest.fixture(scope="module")
def docs() -> dict[str, ResultsText]:
    return {"analysis": ResultsText.of(build_analysis_results())}


@pytest.fixture(scope="module")
def committed() -> dict:
    return json.loads((PROJECT / "data" / "explorers" / "amdahl.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def table() -> dict:
    return cells(RESULTS_MD)


def _label(variant: str, length: int) -> str:
    return f"{SHORT[variant]}, {length:,}"


def test_registered():
    e = EXPLORERS["amdahl"]
    assert e.port == "amdahl"
    assert e.scripts == ("js/ports/amdahl.js", "js/explorers/amdahl.js")
    for rel in e.scripts:
        assert (PROJECT / "site_builder" / "static" / rel).is_file()


def test_payload_shape(docs):
    p = amdahl.payload(docs)
    data = docs["analysis"].data
    assert [v["id"] for v in p["variants"]] == data["constants"]["variants"]
    assert p["lengths"] == data["constants"]["lengths"]
    assert p["default"] == {"variant": "circ", "length": 4096, "step_tokens": data["constants"]["step_tokens"]}
    assert p["default"]["step_tokens"] in p["step_tokens"]
    assert p["step_tokens"] == sorted(p["step_tokens"])
    assert all(t % max(p["lengths"]) == 0 for t in p["step_tokens"]), "every step is whole sequences"
    assert set(p["config"]) == {"d_model", "hyena_order", "circ_matrices", "pixels", "frame_rate_hz", "gpus", "tflops"}
    for v in p["ledger"]:
        assert set(p["ledger"][v]) == {str(n) for n in p["lengths"]}
        for e in p["ledger"][v].values():
            for part in ("per_sequence", "once_per_step"):
                for ops in e[part].values():
                    assert set(ops) == set(amdahl.CLASSES)
                    assert all(isinstance(x, int) and 0 <= x < 2**53 for x in ops.values())
    # Compact: the explorer's page carries a few kilobytes, not the whole results document.
    assert len(json.dumps(p)) < 20_000


def test_payload_rebuilds_the_ledger(docs):
    """per_sequence x sequences + once_per_step equals the results' whole-step ledger."""
    p = amdahl.payload(docs)
    data = docs["analysis"].data
    for v, by_len in p["ledger"].items():
        for n, e in by_len.items():
            led = data["ledger"][v][n]
            for part in ("forward", "backward"):
                for c in amdahl.CLASSES:
                    got = e["per_sequence"][part][c] * led["sequences"] + e["once_per_step"][part][c]
                    assert got == led[part][c], (v, n, part, c)


def test_cases_have_no_drift(docs, committed):
    assert committed == json.loads(EXPLORERS["amdahl"].cases_json(docs))


def test_cases_shape(committed):
    assert committed["explorer"] == "amdahl" and committed["port"] == "amdahl"
    fns = {c["fn"] for c in committed["cases"]}
    assert {"view", "weightMaskValues", "framesPerPass", "divide", "pct", "ratioX", "unit", "integer"} <= fns
    for c in committed["cases"]:
        assert set(c) == {"id", "fn", "args", "want"}
    views = [c for c in committed["cases"] if c["fn"] == "view"]
    steps = {c["args"][3] for c in views}
    assert len(steps) >= 4, "non-default tokens per step are covered"
    assert len({c["id"] for c in views}) == len(views)


def test_view_cases_reproduce_section_2(committed, table):
    views = {(c["id"]): c for c in committed["cases"] if c["fn"] == "view"}
    rows = 0
    for v in SHORT:
        for n in (2048, 4096, 8192, 32768):
            text = views[f"{v}.{n}.1048576"]["want"]["text"]
            for col, key in SHARE_COLUMNS.items():
                assert text[key] == table[(STEP, (_label(v, n),), col)][0], (v, n, col)
            assert text["step_gflop_per_token"] == table[(STEP, (_label(v, n),), "Step, GFLOP/token")][0]
            rows += 1
    assert rows == 16


def test_view_cases_reproduce_section_4(committed, table):
    views = {(c["id"]): c for c in committed["cases"] if c["fn"] == "view"}
    frames = {c["id"]: c["want"] for c in committed["cases"] if c["fn"] == "framesPerPass"}
    rows = 0
    for v in ("hyena2", "hybrid", "circ"):
        for n in (2048, 4096, 8192, 32768):
            text = views[f"{v}.{n}.1048576"]["want"]["text"]
            for col, key in MASK_COLUMNS.items():
                assert text[key] == table[(MASKS, (_label(v, n),), col)][0], (v, n, col)
            assert f"{frames[f'{v}.{n}']:,}" == table[(MASKS, (_label(v, n),), "Frames, forward (H)")][0]
            rows += 1
    assert rows == 12


def test_default_view_is_the_named_row(committed):
    want = next(c["want"]["text"] for c in committed["cases"] if c["id"] == "circ.4096.1048576")
    got = [want[k] for k in ("forward", "backward", "step", "static", "data_part", "bound_optical", "bound_static")]
    assert got == ["14.18%", "11.16%", "12.19%", "9.66%", "20.73%", "1.139x", "1.107x"]


def test_frames_do_not_depend_on_the_step_but_the_digital_step_does(committed):
    by = {c["id"]: c["want"] for c in committed["cases"] if c["fn"] == "view"}
    a, b = by["circ.4096.262144"], by["circ.4096.4194304"]
    assert a["frames_forward"] == b["frames_forward"]
    assert b["digital_seconds"] == pytest.approx(16 * a["digital_seconds"], rel=1e-3)


def test_format_cases_cover_ties():
    """Python rounds exact ties to even; the cases hold the port to it."""
    wants = {(fn, args): amdahl._format_want(fn, args) for fn, args in amdahl.FORMAT_CASES}
    assert wants[("fixed", (0.125, 2))] == "0.12"
    assert wants[("fixed", (2.5, 0))] == "2"
    assert wants[("unit", (2.5, 0, "s"))] == "2 s"
