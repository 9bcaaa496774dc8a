"""The committed results files equal what the models write now (``make results`` regenerates them)."""

from __future__ import annotations

import pytest

from site_builder.paths import Options
from site_builder.results.producers import PRODUCERS, load_inputs
from tests.conftest import PROJECT, REFERENCE, VENDOR


@pytest.fixture(scope="module")
def inputs():
    return load_inputs(Options(project=PROJECT, vendor=VENDOR, reference=REFERENCE).paths())


@pytest.mark.parametrize("producer", PRODUCERS, ids=[p.name for p in PRODUCERS])
def test_no_drift(inputs, producer):
    doc = producer.build(inputs.view(producer.name, producer.inputs))
    folder = PROJECT / "data" / producer.name
    assert (folder / "results.md").read_text(encoding="utf-8") == doc.to_markdown()
    assert (folder / "results.json").read_text(encoding="utf-8") == doc.to_json()


def test_explorer_cases_have_no_drift(inputs):
    from site_builder.explorers import EXPLORERS
    from site_builder.results.producers import ResultsText

    docs = {p.name: ResultsText.of(p.build(inputs.view(p.name, p.inputs))) for p in PRODUCERS}
    for e in EXPLORERS.values():
        assert (PROJECT / "data" / "explorers" / f"{e.name}.json").read_text(encoding="utf-8") == e.cases_json(docs)
