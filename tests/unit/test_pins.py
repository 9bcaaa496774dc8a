"""The pins in data/sources.yaml agree with the vendor's own provenance records and the files on disk."""

from __future__ import annotations

import csv

from site_builder.sources import pins
from tests.conftest import PROJECT, REFERENCE, VENDOR


def test_pins_match_provenance_and_manifest():
    pinned = pins.load_pins(PROJECT / "data" / "sources.yaml")["vendor"]
    with (VENDOR / "demo-fixed-band" / "PROVENANCE.tsv").open() as f:
        for row in csv.DictReader(f, delimiter="\t"):
            key = f"demo-fixed-band/{row['local_path']}"
            if key in pinned:
                assert pinned[key] == row["sha256"], key
    with (VENDOR / "demo-fixed-band" / "curves" / "MANIFEST.tsv").open() as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    assert len(rows) == 32
    for row in rows:
        assert pinned[f"demo-fixed-band/curves/{row['name']}.jsonl"] == row["sha256_of_extract"]


def test_pins_verify_against_disk():
    p = pins.load_pins(PROJECT / "data" / "sources.yaml")
    pins.verify(p, pins.Roots(VENDOR, REFERENCE), "data/sources.yaml")
