"""A warm build recomputes no model; a changed input or a damaged cache entry is recomputed."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from site_builder.build import build
from site_builder.paths import Options
from tests.build.test_render_cache import MODEL_ENTRIES
from tests.conftest import PROJECT, REFERENCE, VENDOR


def opts(tmp: Path, cache: Path, vendor: Path = VENDOR, use_cache: bool = True) -> Options:
    return Options(  # the decks' PDFs are not what these tests are about (tests/build/conftest.py)
        project=PROJECT,
        out=tmp / "site",
        vendor=vendor,
        reference=REFERENCE,
        cache=cache,
        use_cache=use_cache,
        print_decks=False,
    )


@pytest.fixture(scope="module")
def warm_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    cache = tmp_path_factory.mktemp("cache")
    first = build(opts(tmp_path_factory.mktemp("cold"), cache), log=lambda _: None)
    assert sorted(first.computed) == sorted(MODEL_ENTRIES)
    return cache


def test_warm_build_recomputes_no_model_and_imports_no_numpy(warm_cache: Path, tmp_path: Path) -> None:
    import subprocess
    import sys

    code = (
        "import sys; from pathlib import Path; from site_builder.build import build; from site_builder.paths import Options;"
        f"s = build(Options(project=Path({str(PROJECT)!r}), out=Path({str(tmp_path / 'site')!r}), vendor=Path({str(VENDOR)!r}),"
        f" reference=Path({str(REFERENCE)!r}), cache=Path({str(warm_cache)!r}), print_decks=False), log=lambda _: None);"
        "print(s.computed, 'numpy' in sys.modules, 'simpy' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=PROJECT, capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[] False False"


def test_truncated_entry_is_recomputed_and_gives_the_same_site(warm_cache: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    shutil.copytree(warm_cache, cache)
    (entry,) = cache.glob("experiment.*")
    entry.write_bytes(entry.read_bytes()[: entry.stat().st_size // 2])
    s = build(opts(tmp_path, cache), log=lambda _: None)
    assert s.computed == ["experiment"]
    ref = build(opts(tmp_path / "ref", cache), log=lambda _: None)
    assert ref.computed == []
    for f in (tmp_path / "site").rglob("*"):
        if f.is_file():
            assert f.read_bytes() == (tmp_path / "ref" / "site" / f.relative_to(tmp_path / "site")).read_bytes()


def test_a_changed_input_is_recomputed(warm_cache: Path, tmp_path: Path) -> None:
    from site_builder.build import Models, pinned_digests
    from site_builder.results.producers import PRODUCERS

    paths = opts(tmp_path, warm_cache).paths()
    digests = pinned_digests(paths)
    m = Models(paths, [*digests[:-1], digests[-1].replace(digests[-1][-4:], "0000")])
    exp = next(p for p in PRODUCERS if p.name == "analysis")
    m.produced(exp)
    assert m.cache.misses == ["analysis"]
    m2 = Models(paths, digests)
    m2.produced(exp)
    assert m2.cache.hits == ["analysis"] and m2.cache.misses == []
