"""The captured-energy explorer: the experiment results document carries the vendored captured energy, the
payload comes from that document only, and the laid-out shares print the cells of the vendored results.md §2."""

from __future__ import annotations

import json

import pytest

from site_builder import fmt
from site_builder.explorers import EXPLORERS, captured_energy
from site_builder.results.experiment import build_experiment_results
from site_builder.results.producers import ResultsText
from tests.browser.cells import cells
from tests.conftest import PROJECT, VENDOR

RESULTS_MD = VENDOR / "demo-fixed-band" / "tinystories-gpu" / "results.md"
SECTION = "2. Captured energy on real momentum"
ROW_LABEL = {
    "band/1d/64": "C, 1d 64",
    "band/1d/256": "C, 1d 256",
    "band/2d/64": "C, 2d 64",
    "calib/2d/64": "D, 2d 64",
    "topk/2d/64": "B, 2d 64",
}


@pytest.fixture(scope="module")
def docs(experiment) -> dict[str, ResultsText]:
    return {"experiment": ResultsText.of(build_experiment_results(experiment))}


def test_registered_with_its_port() -> None:
    e = EXPLORERS["captured_energy"]
    assert (e.port, e.payload, e.cases) == ("capturedEnergy", captured_energy.payload, captured_energy.cases)
    assert e.scripts == ("js/ports/captured_energy.js", "js/explorers/captured_energy.js")


def test_the_results_document_carries_the_vendored_energy(docs, experiment) -> None:
    data = docs["experiment"].data["energy"]
    assert data == experiment.energy
    assert (
        data["band/2d/64"]["momentum/all/topk"]
        == json.loads((VENDOR / "demo-fixed-band" / "tinystories-gpu" / "results.json").read_text())["energy"][
            "band/2d/64"
        ]["momentum/all/topk"]
    )


def test_payload_is_compact_and_from_the_results_document(docs) -> None:
    p = captured_energy.payload(docs)
    assert len(json.dumps(p, separators=(",", ":"))) < 20_000
    assert p["keep"] == 1 / 16
    assert [r["key"] for r in p["runs"]] == list(ROW_LABEL)
    assert p["defaults"] == {"run": "band/2d/64", "tensor": "momentum"}
    assert p["runs"][2]["label"].startswith("C-2d64 · ")
    assert (
        p["runs"][2]["values"]["momentum"]["all"]["topk"]
        == docs["experiment"].data["energy"]["band/2d/64"]["momentum/all/topk"]
    )


def test_payload_refuses_a_missing_run(docs) -> None:
    bad = json.loads(docs["experiment"].json_text)
    del bad["data"]["energy"]["topk/2d/64"]
    with pytest.raises(ValueError, match=r"data\.energy"):
        captured_energy.payload({"experiment": ResultsText("experiment", "", json.dumps(bad))})


def test_every_row_prints_the_vendored_cells(docs) -> None:
    """Each run, tensor and group, every selector: the text the explorer prints equals the vendored cell."""
    table = cells(RESULTS_MD)
    p = captured_energy.payload(docs)
    sels = [s["id"] for s in p["selectors"]]
    columns = dict(captured_energy.SELECTORS)
    n = 0
    for run in p["runs"]:
        for tensor, _ in captured_energy.TENSORS:
            laid = captured_energy.table(run["values"][tensor], p["keep"], sels)
            for group, _ in captured_energy.GROUPS:
                for s in sels:
                    want = table[(SECTION, (ROW_LABEL[run["key"]], tensor, group), columns[s])]
                    assert [laid[group][s]["text"]] == want, (run["key"], tensor, group, s)
                    n += 1
    assert n == 5 * 3 * 4 * 6
    assert captured_energy.table(p["runs"][2]["values"]["momentum"], p["keep"], sels)["all"]["low"]["text"] == "0.013"


def test_shares_against_the_keep_fraction(docs) -> None:
    p = captured_energy.payload(docs)
    t = captured_energy.table(p["runs"][2]["values"]["momentum"], p["keep"], ["topk", "calib"])
    assert t["all"]["topk"]["vs_keep"] == t["all"]["topk"]["share"] * 16
    assert t["all"]["topk"]["vs_keep_text"] == fmt.ratio_x(t["all"]["topk"]["share"] * 16, 1) == "10.3x"
    assert t["all"]["calib"] == {"share": None, "text": "n/a", "vs_keep": None, "vs_keep_text": "n/a"}


def test_cases_cover_every_run_and_tensor(docs) -> None:
    cs = captured_energy.cases(docs)
    tables = [c for c in cs if c["fn"] == "table"]
    assert {c["id"] for c in tables} == {f"§2 {r} {t}" for r in ROW_LABEL for t, _ in captured_energy.TENSORS}
    fns = {"fixed": fmt.fixed, "ratioX": fmt.ratio_x}
    for c in cs:
        if c["id"].startswith("format "):
            assert fns[c["fn"]](*c["args"]) == c["want"]


def test_committed_cases_are_current(docs) -> None:
    committed = (PROJECT / "data" / "explorers" / "captured_energy.json").read_text(encoding="utf-8")
    assert committed == EXPLORERS["captured_energy"].cases_json(docs)
