"""The results cache: keys follow the source a model imports, and a damaged entry is never trusted."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from site_builder.cache import store as cache


@pytest.fixture
def fake_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    pkg = tmp_path / "site_builder"
    (pkg / "models").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "models" / "__init__.py").write_text("")
    (pkg / "models" / "core.py").write_text("X = 1\n")
    (pkg / "models" / "unused.py").write_text("Y = 2\n")
    (pkg / "fmt.py").write_text("Z = 3\n")
    (pkg / "results.py").write_text(
        "from site_builder.models import core as c\n"
        "def f():\n"
        "    from . import fmt  # a lazy, relative import counts too\n"
        "    return c.X + fmt.Z\n"
    )
    monkeypatch.setattr(cache, "PACKAGE_DIR", pkg)
    forget = (cache.source_files.cache_clear, cache._sources.cache_clear)  # both remember paths under PACKAGE_DIR
    for f in forget:
        f()
    yield pkg
    for f in forget:
        f()


def test_source_files_follow_imports_transitively(fake_package: Path) -> None:
    names = {p.relative_to(fake_package).as_posix() for p in cache.source_files("site_builder.results")}
    assert names == {"__init__.py", "results.py", "models/__init__.py", "models/core.py", "fmt.py"}


def test_key_changes_with_imported_source_only(fake_package: Path) -> None:
    key = cache.key_of(["site_builder.results"], ["vendor a.json 00"])
    (fake_package / "models" / "unused.py").write_text("Y = 3\n")
    assert cache.key_of(["site_builder.results"], ["vendor a.json 00"]) == key
    (fake_package / "models" / "core.py").write_text("X = 2\n")
    assert cache.key_of(["site_builder.results"], ["vendor a.json 00"]) != key


def test_key_changes_with_inputs_and_library_versions(fake_package: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    key = cache.key_of(["site_builder.results"], ["vendor a.json 00"])
    assert cache.key_of(["site_builder.results"], ["vendor a.json 01"]) != key
    monkeypatch.setattr(cache, "library_versions", lambda: ["python 3.11", "numpy 9.9.9", "simpy 4.1.2"])
    assert cache.key_of(["site_builder.results"], ["vendor a.json 00"]) != key


def test_real_models_depend_on_their_engines() -> None:
    names = {p.relative_to(cache.PACKAGE_DIR).as_posix() for p in cache.source_files("site_builder.results.simulation")}
    assert {"models/simulation/fifo.py", "results/simulation.py", "results/doc.py"} <= names
    assert not any(n.startswith("models/analysis/") for n in names)
    assert "models/simulation/engine.py" not in names  # the SimPy reference runs in the tests only


def test_entries_round_trip_and_damage_is_detected(tmp_path: Path) -> None:
    c = cache.ResultsCache(tmp_path)
    calls: list[int] = []

    def compute() -> str:
        calls.append(1)
        return "payload ✓"

    assert c.get_or_compute("m", "k" * 64, compute) == "payload ✓"
    assert c.get_or_compute("m", "k" * 64, compute) == "payload ✓"
    assert len(calls) == 1 and c.hits == ["m"]
    (entry,) = tmp_path.glob("m.*")
    entry.write_bytes(entry.read_bytes()[:-3])  # truncated on disk
    assert c.get_or_compute("m", "k" * 64, compute) == "payload ✓"
    assert len(calls) == 2
    entry.write_bytes(entry.read_bytes().replace(b"payload", b"pAyload"))  # same length, edited
    assert c.get_or_compute("m", "k" * 64, compute) == "payload ✓"
    assert len(calls) == 3
    for i, k in enumerate("0123abcd"):  # other keys (hex, as every key is): each computed once, the newest few kept
        assert c.get_or_compute("m", k * 64, compute) == "payload ✓"
        assert len(calls) == 4 + i
    assert len([p for p in tmp_path.glob("m.*") if p.name != f"m.{'k' * 32}"]) == cache.KEEP


def test_entries_a_new_cache_object_writes_prune_the_older_ones_on_disk_and_nothing_else(tmp_path: Path) -> None:
    import os

    old = [tmp_path / f"m.{d * 32}" for d in "0123456"]  # left by earlier builds, oldest first
    for i, path in enumerate(old):
        path.write_text("entry")
        os.utime(path, ns=(10**9 * (i + 1), 10**9 * (i + 1)))
    others = [tmp_path / "m.txt", tmp_path / "mm.{}".format("e" * 32), tmp_path / "m.notes"]
    others.append(tmp_path / "m.x.{}".format("e" * 32))  # an entry of m.x (listed among m's names, not one of them)
    for path in others:
        path.write_text("not an entry of m")
    outside = tmp_path.parent / f"{tmp_path.name}-outside"
    outside.write_text("a user's file")
    (tmp_path / f"m.{'c' * 32}").symlink_to(outside)  # named as an entry of m, oldest, but no file this cache wrote
    (tmp_path / f"m.{'d' * 32}").mkdir()
    for odd in ("c", "d"):
        os.utime(tmp_path / f"m.{odd * 32}", ns=(1, 1), follow_symlinks=False)
    others += [tmp_path / f"m.{'c' * 32}", tmp_path / f"m.{'d' * 32}"]
    c = cache.ResultsCache(tmp_path)  # one listing of the folder, then each write prunes m's oldest entries
    c.write("m", "f" * 64, "new")
    assert sorted(p.name for p in tmp_path.glob("m.*") if p not in others) == sorted(
        [f"m.{'f' * 32}", *(p.name for p in old[-(cache.KEEP - 1) :])]
    )
    c.write("m", "9" * 64, "newer")  # the entry written before is known to the listing: pruned in its turn
    assert len([p for p in tmp_path.glob("m.*") if p not in others]) == cache.KEEP
    assert (tmp_path / f"m.{'f' * 32}").exists() and (tmp_path / f"m.{'9' * 32}").exists()
    assert all(p.read_text() == "not an entry of m" for p in others[:4])
    assert (tmp_path / f"m.{'c' * 32}").is_symlink() and outside.read_text() == "a user's file"
    assert (tmp_path / f"m.{'d' * 32}").is_dir()


def test_no_cache_folder_means_always_compute(tmp_path: Path) -> None:
    c = cache.ResultsCache(None)
    assert c.get_or_compute("m", "k", lambda: "x") == "x"
    assert c.misses == ["m"] and not list(tmp_path.iterdir())


def test_the_import_graph_kept_between_builds_gives_the_same_keys(tmp_path: Path) -> None:
    entries = ("site_builder.results.simulation",)
    fresh = cache.key_of(entries, ["x"])
    cache.IMPORT_MEMO.load(tmp_path)
    try:
        cache._sources.cache_clear()
        cache.source_files.cache_clear()
        assert cache.key_of(entries, ["x"]) == fresh
        cache.IMPORT_MEMO.used = {}
        cache._imports.cache_clear()
        cache._sources.cache_clear()
        cache.source_files.cache_clear()
        assert cache.key_of(entries, ["x"]) == fresh
        cache.IMPORT_MEMO.save()
        saved = json.loads((tmp_path / "imports.json").read_text("utf-8"))
        assert any("models/simulation/fifo.py" in k for k in saved["files"])
        cache.IMPORT_MEMO.load(tmp_path)  # read back: no source file is read for its imports
        cache._sources.cache_clear()
        cache.source_files.cache_clear()
        cache._imports_of.cache_clear()
        cache._imports.cache_clear()
        assert cache.key_of(entries, ["x"]) == fresh
        assert cache._imports_of.cache_info().currsize == 0
        (tmp_path / "imports.json").write_text("{not json", "utf-8")  # damaged: ignored, found again
        cache.IMPORT_MEMO.load(tmp_path)
        assert cache.IMPORT_MEMO.known == {}
        cache._sources.cache_clear()
        cache.source_files.cache_clear()
        assert cache.key_of(entries, ["x"]) == fresh
    finally:
        cache.IMPORT_MEMO.load(None)
        cache._sources.cache_clear()
        cache.source_files.cache_clear()


def test_the_digests_hashed_by_the_up_to_date_check_give_the_same_keys(tmp_path: Path) -> None:
    from site_builder.cache import uptodate
    from site_builder.paths import Options

    paths = Options(project=tmp_path, out=tmp_path / "site", cache=tmp_path / "cache").paths()
    files = uptodate.input_files(paths)
    entries = ("site_builder.content.parse", "site_builder.results.simulation")
    read = cache.key_of(entries, ["pins"])
    with cache.hashed(files):
        assert cache.key_of(entries, ["pins"]) == read  # the same digests, not read again
    wrong = {k: ("0" * 64 if k == "site_builder/content/parse.py" else v) for k, v in files.items()}
    with cache.hashed(wrong):
        assert cache.key_of(entries, ["pins"]) != read  # they are the ones used
    assert not cache.HASHED and cache.key_of(entries, ["pins"]) == read  # and only within the block


def test_has_answers_from_one_listing_of_the_folder_and_the_caches_own_writes(tmp_path: Path) -> None:
    """``has`` lists the folder once per build (no stat per entry asked about) and sees what the build itself
    wrote since; an entry's read still checks it."""
    folder = tmp_path / "c"
    cache.forget_listings()
    first = cache.ResultsCache(folder)
    first.write("page-a", "a" * 64, "A")
    other = cache.ResultsCache(folder)  # each phase has its own object: one listing is shared by all
    assert other.has("page-a", "a" * 64) and not other.has("page-a", "b" * 64) and not other.has("page-b", "a" * 64)
    other.write("page-b", "b" * 64, "B")
    assert first.has("page-b", "b" * 64)
    (folder / f"page-c.{'c' * 32}").write_text("not an entry of this build's listing")
    assert not first.has("page-c", "c" * 64)  # written by another process since the listing: taken as absent
    cache.forget_listings()
    assert first.has("page-c", "c" * 64) and first.read("page-c", "c" * 64) is None  # listed, but no entry
    assert not cache.ResultsCache(None).has("page-a", "a" * 64)
