"""The committed results files equal what the models write now (``make results`` regenerates them)."""

from __future__ import annotations

import pytest

from site_builder.build import Options, load_inputs
from site_builder.site import PRODUCERS
from tests.conftest import PROJECT, REFERENCE, VENDOR


@pytest.fixture(scope="module")
def inputs():
    return load_inputs(Options(project=PROJECT, vendor=VENDOR, reference=REFERENCE))


@pytest.mark.parametrize("producer", PRODUCERS, ids=[p.name for p in PRODUCERS])
def test_no_drift(inputs, producer):
    doc = producer.build(inputs)
    folder = PROJECT / "data" / producer.name
    assert (folder / "results.md").read_text(encoding="utf-8") == doc.to_markdown()
    assert (folder / "results.json").read_text(encoding="utf-8") == doc.to_json()
