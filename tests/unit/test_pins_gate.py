"""The pins gate: the build reads a vendored or reference file only if it is pinned, inside its root, unchanged."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from site_builder.errors import InputError
from site_builder.sources import pins


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@pytest.fixture
def roots(tmp_path: Path) -> pins.Roots:
    vendor, reference = tmp_path / "vendor", tmp_path / "reference"
    (vendor / "d" / "curves").mkdir(parents=True)
    reference.mkdir()
    (vendor / "d" / "results.json").write_bytes(b"{}")
    (vendor / "d" / "curves" / "a.jsonl").write_bytes(b"1\n")
    (reference / "presets.yaml").write_bytes(b"x: 1\n")
    return pins.Roots(vendor, reference)


def pinned(roots: pins.Roots, **extra: dict[str, str]) -> pins.Pinned:
    p = {
        "vendor": {"d/results.json": sha(b"{}"), "d/curves/a.jsonl": sha(b"1\n")},
        "reference": {"presets.yaml": sha(b"x: 1\n")},
    }
    for root, files in extra.items():
        p[root].update(files)
    return pins.Pinned(p, roots)


READS = {"vendor": ("d/results.json", "d/curves/*.jsonl"), "reference": ("presets.yaml",)}


def test_pinned_files_are_read_and_checked_as_read(roots: pins.Roots) -> None:
    p = pinned(roots)
    pins.verify(p.pins, roots)
    p.check_reads(READS)
    vendor = p.folder("vendor")
    assert vendor.read_text("d/results.json") == "{}"
    assert vendor.glob("d/curves/*.jsonl") == ["d/curves/a.jsonl"]
    (roots.vendor / "d" / "results.json").write_bytes(b"[]")  # changed after the pins were verified
    with pytest.raises(InputError, match=r"results\.json: sha256 pinned in data/sources\.yaml: .*\(file changed\)"):
        vendor.read_text("d/results.json")


def test_an_unpinned_file_the_build_would_read_is_named(roots: pins.Roots) -> None:
    (roots.vendor / "d" / "curves" / "b.jsonl").write_bytes(b"2\n")
    with pytest.raises(InputError) as info:
        pinned(roots).check_reads(READS)
    assert str(info.value) == (
        f"{roots.vendor / 'd/curves/b.jsonl'}: data/sources.yaml vendor: expected a file pinned in "
        "data/sources.yaml (check it, then run `python -m site_builder pin`), found no pin"
    )
    with pytest.raises(InputError, match="found no pin"):
        pinned(roots).folder("reference").read_text("other.yaml")


def test_files_the_build_does_not_read_need_no_pin(roots: pins.Roots) -> None:
    (roots.vendor / "d" / "README.md").write_text("docs\n")
    pinned(roots).check_reads(READS)


@pytest.mark.parametrize("rel", ["../x", "/etc/passwd", "d/../x", "./d/results.json", "d//results.json", "d\\x", ""])
def test_a_pin_path_must_stay_inside_its_root(tmp_path: Path, rel: str) -> None:
    f = tmp_path / "sources.yaml"
    f.write_text(f"vendor:\n  '{rel}': {'0' * 64}\nreference:\n  presets.yaml: {'0' * 64}\n")
    with pytest.raises(InputError, match=r"data/sources\.yaml: vendor"):
        pins.load_pins(f)


def test_a_link_out_of_the_root_is_refused(roots: pins.Roots, tmp_path: Path) -> None:
    outside = tmp_path / "outside.yaml"
    outside.write_bytes(b"x: 1\n")
    (roots.reference / "presets.yaml").unlink()
    (roots.reference / "presets.yaml").symlink_to(outside)
    with pytest.raises(
        InputError, match=r"expected a file inside the reference folder, found a link to .*outside\.yaml"
    ):
        pins.verify(pinned(roots).pins, roots)
    with pytest.raises(InputError, match=r"found a link to .*outside\.yaml"):
        pinned(roots).folder("reference").read_text("presets.yaml")


@pytest.mark.parametrize("missing", ["vendor", "reference"])
def test_both_sections_are_required(tmp_path: Path, missing: str) -> None:
    f = tmp_path / "sources.yaml"
    other = "reference" if missing == "vendor" else "vendor"
    f.write_text(f"{other}:\n  a: {'a' * 64}\n")
    with pytest.raises(InputError, match=rf"^data/sources\.yaml: {missing}: expected a {missing} section"):
        pins.load_pins(f)


def test_write_pins_pins_what_the_build_reads(roots: pins.Roots, tmp_path: Path) -> None:
    (roots.vendor / "d" / "README.md").write_text("docs\n")
    f = tmp_path / "sources.yaml"
    got = pins.write_pins(f, roots, READS)
    assert sorted(got["vendor"]) == ["d/curves/a.jsonl", "d/results.json"]
    assert pins.load_pins(f) == got
