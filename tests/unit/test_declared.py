"""Each results source is declared once (site_builder/results/producers.py): what the build reads and pins, and which
inputs a document loads, are derived from the declarations; a declaration that does not hold is one line."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from site_builder.errors import BuildError, InputError
from site_builder.paths import Options
from site_builder.results import producers
from site_builder.results.producers import LOADERS, PRODUCERS, VENDORED_RESULTS, check_declarations, patterns_of, reads
from site_builder.series import SERIES, Series, site_title
from site_builder.sources import pins
from site_builder.sources.inputs import Inputs
from tests.conftest import PROJECT, REFERENCE, VENDOR

LABEL = "site_builder/results/producers.py"


def by_name(name: str) -> producers.Producer:
    return next(p for p in PRODUCERS if p.name == name)


def test_what_pin_writes_is_what_the_declarations_read(tmp_path: Path) -> None:
    written = pins.write_pins(tmp_path / "sources.yaml", pins.Roots(VENDOR, REFERENCE), reads())
    assert written == pins.load_pins(PROJECT / "data" / "sources.yaml")
    assert pins.load_pins(tmp_path / "sources.yaml", "sources.yaml") == written


def test_the_reads_are_the_union_of_the_declarations() -> None:
    declared = {x for r in (*PRODUCERS, VENDORED_RESULTS) for x in patterns_of(r)}
    derived = {f"{root}/{pattern}" for root, patterns in reads().items() for pattern in patterns}
    assert derived == declared
    assert tuple(reads()) == pins.ROOTS
    for root, patterns in reads().items():  # each pattern names a file that is there to read
        base = pins.Roots(VENDOR, REFERENCE).of(root)
        assert all(pins._matches(base, p) for p in patterns), root


def test_each_loader_declares_what_it_reads() -> None:
    for loader in LOADERS.values():
        assert loader.reads() and all(x.split("/", 1)[0] in pins.ROOTS for x in loader.reads()), loader.name


def test_the_entries_hold_each_inputs_loader() -> None:
    for p in (*PRODUCERS, VENDORED_RESULTS):
        assert all(LOADERS[n].module in p.entries for n in p.inputs), p.name
        assert set(producers.INPUT_MODULES) <= set(p.entries), p.name


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"series": "nope"}, "producer 'analysis'.series: expected one of cit, fopttrn, found 'nope'"),
        ({"inputs": ("weather",)}, "producer 'analysis'.inputs: expected inputs among LOADERS (experiment, presets)"),
        ({"reads": ("elsewhere/x.md",)}, "producer 'analysis'.reads: expected 'root/pattern' with root one of"),
        ({"reads": ("vendor",)}, "producer 'analysis'.reads: expected 'root/pattern' with root one of"),
        ({"name": "trainers"}, "producer 'trainers'.name: expected a name declared once, found it also names"),
        ({"name": "experiment_vendored"}, "'experiment_vendored'.name: expected a name declared once"),
        ({"page": "cit/experiment/derived/"}, "producer 'analysis'.page: expected a page declared once, found it"),
    ],
)
def test_a_bad_declaration_is_one_line_naming_the_producer_and_field(change: dict[str, object], message: str) -> None:
    bad = [dataclasses.replace(p, **change) if p.name == "analysis" else p for p in PRODUCERS]  # type: ignore[arg-type]
    with pytest.raises(InputError) as info:
        check_declarations(bad, VENDORED_RESULTS, LOADERS, SERIES)
    assert str(info.value).startswith(f"{LABEL}: ") and message in str(info.value)
    assert "\n" not in str(info.value)


def test_the_declarations_hold() -> None:
    check_declarations(PRODUCERS, VENDORED_RESULTS, LOADERS, SERIES)


def test_a_loader_under_another_name_is_one_line() -> None:
    loaders = {"experiment": LOADERS["presets"]}
    with pytest.raises(InputError, match=r"^site_builder/results/producers.py: LOADERS\['experiment'\].name: expected"):
        check_declarations(PRODUCERS, VENDORED_RESULTS, loaders, SERIES)


def unreadable() -> pins.Pinned:
    raise AssertionError("the pins were read: an input was loaded")


def test_the_analysis_and_trainers_builds_load_no_input() -> None:
    inputs = Inputs(LOADERS, unreadable)
    for name in ("analysis", "trainers"):
        p = by_name(name)
        assert p.inputs == ()
        p.build(inputs.view(p.name, p.inputs))
    assert inputs.loaded == ()


def test_the_build_of_the_analysis_does_not_load_the_vendored_experiment(tmp_path: Path) -> None:
    from site_builder.phases.store import Models

    paths = Options(project=PROJECT, vendor=VENDOR, reference=REFERENCE, cache=tmp_path / "cache").paths()
    m = Models(paths, [])
    m.inputs._pinned = unreadable
    m._compute(by_name("analysis"))
    assert m.inputs.loaded == ()


def test_a_document_loads_only_the_inputs_it_declares() -> None:
    inputs = producers.load_inputs(Options(project=PROJECT, vendor=VENDOR, reference=REFERENCE).paths())
    view = inputs.view("experiment", by_name("experiment").inputs)
    assert view["experiment"].target > 0
    assert inputs.loaded == ("experiment",)
    with pytest.raises(BuildError) as info:
        view["presets"]
    assert str(info.value) == f"{LABEL}: producer 'experiment'.inputs: expected 'presets' declared, found experiment"
    with pytest.raises(BuildError, match=r"LOADERS: expected a loader of input 'weather', found experiment, presets"):
        inputs["weather"]


def test_the_site_title_names_the_series_in_their_declared_places() -> None:
    named = sorted((s for s in SERIES.values() if s.title_place is not None), key=lambda s: s.title_place or 0)
    assert site_title(SERIES) == " · ".join(s.title for s in named)
    assert [s.key for s in named] == ["fopttrn", "cit"]  # the order the home page introduces them
    assert list(SERIES) == ["cit", "fopttrn"]  # the navigation's
    twice = {**SERIES, "x": Series("x", "X", "x/", "x/", (), title_place=named[0].title_place)}
    with pytest.raises(BuildError, match=r"^site_builder/series.py: x.title_place: expected a place of its own"):
        site_title(twice)


def test_a_loader_reading_outside_the_roots_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    from site_builder.sources import presets

    monkeypatch.setattr(presets, "READS", ("elsewhere/presets.yaml",))
    with pytest.raises(InputError) as info:
        patterns_of(by_name("simulation"))
    assert str(info.value) == (
        f"{LABEL}: loader 'presets'.reads: expected 'root/pattern' with root one of vendor, reference, "
        "found 'elsewhere/presets.yaml'"
    )
